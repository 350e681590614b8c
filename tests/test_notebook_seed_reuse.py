"""Notebooks never seed two ledger-charged mechanisms from the same integer seed.

Two generators built from one seed draw the same noise, so two releases charged to one
ledger would not have independent noise, and the composition the ledger adds up would not
apply. The test reads the code cells of every lesson (no execution) and refuses a cell in
which two calls share the same ``accountant=`` argument and the same ``rng=`` expression
unless that expression is a name bound to ``np.random.default_rng(...)`` (one generator,
consumed in turn by both mechanisms).
"""

from __future__ import annotations

import ast
import json
from collections import defaultdict
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _code_cells(path: Path):
    for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
        try:
            yield index, ast.parse("\n".join(lines))
        except SyntaxError:
            continue


def _generator_names(tree: ast.AST) -> set[str]:
    """Names assigned from a ``*.default_rng(...)`` or ``*.Generator(...)`` call in the cell."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in {"default_rng", "Generator"}:
                names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


def shared_seeds(tree: ast.AST) -> list[str]:
    """The ``rng=`` expressions passed to two or more calls charged to the same accountant."""
    generators = _generator_names(tree)
    calls = defaultdict(int)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        keywords = {keyword.arg: keyword.value for keyword in node.keywords}
        if "rng" not in keywords or "accountant" not in keywords:
            continue
        rng = keywords["rng"]
        if isinstance(rng, ast.Name) and rng.id in generators:
            continue
        calls[(ast.unparse(rng), ast.unparse(keywords["accountant"]))] += 1
    return [f"rng={rng} with accountant={accountant}" for (rng, accountant), count in calls.items() if count > 1]


def test_detector_sees_the_pattern():
    reused = ast.parse("a = f(x, accountant=led, rng=SEED)\nb = g(x, accountant=led, rng=SEED)\n")
    one_generator = ast.parse("rng = np.random.default_rng(SEED)\n"
                              "a = f(x, accountant=led, rng=rng)\nb = g(x, accountant=led, rng=rng)\n")
    two_ledgers = ast.parse("a = f(x, accountant=one, rng=SEED)\nb = g(x, accountant=two, rng=SEED)\n")
    assert shared_seeds(reused) == ["rng=SEED with accountant=led"]
    assert shared_seeds(one_generator) == [] and shared_seeds(two_ledgers) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_no_seed_shared_by_two_charged_mechanisms(path):
    found = {index: shared for index, tree in _code_cells(path) if (shared := shared_seeds(tree))}
    assert not found, f"{path.name}: same seed for two mechanisms on one ledger in cells {found}"

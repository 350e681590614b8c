"""Notebooks never seed two ledger-charged mechanisms from the same integer seed.

Two generators built from one seed draw the same noise, so two releases charged to one
ledger would not have independent noise, and the composition the ledger adds up would not
apply (two Gaussian releases ``f + s1 z`` and ``f + s2 z`` with one ``z`` even give ``f``
exactly). The test reads the code cells of every lesson (no execution) and refuses, unless
the ``rng=`` expression is a name bound to ``np.random.default_rng(...)`` (one generator,
consumed in turn; the seed it was built from counts as a seed expression below):

- a cell in which two calls share the same ``accountant=`` argument and ``rng=`` expression;
- in a cell that charges a ledger (an ``accountant=`` argument or a ``.spend(`` call), a call
  inside a loop whose ``rng=`` expression leaves out a variable of an enclosing loop, so that
  every pass of that loop reuses the seed;
- the same ``rng=`` expression in two cells that charge a ledger (``rng=seed`` in two sweeps
  over the same seeds).
"""

from __future__ import annotations

import ast
import json
from collections import defaultdict
from pathlib import Path

import pytest

NOTEBOOKS = sorted(path for folder in ("notebooks", "solutions")
                   for path in (Path(__file__).resolve().parents[1] / folder).glob("[0-9][0-9]_*.ipynb"))


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


def _charges(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if any(keyword.arg == "accountant" for keyword in node.keywords):
                return True
            if isinstance(node.func, ast.Attribute) and node.func.attr == "spend":
                return True
    return False


def _called_name(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")


def _seed_calls(tree: ast.AST, loops: tuple = ()):
    """(seed expression, names of the enclosing loops' variables it leaves out) for every call with ``rng=``
    and every generator built with ``default_rng(seed)``: ``rng=SEED`` in one cell and
    ``default_rng(SEED)`` in another are the same seed, and a generator rebuilt from one seed on every pass
    of a loop draws the same noise each time."""
    generators = _generator_names(tree)
    found = []

    def visit(node, loop_names):
        if isinstance(node, (ast.For, ast.comprehension)):
            targets = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
            loop_names = loop_names + (targets,)
        if isinstance(node, ast.Call):
            seeds = [keyword.value for keyword in node.keywords if keyword.arg == "rng"
                     and not (isinstance(keyword.value, ast.Name) and keyword.value.id in generators)]
            if _called_name(node) in {"default_rng", "Generator"} and node.args:
                seeds.append(node.args[0])  # a generator built here: its seed is what repeats
            for seed in seeds:
                used = {n.id for n in ast.walk(seed) if isinstance(n, ast.Name)}
                missing = [sorted(t) for t in loop_names if not t & used]
                found.append((ast.unparse(seed), missing))
        for child in ast.iter_child_nodes(node):
            visit(child, loop_names)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            pass

    visit(tree, loops)
    return found


def seeds_fixed_in_a_loop(tree: ast.AST) -> list[str]:
    """``rng=`` expressions that do not change from one pass of an enclosing loop to the next, in a charging cell."""
    if not _charges(tree):
        return []
    return [f"rng={rng} does not change with {missing}" for rng, missing in _seed_calls(tree) if missing]


def test_loop_detector_sees_the_pattern():
    reused = ast.parse("for seed in S:\n    for s in SIG:\n        r = train(x, rng=seed)\n        led.spend(1.0)\n")
    fresh = ast.parse("for seed in S:\n    for k, s in enumerate(SIG):\n"
                      "        r = train(x, rng=np.random.default_rng([seed, k]))\n        led.spend(1.0)\n")
    one_generator = ast.parse("g = np.random.default_rng(1)\nfor s in SIG:\n    r = train(x, rng=g)\n    led.spend(1.0)\n")
    not_charged = ast.parse("for s in SIG:\n    r = train(x, rng=0)\n")
    rebuilt = ast.parse("for t in T:\n    g = np.random.default_rng(SEED)\n    r = train(x, rng=g)\n    led.spend(t)\n")
    assert seeds_fixed_in_a_loop(rebuilt) == ["rng=SEED does not change with [['t']]"]
    assert seeds_fixed_in_a_loop(reused) == ["rng=seed does not change with [['s']]"]
    assert seeds_fixed_in_a_loop(fresh) == seeds_fixed_in_a_loop(one_generator) == seeds_fixed_in_a_loop(not_charged) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_no_seed_repeated_across_a_loop_of_charged_runs(path):
    found = {index: fixed for index, tree in _code_cells(path) if (fixed := seeds_fixed_in_a_loop(tree))}
    assert not found, f"{path.name}: a charged run reuses its seed on every pass of a loop, in cells {found}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_no_seed_expression_shared_by_two_charging_cells(path):
    cells = defaultdict(set)
    for index, tree in _code_cells(path):
        if _charges(tree):
            for rng, _ in _seed_calls(tree):
                cells[rng].add(index)
    shared = {rng: sorted(indexes) for rng, indexes in cells.items() if len(indexes) > 1}
    assert not shared, f"{path.name}: the same seed expression in cells that charge a ledger: {shared}"


def _seed_forms(seed: str, loop_names: set[str]) -> set[str]:
    """``seed`` and the shorter seeds it equals: NumPy pads a seed list with zeros, so ``default_rng([SEED, 0])``
    is ``default_rng(SEED)``, and ``[SEED, run]`` is ``SEED`` on the pass where the loop variable ``run`` is 0."""
    node = ast.parse(seed, mode="eval").body
    if not isinstance(node, (ast.List, ast.Tuple)):
        return {seed}
    items, forms = list(node.elts), {seed}
    while items:
        forms.add(ast.unparse(items[0] if len(items) == 1 else ast.List(items, ast.Load())))
        last = items[-1]
        if not ((isinstance(last, ast.Constant) and last.value == 0)
                or (isinstance(last, ast.Name) and last.id in loop_names)):
            break
        items.pop()
    return forms


def test_seed_forms_drop_trailing_zeros():
    assert _seed_forms("[SEED, run_id]", {"run_id"}) == {"[SEED, run_id]", "SEED"}
    assert _seed_forms("[SEED, 0]", set()) == {"[SEED, 0]", "SEED"}
    assert _seed_forms("[SEED, 28, run_id]", {"run_id"}) == {"[SEED, 28, run_id]", "[SEED, 28]"}
    assert _seed_forms("[SEED, run_id]", set()) == {"[SEED, run_id]"} and _seed_forms("SEED", set()) == {"SEED"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_no_charged_seed_list_equal_to_another_cells_seed_once_trailing_zeros_drop(path):
    """A charging cell's seed list, with trailing zeros dropped, is no seed of another cell (charging or not):
    lesson 08's attack run 0 once drew ``default_rng([SEED, run_id])``, the stream of its audits and bootstrap."""
    seen, hidden = defaultdict(set), []
    for index, tree in _code_cells(path):
        loop_names = {name.id for node in ast.walk(tree) if isinstance(node, (ast.For, ast.comprehension))
                      for name in ast.walk(node.target) if isinstance(name, ast.Name)}
        for rng, _ in _seed_calls(tree):
            forms = _seed_forms(rng, loop_names)
            for form in forms:
                seen[form].add(index)
            if _charges(tree):
                hidden += [(rng, form, index) for form in forms - {rng}]
    shared = [f"cell {index}: {rng} is {form}, as in cells {sorted(seen[form] - {index})}"
              for rng, form, index in hidden if seen[form] - {index}]
    assert not shared, f"{path.name}: a charged run's seed list equals another cell's seed: {shared}"

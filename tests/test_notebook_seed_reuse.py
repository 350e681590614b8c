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
  over the same seeds);
- a seed drawn by a cell that charges a ledger and drawn anywhere else in the notebook, or twice in
  that cell: by another release, a simulation, an audit (``audit_epsilon(..., rng=SEED)``) or the
  data generator (``datasets.medical(rng=SEED)``), so that the release's noise would repeat draws
  made elsewhere (lesson 03's old ``rng=SEED`` everywhere: two answer sets whose noise differed by a
  factor of 600 gave every count exactly);
- a seed passed to a data generator (``datasets.*(rng=SEED)``) and drawn by any other call, in any cell: an
  ``rng=`` argument or a generator built from it (lesson 04's tuning once drew the private log's stream).

A cell charges a ledger if it passes ``accountant=``, calls ``.spend(``, or builds a
``PrivateDatabase`` with a budget (``budget=``, ``accountant=`` or a second positional argument).
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
            if any(keyword.arg in {"accountant", "budget"} for keyword in node.keywords):
                return True
            if isinstance(node.func, ast.Attribute) and node.func.attr == "spend":
                return True
            if _called_name(node) == "PrivateDatabase" and len(node.args) >= 2:  # a positional budget or ledger
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


# Known and accepted, compared whole as SEED_SHARING_ACCEPTED below is. 06: cell 39 makes split 0 of each task
# (digits, then breast_cancer) with compare_groupings(rng=0), the seed the stored split 0 was made with. That 0
# fixes the split and the models only: every release draws its own noise stream, keyed by (seed, dataset,
# release, epsilon) (comparison.release_stream), so the two passes share no noise draw, and only digits'
# random-groups release is charged.
LOOP_SEED_ACCEPTED = {"06_synthetic_data": {39: ["rng=0 does not change with [['name', 'task']]"]}}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_no_seed_repeated_across_a_loop_of_charged_runs(path):
    found = {index: fixed for index, tree in _code_cells(path) if (fixed := seeds_fixed_in_a_loop(tree))}
    assert found == LOOP_SEED_ACCEPTED.get(path.stem, {}), \
        f"{path.name}: a charged run reuses its seed on every pass of a loop, in cells {found}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_no_seed_expression_shared_by_two_charging_cells(path):
    cells = defaultdict(set)
    for index, tree in _code_cells(path):
        if _charges(tree):
            for rng, _ in _seed_calls(tree):
                cells[rng].add(index)
    shared = {rng: sorted(indexes) for rng, indexes in cells.items() if len(indexes) > 1}
    assert shared == CHARGING_CELLS_SEED_ACCEPTED.get(path.stem, {}), \
        f"{path.name}: the same seed expression in cells that charge a ledger: {shared}"


# Known and accepted, compared whole. 06: cell 51's "0" is split_real's scikit-learn random_state, the public
# breast_cancer split that compare_groupings(rng=0) also makes in cell 39; MST's noise in cell 51 draws SEED.
CHARGING_CELLS_SEED_ACCEPTED = {"06_synthetic_data": {"0": [39, 51]}}


def _draws(tree: ast.AST, generators: set[str]) -> list[str]:
    """Every seed the cell draws from: each ``rng=`` argument (of a mechanism, a database, an audit, a
    data generator) and each seed a generator is built from, except a name bound to a generator
    (``generators``: one generator, consumed in turn, counted where it is built)."""
    seeds = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if _called_name(node) in {"default_rng", "Generator"} and node.args:
            seeds.append(ast.unparse(node.args[0]))
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg != "rng" or (isinstance(value, ast.Name) and value.id in generators):
                continue
            if isinstance(value, ast.Call) and _called_name(value) in {"default_rng", "Generator"}:
                continue  # its seed is counted as the generator's
            seeds.append(ast.unparse(value))
    return seeds


def release_seeds_drawn_elsewhere(trees) -> dict[str, list[int]]:
    """Seeds drawn by a charging cell that are drawn more than once in the notebook, with the cells."""
    trees = list(trees)
    built_from = defaultdict(set)  # generator name: the seeds it is built from, in any cell
    for _, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and node.value.args \
                    and _called_name(node.value) in {"default_rng", "Generator"}:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        built_from[target.id].add(ast.unparse(node.value.args[0]))
    drawn, charged = defaultdict(list), set()
    for index, tree in trees:
        seeds = _draws(tree, set(built_from))
        for seed in seeds:
            drawn[seed].append(index)
        if _charges(tree):
            charged |= set(seeds)
            charged |= {seed for node in ast.walk(tree) if isinstance(node, ast.keyword) and node.arg == "rng"
                        and isinstance(node.value, ast.Name) for seed in built_from.get(node.value.id, ())}
    return {seed: drawn[seed] for seed in sorted(charged) if len(drawn[seed]) > 1}


def test_release_seed_detector_sees_the_pattern():
    def cells(*sources):
        return [(index, ast.parse(source)) for index, source in enumerate(sources)]
    data = "patients = datasets.medical(n=100, rng=SEED)"
    shared = cells(data, "db = PrivateDatabase(patients, budget=1.0, rng=SEED)",
                   "a = audit_epsilon(m, x, y, rng=SEED)")
    positional = cells("db = PrivateDatabase(c, accountant, rng=1)", "sim = PrivateDatabase(c, budget=9.0, rng=1)")
    global_generator = cells("rng = np.random.default_rng(SEED)", data,
                             "db = PrivateDatabase(patients, budget=1.0, rng=rng)")
    own_streams = cells(data, "db = PrivateDatabase(patients, budget=1.0, rng=np.random.default_rng([SEED, 1]))",
                        "a = audit_epsilon(m, x, y, rng=np.random.default_rng([SEED, 2]))",
                        "b = audit_epsilon(m, x, y, rng=np.random.default_rng([SEED, 3]))")
    assert release_seeds_drawn_elsewhere(shared) == {"SEED": [0, 1, 2]}
    assert release_seeds_drawn_elsewhere(positional) == {"1": [0, 1]}
    assert release_seeds_drawn_elsewhere(global_generator) == {"SEED": [0, 1]}
    assert release_seeds_drawn_elsewhere(own_streams) == {}


# Known and accepted, each with the exact cells, so any new sharing still fails: the test compares the whole
# finding with this table. Each is a simulation, a public split or a data-preparation step, not a second
# release of the same noise; each is said in the lesson or listed as left in the closing notes.
SEED_SHARING_ACCEPTED = {
    # 06: "0" is the one public train/test split (split_real(rng=0), scikit-learn's random_state: cells 16, 20,
    # 44, 47 and 51), k-means seeds (cells 23 and 32: default_rng(0), on which no release draws) and cell 39's
    # compare_groupings, whose rng=0 makes split 0 and seeds the models; the charged digits release and every
    # other release it makes draw their own noise streams, default_rng([0, dataset, release, epsilon's bits])
    # (comparison.release_stream), never default_rng(0) nor one another's (cells 19, 38 and 55 say so).
    "06_synthetic_data": {"0": [16, 20, 23, 32, 32, 39, 44, 47, 51]},
    # 07: cell 22's data generator and its contribution limiting draw the same seed (a preparation step).
    "07_selection_and_local_dp": {"seed": [22, 22]},
}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_no_release_seed_drawn_elsewhere(path):
    shared = release_seeds_drawn_elsewhere(_code_cells(path))
    if path.stem in SEED_SHARING_ACCEPTED:
        assert shared == SEED_SHARING_ACCEPTED[path.stem], f"{path.name}: the seed sharing changed: {shared}"
        return
    assert not shared, f"{path.name}: a seed drawn by a charging cell is drawn elsewhere too (seed: cells): {shared}"


# A release must not draw the noise stream of data it was made from, nor of another release: a seed that
# generates data (a ``datasets.*`` call) or drives a charged release is refused in any other cell that
# releases or generates data. Two data generators may share a seed (no noise is released).

_RELEASES = {"mst", "independent_marginals", "private_relevance", "published_pipeline",
             "compare_groupings", "compare_once"}


def _stream(value: ast.AST, generators: dict[str, str]) -> str:
    """The seed an ``rng=`` value draws from: a generator's seed (built here or inline), else the expression."""
    if isinstance(value, ast.Call) and _called_name(value) in {"default_rng", "Generator"} and value.args:
        return ast.unparse(value.args[0])
    if isinstance(value, ast.Name) and value.id in generators:
        return generators[value.id]
    return ast.unparse(value)


def release_and_data_seeds(tree: ast.AST) -> list[tuple[str, str]]:
    """(seed, kind) of every call in the cell that generates data (kind ``"data"``: a ``datasets.*`` call) or
    makes a release (kind ``"release"``: a ``release*`` function, MST, the independent marginals, paid or
    published relevance, or any call with ``accountant=``), for the calls that take ``rng=``."""
    generators = {target.id: ast.unparse(node.value.args[0]) for node in ast.walk(tree)
                  if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and node.value.args
                  and _called_name(node.value) in {"default_rng", "Generator"}
                  for target in node.targets if isinstance(target, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        keywords = {keyword.arg: keyword.value for keyword in node.keywords}
        if "rng" not in keywords:
            continue
        name = _called_name(node)
        if isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", "") == "datasets":
            found.append((_stream(keywords["rng"], generators), "data"))
        elif name.startswith("release") or name in _RELEASES or "accountant" in keywords:
            found.append((_stream(keywords["rng"], generators), "release"))
    return found


def seeds_shared_with_data_or_charged_releases(cells) -> dict[str, list[int]]:
    """Seeds of a data generator or of a release in a charging cell that another cell's release or data
    generator also draws from (two data generators alone are allowed), with the cells, from
    ``(index, tree)`` pairs."""
    sources, users = defaultdict(set), defaultdict(set)
    for index, tree in cells:
        charging = _charges(tree)
        for seed, kind in release_and_data_seeds(tree):
            users[seed].add((index, kind))
            if kind == "data" or charging:
                sources[seed].add((index, kind))
    shared = {}
    for seed, origins in sources.items():
        clashes = {(index, kind) for index, kind in users[seed] for origin, origin_kind in origins
                   if index != origin and "release" in (kind, origin_kind)}
        if clashes:
            shared[seed] = sorted({index for index, _ in clashes} | {origin for origin, _ in origins})
    return shared


def test_data_seed_detector_sees_the_pattern():
    def cells(*sources):
        return [(index, ast.parse(source)) for index, source in enumerate(sources)]
    data = "shop = datasets.coffee_shop_revenue(n=10, rng=SEED)\n"
    charged = "r = release_table(shop, B, plan, accountant=led, rng=SEED)\n"
    release = "base = synthetic.release_group_means(X, y, lo, hi, 10.0, D, rng=SEED)\n"
    mst_charged = "led = Acc(1.0)\nr = marginals.mst(codes, sizes, 1.0, D, rng=SEED, accountant=led)\n"
    own = "r = release_table(shop, B, plan, accountant=led, rng=np.random.default_rng([SEED, 43]))\n"
    generator = "g = np.random.default_rng(SEED)\nr = release_table(shop, B, plan, rng=g)\n"
    assert seeds_shared_with_data_or_charged_releases(cells(data, charged)) == {"SEED": [0, 1]}  # lesson 05, cell 43
    assert seeds_shared_with_data_or_charged_releases(cells(release, mst_charged)) == {"SEED": [0, 1]}  # 06, cell 47
    assert seeds_shared_with_data_or_charged_releases(cells(data, generator)) == {"SEED": [0, 1]}
    assert seeds_shared_with_data_or_charged_releases(cells(data, own)) == {}
    assert seeds_shared_with_data_or_charged_releases(cells(data, data.replace("shop", "toy"))) == {}
    assert seeds_shared_with_data_or_charged_releases(cells(release, release)) == {}  # neither charged nor data
    sweep = "rows, made = compare_groupings(task, (10.0,), D, rng=0)\nled.spend(10.0, D)\n"
    display = "made[1.0] = synthetic.release_group_means(X, y, lo, hi, 1.0, D, rng=0)\n"
    assert seeds_shared_with_data_or_charged_releases(cells(sweep, display)) == {"0": [0, 1]}  # 06, cell 44


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_no_release_draws_the_seed_of_data_or_of_a_charged_release(path):
    shared = seeds_shared_with_data_or_charged_releases(_code_cells(path))
    assert not shared, (f"{path.name}: a release or data generator draws the seed of generated data or of a "
                        f"charged release in another cell (seed: cells): {shared}")


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


def _generated_data(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and getattr(call.func.value, "id", "") == "datasets"


def data_seeds_drawn_elsewhere(cells) -> dict[str, list[tuple[int, str]]]:
    """Seeds passed to a data generator (a ``datasets.*`` call's ``rng=``, or the seed of a generator built
    inline there) that a call other than a data generator also draws, in any cell, as ``{seed: [(cell, call),
    ...]}``: an ``rng=`` argument (of a release, an audit, ``limit_contributions`` or any other tuning step) or
    a generator built from it (``default_rng(SEED)``, also as ``default_rng([SEED, 0])`` or ``[SEED, run]``
    on a loop's pass 0, see ``_seed_forms``). Such a call repeats the private data's draws: lesson 04's tuning
    once drew the private log's stream. A name bound to a generator is consumed in turn and not counted."""
    cells = list(cells)
    generators = {target.id for _, tree in cells for node in ast.walk(tree)
                  if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                  and _called_name(node.value) in {"default_rng", "Generator"}
                  for target in node.targets if isinstance(target, ast.Name)}
    data, users = set(), []
    for index, tree in cells:
        loop_names = {name.id for node in ast.walk(tree) if isinstance(node, (ast.For, ast.comprehension))
                      for name in ast.walk(node.target) if isinstance(name, ast.Name)}
        inside_data = set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            keywords = {keyword.arg: keyword.value for keyword in node.keywords}
            value = keywords.get("rng")
            built = isinstance(value, ast.Call) and _called_name(value) in {"default_rng", "Generator"} and value.args
            if _generated_data(node):
                if value is not None and not (isinstance(value, ast.Name) and value.id in generators):
                    data.add(ast.unparse(value.args[0] if built else value))
                    inside_data |= {id(child) for child in ast.walk(value)}
                continue
            if _called_name(node) in {"default_rng", "Generator"} and node.args and id(node) not in inside_data:
                users.append((index, ast.unparse(node), _seed_forms(ast.unparse(node.args[0]), loop_names)))
            if value is not None and not built and not (isinstance(value, ast.Name) and value.id in generators):
                users.append((index, f"{_called_name(node)}(rng={ast.unparse(value)})",
                              _seed_forms(ast.unparse(value), loop_names)))
    shared = defaultdict(list)
    for index, call, forms in users:
        for seed in sorted(forms & data):
            shared[seed].append((index, call))
    return dict(shared)


def test_data_seed_rule_sees_the_pattern():
    def cells(*sources):
        return [(index, ast.parse(source)) for index, source in enumerate(sources)]
    data = "private_log = datasets.purchases(n_customers=3000, rng=SEED)\n"
    lesson_wide = "rng = np.random.default_rng(SEED)\n"
    tuning = "bounded = limit_contributions(public_log, 'customer_id', K, rng=rng)\n"
    assert data_seeds_drawn_elsewhere(cells(lesson_wide, data, tuning)) == {"SEED": [(0, "np.random.default_rng(SEED)")]}
    assert data_seeds_drawn_elsewhere(cells(data, "a = audit_epsilon(m, x, y, rng=SEED)")) == \
        {"SEED": [(1, "audit_epsilon(rng=SEED)")]}
    padded = "for run in range(3):\n    g = np.random.default_rng([SEED, run])\n"
    assert data_seeds_drawn_elsewhere(cells(data, padded)) == {"SEED": [(1, "np.random.default_rng([SEED, run])")]}
    inline = "toy = datasets.medical(n=10, rng=np.random.default_rng(SEED))\n"
    assert data_seeds_drawn_elsewhere(cells(inline, lesson_wide)) == {"SEED": [(1, "np.random.default_rng(SEED)")]}
    own = "rng = np.random.default_rng([SEED, 2])\n"
    assert data_seeds_drawn_elsewhere(cells(own, data, tuning, inline, data.replace("SEED", "SEED + 1"))) == {}


# Known and accepted, each with the exact calls, compared whole so that any new sharing fails.
DATA_SEED_ACCEPTED = {
    # 05: cells 54 and 64 pass SEED to release_utility.compare_allocations, which never draws SEED's own stream:
    # it takes each run's noise from default_rng([SEED, s, round(1000 epsilon)]), the real clusters' k-means
    # seed from default_rng([SEED, 2]) and the evaluation's from default_rng([SEED, s, 3]). Giving the two
    # calls seeds of their own would redraw the 400- and 240-run simulations that cells 57-68 quote, and the
    # two must share one (cell 63: the top-k runs reuse section 6's noise draws, k = 6 is its MIC release).
    "05_mic_dp": {"SEED": [(54, "compare_allocations(rng=SEED)"), (64, "compare_allocations(rng=SEED)")]},
    # 07: cell 22's data generator and its contribution limiting draw the same seed (a preparation step, as
    # SEED_SHARING_ACCEPTED says).
    "07_selection_and_local_dp": {"seed": [(22, "limit_contributions(rng=seed)")]},
}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_no_call_draws_the_data_generators_seed(path):
    shared = data_seeds_drawn_elsewhere(_code_cells(path))
    assert shared == DATA_SEED_ACCEPTED.get(path.stem, {}), \
        f"{path.name}: a call other than a data generator draws a data generator's seed (seed: cells): {shared}"

"""Every public function and method of the two packages documents what it takes and what it gives back.

The walker imports every module of ``mic_dp_helpers`` and ``mic_dp_teacher`` (private modules such as
``_validation`` and ``checks._core`` included: other modules call their public functions) and collects

- every module-level function whose name has no leading underscore and that the module itself defines
  (re-exports are checked where they are defined);
- every public class, whose constructor parameters the class docstring documents (numpydoc puts them there,
  or in ``__init__``'s docstring; a dataclass or NamedTuple may list its fields under ``Attributes``);
- every public method, static method and class method such a class defines (properties are attributes:
  their docstring is a one-line description).

Each one needs a numpydoc ``Parameters`` section naming every parameter other than ``self``/``cls`` (when it
has any) and a ``Returns`` (or, for a generator, ``Yields``) section when its body returns a value. Sections
are found by the numpydoc header (a title underlined with dashes); ``numpydoc`` is not a dependency of the
course, so a small parser below reads them.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGES = ("mic_dp_helpers", "mic_dp_teacher")
SKIP_MODULES = {"mic_dp_teacher.grading.__main__"}  # importing it runs the grading command line


@dataclass(frozen=True)
class Public:
    """A public callable and what its docstring must hold."""

    name: str
    doc: str
    parameters: tuple[str, ...]
    returns_value: bool
    generator: bool


def _modules():
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        yield package
        for info in pkgutil.walk_packages(package.__path__, package_name + "."):
            if info.name not in SKIP_MODULES:
                yield importlib.import_module(info.name)


def _body_returns(function) -> tuple[bool, bool]:
    """Whether ``function``'s own body returns a value, and whether it yields (nested defs excluded)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return False, False
    definition = tree.body[0]
    returns = yields = False
    stack = list(definition.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            returns = True
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            yields = True
        stack.extend(ast.iter_child_nodes(node))
    return returns, yields


def _parameters(function, skip_first: bool) -> tuple[str, ...]:
    names = list(inspect.signature(function).parameters)
    if skip_first and names:
        names = names[1:]
    # a leading underscore marks a private keyword (a default bound for speed or safety), not an argument
    return tuple(name for name in names if not name.startswith("_"))


def _function(qualname: str, function, doc: str | None, skip_first: bool) -> Public:
    returns, yields = _body_returns(function)
    return Public(qualname, inspect.cleandoc(doc or ""), _parameters(function, skip_first), returns, yields)


def public_callables() -> list[Public]:
    """Every public function, class constructor and method of the two packages, once."""
    found: dict[str, Public] = {}
    for module in _modules():
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue
            qualname = f"{module.__name__}.{name}"
            if inspect.isfunction(obj):
                found[qualname] = _function(qualname, obj, obj.__doc__, skip_first=False)
            elif inspect.isclass(obj):
                found.update(_class_members(qualname, obj))
    return sorted(found.values(), key=lambda item: item.name)


def _class_members(qualname: str, cls) -> dict[str, Public]:
    members: dict[str, Public] = {}
    init = cls.__dict__.get("__init__")
    if inspect.isfunction(init) or "__dataclass_fields__" in cls.__dict__:
        parameters = _parameters(cls, skip_first=False) if not issubclass(cls, BaseException) else ()
        doc = "\n\n".join(inspect.cleandoc(part) for part in (cls.__doc__, getattr(init, "__doc__", None)) if part)
        if "__dataclass_fields__" in cls.__dict__ and not inspect.isfunction(init):
            doc = inspect.cleandoc(cls.__doc__ or "")
        members[qualname] = Public(qualname, doc, parameters, False, False)
    elif hasattr(cls, "_fields") and issubclass(cls, tuple):  # a NamedTuple
        members[qualname] = Public(qualname, inspect.cleandoc(cls.__doc__ or ""), tuple(cls._fields), False, False)
    elif not issubclass(cls, BaseException):
        members[qualname] = Public(qualname, inspect.cleandoc(cls.__doc__ or ""), (), False, False)
    for name, attribute in cls.__dict__.items():
        if name.startswith("_"):
            continue
        if isinstance(attribute, staticmethod):
            function, skip_first = attribute.__func__, False
        elif isinstance(attribute, classmethod):
            function, skip_first = attribute.__func__, True
        elif inspect.isfunction(attribute):
            function, skip_first = attribute, True
        else:
            continue  # properties, class attributes
        members[f"{qualname}.{name}"] = _function(f"{qualname}.{name}", function, function.__doc__, skip_first)
    return members


_HEADER = re.compile(r"^(?P<title>[A-Z][A-Za-z ]+)\n(?P<rule>-{3,})$", re.MULTILINE)


def sections(doc: str) -> dict[str, str]:
    """numpydoc sections of a (cleaned) docstring: title -> body."""
    headers = [match for match in _HEADER.finditer(doc) if len(match["rule"]) >= len(match["title"].strip()) - 1]
    found = {}
    for index, match in enumerate(headers):
        end = headers[index + 1].start() if index + 1 < len(headers) else len(doc)
        found[match["title"].strip()] = doc[match.end():end]
    return found


def documented_names(body: str) -> set[str]:
    """Parameter names in a numpydoc ``Parameters`` section (``a, b : int`` names two)."""
    names = set()
    for line in body.splitlines():
        if not line.strip() or line[:1].isspace():
            continue
        for name in line.split(" : ")[0].rstrip(":").split(","):
            names.add(name.strip().lstrip("*"))
    return names


def problems(item: Public) -> list[str]:
    """What ``item``'s docstring lacks (empty when it is complete)."""
    if not item.doc:
        return ["no docstring"]
    found = sections(item.doc)
    missing = []
    if item.parameters:
        # a class may document its fields (a dataclass, a NamedTuple) as Attributes
        listed = [found[title] for title in ("Parameters", "Attributes") if title in found]
        if not listed:
            missing.append("no Parameters section")
        else:
            names = set().union(*(documented_names(body) for body in listed))
            undocumented = [name for name in item.parameters if name not in names]
            if undocumented:
                missing.append(f"Parameters does not name {', '.join(undocumented)}")
    if item.generator and not {"Yields", "Returns"} & found.keys():
        missing.append("no Yields section")
    elif item.returns_value and not item.generator and "Returns" not in found:
        missing.append("no Returns section")
    return missing


CALLABLES = public_callables()
# The ratchet: callables not documented yet, one qualified name a line. A name that no longer exists
# (renamed, moved) is ignored; a listed one that became complete fails, so the list only shrinks.
GAPS_FILE = Path(__file__).with_name("docstring_gaps.txt")
KNOWN_GAPS = {line.strip() for line in GAPS_FILE.read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")}


def test_the_walker_finds_the_packages():
    names = {item.name for item in CALLABLES}
    assert "mic_dp_helpers.mechanisms.noise.laplace_mechanism" in names
    assert "mic_dp_teacher.exercises.main" in names or any(n.startswith("mic_dp_teacher.") for n in names)
    assert len(CALLABLES) > 300


def test_the_section_parser_reads_numpydoc():
    doc = inspect.cleandoc("""Summary.

        Parameters
        ----------
        a, b : int
            Two numbers.
        *args
            More.

        Returns
        -------
        int
        """)
    found = sections(doc)
    assert set(found) == {"Parameters", "Returns"}
    assert documented_names(found["Parameters"]) == {"a", "b", "args"}
    item = Public("f", doc, ("a", "b", "c"), True, False)
    assert problems(item) == ["Parameters does not name c"]
    assert problems(Public("g", "Summary only.", (), True, False)) == ["no Returns section"]


def test_every_public_docstring_documents_parameters_and_returns():
    incomplete = [f"{item.name}: {'; '.join(problems(item))}" for item in CALLABLES
                  if item.name not in KNOWN_GAPS and problems(item)]
    assert not incomplete, "numpydoc sections missing:\n" + "\n".join(incomplete)


def test_the_list_of_gaps_only_shrinks():
    done = [item.name for item in CALLABLES if item.name in KNOWN_GAPS and not problems(item)]
    assert not done, f"documented now, delete from {GAPS_FILE.name}: " + ", ".join(done)

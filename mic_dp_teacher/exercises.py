"""Generate the student notebooks in ``exercises/`` from the teacher notebooks in ``solutions/``.

``solutions/`` is the single source. In a solution code cell, the lines between
``# BEGIN SOLUTION`` and ``# END SOLUTION`` are replaced by a ``raise NotImplementedError``
line at the same indentation, so the exercise's check reports "not done yet" and Run All
completes. Markdown between ``<!-- BEGIN SOLUTION -->`` and ``<!-- END SOLUTION -->`` (for
example the teacher's explanation of an answer) is dropped. Outputs are cleared.

Command line::

    python -m mic_dp_teacher.exercises            # regenerate exercises/
    python -m mic_dp_teacher.exercises --check    # exit 1 if exercises/ is stale
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

import nbformat

from mic_dp_helpers._validation import check_text

__all__ = ["strip_solutions", "make_exercise_notebook", "exercise_file_name", "generate_exercises", "main"]

CODE_BEGIN = re.compile(r"^(?P<indent>[ \t]*)# BEGIN SOLUTION\s*$")
CODE_END = re.compile(r"^[ \t]*# END SOLUTION\s*$")
MARKDOWN_BLOCK = re.compile(r"<!-- BEGIN SOLUTION -->.*?<!-- END SOLUTION -->\n?", re.DOTALL)
PLACEHOLDER = 'raise NotImplementedError("Exercise: write your code here, then run the check below.")'
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def strip_solutions(source: str) -> str:
    """Replace each marked solution block in code ``source`` by a NotImplementedError placeholder.

    Parameters
    ----------
    source : str
        Source code of one cell.

    Returns
    -------
    str
        The source with every solution block replaced.

    Raises
    ------
    ValueError
        If a solution block is not closed, or closed without being opened.

    Examples
    --------
    >>> print(strip_solutions("def f(x):\\n    # BEGIN SOLUTION\\n    return 2 * x\\n    # END SOLUTION"))
    def f(x):
        raise NotImplementedError("Exercise: write your code here, then run the check below.")
    """
    out: list[str] = []
    inside = False
    for number, line in enumerate(check_text(source, "source").splitlines(), start=1):
        begin = CODE_BEGIN.match(line)
        if begin:
            if inside:
                raise ValueError(f"line {number}: '# BEGIN SOLUTION' inside another solution block")
            inside = True
            out.append(begin.group("indent") + PLACEHOLDER)
        elif CODE_END.match(line):
            if not inside:
                raise ValueError(f"line {number}: '# END SOLUTION' without a '# BEGIN SOLUTION' before it")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError("a '# BEGIN SOLUTION' block is never closed with '# END SOLUTION'")
    return "\n".join(out)


def make_exercise_notebook(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Return the student version of a solution notebook (solutions stripped, outputs cleared).

    Parameters
    ----------
    solution : nbformat.NotebookNode
        A solution notebook.

    Returns
    -------
    nbformat.NotebookNode
        A new notebook; ``solution`` is not changed.

    Raises
    ------
    TypeError
        If ``solution`` is not a notebook.
    ValueError
        If a cell has unbalanced solution markers.
    """
    if not isinstance(solution, dict) or not isinstance(solution.get("cells"), list):
        raise TypeError("solution must be a notebook (from nbformat.read(path, as_version=4)), "
                        f"got {type(solution).__name__}.")
    exercise = nbformat.from_dict(solution)
    cells = []
    for index, cell in enumerate(exercise.cells):
        cell.pop("id", None)
        if cell.cell_type == "code":
            try:
                cell.source = strip_solutions(cell.source)
            except ValueError as error:
                raise ValueError(f"cell {index}: {error}") from None
            cell.outputs = []
            cell.execution_count = None
            cell.metadata = {k: v for k, v in cell.metadata.items() if k in ("tags",)}
        elif cell.cell_type == "markdown":
            cell.source = MARKDOWN_BLOCK.sub("", cell.source)
        cells.append(cell)
    exercise.cells = cells
    exercise.metadata.pop("widgets", None)
    exercise.metadata.setdefault("mic_dp", {})["generated_from"] = "solutions/ (do not edit by hand)"
    exercise.nbformat_minor = 4  # cell ids are added by nbformat >= 4.5; keep files stable
    return exercise


def _render(notebook: nbformat.NotebookNode) -> str:
    return nbformat.writes(notebook) + "\n"


def exercise_file_name(solution_name: str) -> str:
    """The exercise notebook written from a solution notebook: ``02_x_solutions.ipynb`` -> ``02_x_exercises.ipynb``.

    Distinct names tell the lesson, its exercises and its solutions apart in JupyterLab's tabs.

    Parameters
    ----------
    solution_name : str
        File name of a solution notebook.

    Returns
    -------
    str
        File name of its exercise notebook.

    Examples
    --------
    >>> exercise_file_name("02_laplace_mechanism_solutions.ipynb")
    '02_laplace_mechanism_exercises.ipynb'
    """
    stem = check_text(solution_name, "solution_name").removesuffix(".ipynb").removesuffix("_solutions")
    return f"{stem}_exercises.ipynb"


def generate_exercises(
    solutions_dir: Path | str = PROJECT_ROOT / "solutions",
    exercises_dir: Path | str = PROJECT_ROOT / "exercises",
    *,
    check_only: bool = False,
) -> list[Path]:
    """Write ``exercises_dir`` from ``solutions_dir``; with ``check_only``, write nothing.

    Returns the exercise notebooks that were (or, with ``check_only``, would be) written or
    removed: an empty list means ``exercises/`` is up to date.

    Parameters
    ----------
    solutions_dir : path, default PROJECT_ROOT / "solutions"
        Folder of the solution notebooks.
    exercises_dir : path, default PROJECT_ROOT / "exercises"
        Folder of the exercise notebooks.
    check_only : bool, default False
        Report what is out of date without writing.

    Returns
    -------
    list of pathlib.Path
        The exercise notebooks written or removed (or that would be).
    """
    for name, folder in (("solutions_dir", solutions_dir), ("exercises_dir", exercises_dir)):
        if not isinstance(folder, (str, os.PathLike)):
            raise TypeError(f"{name} must be a folder path (str or Path), got {type(folder).__name__}.")
    if not isinstance(check_only, bool):
        raise TypeError(f"check_only must be True or False, got {type(check_only).__name__}.")
    solutions_dir, exercises_dir = Path(solutions_dir), Path(exercises_dir)
    if not solutions_dir.is_dir():
        raise FileNotFoundError(f"solutions_dir {solutions_dir} is not a folder")
    changed: list[Path] = []
    expected = set()
    for source in sorted(solutions_dir.glob("*.ipynb")):
        target = exercises_dir / exercise_file_name(source.name)
        expected.add(target.name)
        text = _render(make_exercise_notebook(nbformat.read(source, as_version=4)))
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            changed.append(target)
            if not check_only:
                exercises_dir.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
    if exercises_dir.is_dir():
        for orphan in sorted(exercises_dir.glob("*.ipynb")):
            if orphan.name not in expected:
                changed.append(orphan)
                if not check_only:
                    orphan.unlink()
    return changed


def main(argv: list[str] | None = None) -> int:
    """Command line: write ``exercises/`` from ``solutions/``, or with ``--check`` report whether it is up to date.

    Parameters
    ----------
    argv : list of str, optional
        Arguments; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        Exit status: 0, or 1 when ``--check`` finds ``exercises/`` out of date.
    """
    parser = argparse.ArgumentParser(prog="python -m mic_dp_teacher.exercises", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only report whether exercises/ is up to date")
    parser.add_argument("--solutions", default=str(PROJECT_ROOT / "solutions"))
    parser.add_argument("--exercises", default=str(PROJECT_ROOT / "exercises"))
    args = parser.parse_args(argv)
    changed = generate_exercises(args.solutions, args.exercises, check_only=args.check)
    if args.check:
        if changed:
            print("exercises/ is stale; run `python -m mic_dp_teacher.exercises`. Out of date:")
            print("\n".join(f"  {path}" for path in changed))
            return 1
        print("exercises/ is up to date.")
        return 0
    print(f"Wrote {len(changed)} exercise notebook(s)." if changed else "exercises/ was already up to date.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

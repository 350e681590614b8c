"""Reading a submitted notebook, and telling which lesson it is (file name, metadata, checks called)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import mic_dp_helpers
from mic_dp_helpers.checks import exercises_for_lesson
from mic_dp_teacher.grading.submissions import Submission

def parse_notebook(data: bytes) -> tuple[list[str], dict]:
    """Code cell sources and metadata of a notebook, or ValueError with a short reason.

    Parameters
    ----------
    data : bytes
        The notebook file's bytes, as submitted.

    Returns
    -------
    sources : list of str
        The source of each code cell, in order.
    metadata : dict
        The notebook's metadata.

    Raises
    ------
    ValueError
        If the bytes are not a notebook (not UTF-8 JSON, or no list of cells).
    """
    try:
        notebook = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ValueError(f"{type(error).__name__}: {str(error).splitlines()[0][:200] if str(error) else ''}") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ValueError("it has no list of cells")
    sources = []
    for cell in notebook["cells"]:
        if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            raise ValueError("a cell has no valid type")
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise ValueError("a cell's source is not text")
        if cell["cell_type"] == "code":
            sources.append(source)
    metadata = notebook.get("metadata") if isinstance(notebook.get("metadata"), dict) else {}
    return sources, metadata


def name_lesson(name: str) -> str | None:
    """The lesson number in a file name ("01" for ``01_anonymization_fails_exercises-Copy1.ipynb``), if any.

    Parameters
    ----------
    name : str
        A file name.

    Returns
    -------
    str or None
        Two-digit lesson number, or None.

    Examples
    --------
    >>> name_lesson("01_anonymization_fails_exercises-Copy1.ipynb")
    '01'
    """
    match = re.search(r"(?:^|[^0-9])(\d\d)_", Path(name).name)
    return match.group(1) if match and exercises_for_lesson(match.group(1)) else None


def metadata_lesson(metadata: dict) -> str | None:
    """The lesson in the notebook's metadata (``metadata.mic_dp.lesson``), if it names a lesson of the course.

    Parameters
    ----------
    metadata : dict
        The notebook's metadata.

    Returns
    -------
    str or None
        Two-digit lesson number, or None.
    """
    lesson = metadata.get("mic_dp", {}).get("lesson") if isinstance(metadata.get("mic_dp"), dict) else None
    if isinstance(lesson, bool) or not isinstance(lesson, (str, int)):
        return None
    lesson = str(lesson).zfill(2)
    return lesson if exercises_for_lesson(lesson) else None


def lesson_of(name: str, metadata: dict, sources: list[str]) -> str | None:
    """The lesson ("01") from the notebook's file name, else its metadata, else the checks it calls.

    The file name wins: students rarely rename the exercise file, and the metadata is theirs to edit
    (a disagreement is reported as a note by :func:`mic_dp_teacher.grading.runner.grade_one`).

    Parameters
    ----------
    name : str
        The notebook's file name.
    metadata : dict
        The notebook's metadata.
    sources : list of str
        Its code cells' sources.

    Returns
    -------
    str or None
        Two-digit lesson number, or None.
    """
    lesson = name_lesson(name) or metadata_lesson(metadata)
    if lesson:
        return lesson
    called = re.findall(r"""check\(\s*["'](\d\d)\.\d+["']""", "\n".join(sources))
    if called and exercises_for_lesson(called[0]):
        return called[0]
    return None


def submission_lesson(sub: Submission) -> str | None:
    """The lesson ``sub`` is graded as (see :func:`lesson_of`), None for a file that is not a course notebook.

    Parameters
    ----------
    sub : Submission
        A submission (read already).

    Returns
    -------
    str or None
        Two-digit lesson number, or None.
    """
    try:
        sources, metadata = parse_notebook(sub.data) if sub.data is not None else ([], {})
    except ValueError:
        sources, metadata = [], {}
    return lesson_of(sub.name, metadata, sources)


def canonical_names() -> dict[str, str]:
    """{lesson: the exercise notebook's file name}, e.g. {"01": "01_anonymization_fails_exercises.ipynb"}.

    Returns
    -------
    dict of str to str
        Lesson -> exercise notebook file name.
    """
    folder = Path(mic_dp_helpers.__file__).resolve().parent.parent / "exercises"
    names: dict[str, list[str]] = {}
    for path in sorted(folder.glob("[0-9][0-9]_*_exercises.ipynb")) if folder.is_dir() else []:
        names.setdefault(path.name[:2], []).append(path.name)
    return {lesson: found[0] for lesson, found in names.items() if len(found) == 1}

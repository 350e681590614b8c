"""Progress bars: the saved lessons show each bar's final state, never tqdm's "0%" placeholder."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from mic_dp_helpers.progress import progress_bar

ROOT = Path(__file__).resolve().parent.parent
STARTED_BAR = re.compile(r"\b0%\|")  # tqdm's text of a bar that has not moved


def test_outside_a_notebook_it_yields_every_item_and_draws_a_text_bar(capsys):
    assert list(progress_bar(iter("abc"), "letters", total=3)) == ["a", "b", "c"]
    assert "letters: 100%" in capsys.readouterr().err


def test_disabled_it_draws_nothing(capsys):
    assert list(progress_bar(range(4), "quiet", disable=True)) == [0, 1, 2, 3]
    assert capsys.readouterr().err == ""


def test_the_label_must_be_text():
    with pytest.raises(TypeError, match="desc"):
        list(progress_bar(range(2), 3))


def test_in_a_notebook_the_saved_output_is_the_final_state(tmp_path):
    cell = ("from mic_dp_helpers.progress import progress_bar\n"
            "for item in progress_bar(range(3), 'steps'):\n    pass\n"
            "for item in progress_bar(range(5), 'left early'):\n    if item == 2:\n        break\n")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    texts = ["".join(output.get("data", {}).get("text/plain", "")) for output in notebook.cells[0].outputs]
    assert any(text.startswith("steps: 100%|") and "3/3" in text for text in texts), texts
    assert any(text.startswith("left early:") and "2/5" in text for text in texts), texts
    assert not any(STARTED_BAR.search(text) for text in texts), texts


@pytest.mark.parametrize("notebook", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.stem)
def test_no_saved_lesson_shows_a_bar_stuck_at_zero(notebook):
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    stuck = [index for index, cell in enumerate(cells) for output in cell.get("outputs", [])
             if STARTED_BAR.search("".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", "")))]
    assert not stuck, f"cells {stuck} keep a progress bar at 0%: use mic_dp_helpers.progress.progress_bar"

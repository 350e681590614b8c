"""Check 06.4's hints name the symptom they detected (outside referee, lessons 05-06)."""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import run_check
from wrong_answers import lesson06

RELEASES = lesson06.WRONG_ANSWERS["06.4"]


@pytest.mark.parametrize(("mistake", "symptom"), [
    ("not the noisy means (valid, but clipped to [0, 1])", "valid post-processing"),
    ("non-private (calls): memoised release", "same release again and again"),
    ("non-private (calls): noise from a generator seeded by the sizes", "same release again and again"),
    ("non-private: one noise vector shared by every group", "two groups"),
    ("non-private (size): exact for groups of 100 or more", "without noise"),
    ("non-private (size): exact when there is a single group", "without noise"),
    ("non-private (shape): Gaussian clipped at 3.5 sigma", "point mass"),
])
def test_hint_names_the_symptom(mistake, symptom, capsys):
    result = run_check("06.4", RELEASES[mistake])
    hint = str(getattr(result, "message", result)) + capsys.readouterr().out
    assert symptom in hint


def test_a_clipped_valid_release_is_never_called_non_private(capsys):
    result = run_check("06.4", lesson06.clipped_output)
    hint = str(getattr(result, "message", result)) + capsys.readouterr().out
    assert "valid post-processing" in hint and "non-private" not in hint and "not the Gaussian" not in hint

"""04.1 accepts honest answers that post-process PyDP's answer by a hair (referee s44: rounding to 6 decimals and a
float32 cast were rejected, as the answers on a bound no longer tied with PyDP's or lay a rounding beyond it)."""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import run_check
from wrong_answers.lesson04_s44 import HONEST


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HONEST))
def test_post_processed_answer_passes(name):
    result = run_check("04.1", HONEST[name])
    assert result.status == "passed", f"{name!r}: {result.message}"

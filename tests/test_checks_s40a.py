"""Referee s39rB D0 and D1 (07.1): coins reused at another epsilon or on other answers, and coins too coarse to
flip at epsilon 16.7-20; each wrong answer fails with a true hint, and the coin-resolution test passes the float64
forms of an honest answer (and does not run them out of the words it chose)."""

from __future__ import annotations

import numpy as np
import pytest

from mic_dp_helpers.checks import run_check
from mic_dp_helpers.checks._coin_resolution import WORDS, check_coin_resolution, stream, words_read
from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks.lesson07 import _reports
from wrong_answers import fresh_module, lesson07_s40a
from wrong_answers.lesson07_s40a import HINT_WORDS, HONEST, MORE_WRONG_ANSWERS

_WRONG = MORE_WRONG_ANSWERS["07.1"]


@pytest.mark.slow
@pytest.mark.parametrize("mistake", list(_WRONG))
def test_s40a_answer_fails_with_a_true_hint(mistake):
    result = run_check("07.1", fresh_module(lesson07_s40a).MORE_WRONG_ANSWERS["07.1"][mistake])
    assert result.status == "failed", f"{mistake!r} was accepted"
    words = [word for key, word in HINT_WORDS.items() if key in mistake]
    assert words and all(word in result.message for word in words), result.message


@pytest.mark.parametrize("mistake", [m for m in _WRONG if "(parameters)" in m])
def test_coarse_coins_fail_the_resolution_test(mistake):
    with pytest.raises(CheckFailed, match="too coarse"):
        check_coin_resolution(_WRONG[mistake], np.random.default_rng(0), _reports)


@pytest.mark.parametrize("name", list(HONEST["07.1"]))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_float64_forms_pass_the_resolution_test(name, seed):
    check_coin_resolution(HONEST["07.1"][name], np.random.default_rng(seed), _reports)


def test_stream_gives_the_chosen_words_then_goes_on():
    words = list(range(1, WORDS + 1))
    rng = stream(words)
    key = rng.bit_generator.state["state"]["key"].copy()
    assert rng.bit_generator.random_raw(WORDS).tolist() == words
    assert words_read(rng, key) == WORDS
    assert len(set(rng.bit_generator.random_raw(100).tolist())) > 90  # a true MT19937 stream after them

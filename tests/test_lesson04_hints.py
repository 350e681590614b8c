"""04.1's choice of hint when the noise is too small (referee s36rA item 9: epsilon times 1.1 everywhere got the
hint for bounds taken from the data)."""

from mic_dp_helpers.checks.lesson04 import _narrower_than_outside


def test_uniformly_small_noise_gets_the_scale_hint():
    assert not _narrower_than_outside("inside", 0.86, {"outside": 0.91})
    assert not _narrower_than_outside("negative", 0.85, {"outside": 0.90})


def test_noise_shrunk_only_where_the_data_are_narrow_gets_the_data_bounds_hint():
    assert _narrower_than_outside("inside", 0.2, {"outside": 1.0})
    assert _narrower_than_outside("negative", 0.7, {"outside": 1.0})
    assert not _narrower_than_outside("outside", 0.5, {})

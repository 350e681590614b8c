"""Input checks of mic_dp_helpers.spark that run without starting Java (lesson 09 runs Spark itself)."""

import pytest

from mic_dp_helpers.spark import start_spark


@pytest.mark.parametrize("kwargs, match", [
    (dict(master=""), "master must be a Spark master URL"),
    (dict(app_name=None), "app_name must be a non-empty string"),
    (dict(memory=512), "memory must be a JVM memory size"),
    (dict(memory="lots"), "memory must be a JVM memory size"),
])
def test_start_spark_checks_its_settings_before_starting_java(kwargs, match):
    with pytest.raises(ValueError, match=match):
        start_spark(**kwargs)

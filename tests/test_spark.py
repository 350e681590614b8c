"""Input checks of mic_dp_helpers.scale.spark that run without starting Java (lesson 09 runs Spark itself)."""

import pytest

from mic_dp_helpers.scale.spark import start_spark


@pytest.mark.parametrize("kwargs, match", [
    (dict(master=""), "master must be a Spark master URL"),
    (dict(app_name=None), "app_name must be a non-empty string"),
    (dict(memory=512), "memory must be a JVM memory size"),
    (dict(memory="lots"), "memory must be a JVM memory size"),
])
def test_start_spark_checks_its_settings_before_starting_java(kwargs, match):
    with pytest.raises(ValueError, match=match):
        start_spark(**kwargs)


@pytest.mark.parametrize("cache_dir", [5, ["dir"]])
def test_java_home_needs_a_folder_path(cache_dir):
    from mic_dp_helpers.java_runtime import java_home

    with pytest.raises(TypeError, match="cache_dir must be a folder path"):
        java_home(cache_dir)

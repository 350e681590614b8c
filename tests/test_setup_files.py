"""The set-up files agree with each other: pins, Binder, CI and the README's commands."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _pins(lines) -> dict[str, str]:
    pins = {}
    for line in lines:
        line = line.split("#")[0].strip().lstrip("- ").strip()
        if "==" in line:
            name, version = line.split("==")
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version.strip()
    return pins


def _course_pins() -> dict[str, str]:
    return _pins((ROOT / "requirements" / "course.txt").read_text().splitlines())


def _environment_yml_pins() -> tuple[str, dict[str, str]]:
    text = (ROOT / "environment.yml").read_text()
    python = re.search(r"^\s*-\s*python\s*=\s*([\d.]+)\s*$", text, re.MULTILINE)
    assert python, "environment.yml must pin python"
    pip_section = text.split("- pip:", 1)[1].splitlines()
    return python.group(1), _pins(pip_section)


def test_every_course_pin_is_exact_and_in_the_lock():
    course, lock = _course_pins(), _pins((ROOT / "requirements" / "constraints.txt").read_text().splitlines())
    assert len(course) >= 20
    for name, version in course.items():
        assert lock.get(name) == version, f"{name}=={version} in course.txt but {lock.get(name)} in constraints.txt"
    for line in (ROOT / "requirements" / "course.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            assert "==" in line, f"unpinned requirement: {line}"


def test_course_uses_every_package_the_issue_lists():
    required = {"jupyterlab", "nbval", "numpy", "pandas", "matplotlib", "seaborn", "scipy", "scikit-learn",
                "python-dp", "tqdm", "ipywidgets", "cython", "setuptools", "wheel"}
    assert required <= set(_course_pins())


def test_binder_installs_the_whole_lock_on_python_3_12():
    python, pins = _environment_yml_pins()
    assert python == "3.12"
    lock = _pins((ROOT / "requirements" / "constraints.txt").read_text().splitlines())
    assert pins == lock, "environment.yml must list every package of requirements/constraints.txt"
    # what repo2docker's Python 3.12 base environment brings and the course uses ends at the lock's version
    for base_package in ("notebook", "jupyterlab", "jupyter-server", "ipywidgets", "jupyterlab-widgets"):
        assert base_package in pins, f"{base_package} (in Binder's base environment) must be pinned"
    assert pins["notebook"].split(".")[:2] == ["7", "6"], "notebook 7.4 needs jupyterlab<4.5 and conflicts"
    assert not (ROOT / "binder").exists() and not (ROOT / ".binder").exists(), \
        "one environment file only, at the top level (repo2docker ignores top-level files when binder/ exists)"


def test_setuptools_is_pinned_below_70_for_minepy():
    major = int(_course_pins()["setuptools"].split(".")[0])
    assert major < 70, "minepy's setup.py imports pkg_resources, removed in setuptools 70"


def test_binder_and_local_setup_build_minepy_with_the_same_script():
    assert "scripts/build_minepy.sh" in (ROOT / "postBuild").read_text()
    assert "scripts/build_minepy.sh" in (ROOT / "scripts" / "setup.sh").read_text()


def test_devcontainer_runs_the_setup_on_linux_amd64():
    config = json.loads((ROOT / ".devcontainer" / "devcontainer.json").read_text())
    assert "scripts/setup.sh" in config["postCreateCommand"]
    assert "--platform=linux/amd64" in config["runArgs"]
    dockerfile = (ROOT / ".devcontainer" / config["build"]["dockerfile"]).read_text()
    assert re.search(r"^FROM --platform=linux/amd64 ", dockerfile, re.MULTILINE), "the image can never be arm64"


def _readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:bash|sh)\n(.*?)```", readme, re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip().startswith("./course ")]


def test_readme_gives_the_two_commands_and_ci_runs_the_test_one():
    commands = _readme_commands()
    assert "./course lab" in commands and "./course test" in commands
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
                if line.strip() and not line.startswith("#") and not line.startswith(("set ", "cd "))]
    # the README's test command, exactly once; before it only the optional Chromium install, after it only
    # the check tests on other supported Pythons (which run when those interpreters exist)
    assert ci_lines.count("./course test") == 1
    assert not any("pytest" in line for line in ci_lines)


def test_readme_has_a_binder_badge_and_platform_statement():
    readme = (ROOT / "README.md").read_text()
    assert "mybinder.org/badge" in readme
    assert "Linux x86-64" in readme and "macOS" in readme and "Windows" in readme


def test_second_setup_run_installs_nothing():
    import subprocess
    import sys

    import pytest

    venv = ROOT / ".venv"
    if Path(sys.prefix).resolve() != venv.resolve() or not (venv / ".course-installed").exists():
        pytest.skip("only meaningful inside the environment that scripts/setup.sh built")
    result = subprocess.run(["bash", str(ROOT / "scripts" / "setup.sh")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "nothing to install" in result.stdout and "Installing" not in result.stdout


def _fake_python(folder: Path) -> Path:
    """A stand-in interpreter: minepy is "not installed", every build tool imports."""
    fake = folder / "python"
    fake.write_text('#!/bin/sh\nif [ "$1" = "-" ]; then cat >/dev/null; exit 1; fi\nexit 0\n')
    fake.chmod(0o755)
    return fake


def test_missing_compiler_is_one_plain_sentence_with_the_fix(tmp_path):
    import shutil
    import subprocess

    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("dirname", "basename", "mktemp", "rm", "cat"):  # no cc, gcc or clang
        found = shutil.which(tool)
        if found:
            (tools / tool).symlink_to(found)
    completed = subprocess.run(["/bin/bash", str(ROOT / "scripts" / "build_minepy.sh"), str(_fake_python(tmp_path))],
                               capture_output=True, text=True, env={"PATH": str(tools)}, cwd=tmp_path, timeout=60)
    assert completed.returncode == 3, completed.stderr
    assert "needs a C compiler" in completed.stderr
    assert "build-essential" in completed.stderr and "dnf install gcc" in completed.stderr
    assert "xcode-select --install" in completed.stderr
    assert "Traceback" not in completed.stderr and "gcc: " not in completed.stderr


def test_setup_finishes_without_minepy_and_tries_again_next_time():
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    build = setup.index("bash scripts/build_minepy.sh")
    # everything else is installed before minepy is attempted, and the stamp only after it succeeded
    assert setup.index("-r requirements/course.txt") < build and setup.index("-e .") < build
    assert setup.index('echo "$stamp" > "$stamp_file"') > build
    assert "every other lesson works" in setup


def test_a_venv_without_pip_is_rebuilt(tmp_path):
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    check = setup.index("-m pip --version")
    assert setup.index('rm -rf "$VENV"') > check and check < setup.index('if [ ! -x "$VENV/bin/python" ]')


def test_every_minepy_build_keeps_its_log_out_of_the_checkout():
    for script in ("scripts/setup.sh", "scripts/test_other_pythons.sh", "postBuild"):
        calls = [line for line in (ROOT / script).read_text().splitlines()
                 if "bash scripts/build_minepy.sh" in line and not line.lstrip().startswith("#")]
        assert calls and all("MINEPY_BUILD_LOG=" in line for line in calls), script


def test_jupyterlab_settings_turn_off_the_news_pop_up_everywhere_the_course_starts():
    overrides = json.loads((ROOT / "jupyter" / "overrides.json").read_text())
    notification = overrides["@jupyterlab/apputils-extension:notification"]
    assert notification == {"fetchNews": "false", "checkForUpdates": False}
    assert "jupyter/overrides.json" in (ROOT / "scripts" / "setup.sh").read_text()
    assert "jupyter/overrides.json" in (ROOT / "postBuild").read_text()
    installed = Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    if (ROOT / ".venv").resolve() == Path(sys.prefix).resolve():  # the suite runs in the course's own set-up
        assert json.loads(installed.read_text()) == overrides

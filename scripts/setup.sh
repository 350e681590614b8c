#!/usr/bin/env bash
# Create the course's virtual environment in .venv and install everything the course uses,
# at the versions pinned in requirements/. Safe to run again: when nothing changed since
# the last successful install, it only checks and returns.
#
# Usage: bash scripts/setup.sh        (PYTHON=/path/to/python3.12 to choose the interpreter)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
VENV=".venv"

find_python() {
    local candidate candidates=(python3 python3.13 python3.12 python3.11 python)
    [ -z "${PYTHON:-}" ] || candidates=("$PYTHON")  # an explicit choice is used or refused, never replaced
    for candidate in "${candidates[@]}"; do
        "$candidate" --version >/dev/null 2>&1 || continue
        if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

# A .venv left by a failed `python -m venv` (Debian without python3-venv) has no pip: start again.
if [ -x "$VENV/bin/python" ] && ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    echo "$VENV has no working pip (a virtual environment that was not created completely); rebuilding it."
    rm -rf "$VENV"
fi

if [ ! -x "$VENV/bin/python" ]; then
    if ! PYTHON_BIN="$(find_python)"; then
        if [ -n "${PYTHON:-}" ]; then
            echo "error: PYTHON=$PYTHON does not run, or is older than Python 3.11." >&2
        else
            echo "error: the course needs Python 3.11, 3.12 or 3.13, and none was found on PATH." >&2
        fi
        echo "       Install one (or set PYTHON=/path/to/python3.12), or use Binder or the dev container (see README)." >&2
        exit 1
    fi
    echo "Creating $VENV with $("$PYTHON_BIN" --version) ..."
    if ! "$PYTHON_BIN" -m venv "$VENV"; then
        rm -rf "$VENV"
        echo "error: $PYTHON_BIN could not create a virtual environment. On Debian/Ubuntu install it with" >&2
        echo "       sudo apt-get install python3-venv   (or python3.12-venv for that version), then run this again." >&2
        exit 1
    fi
fi

PY="$VENV/bin/python"
stamp_file="$VENV/.course-installed"
stamp="$(cat requirements/course.txt requirements/constraints.txt scripts/build_minepy.sh pyproject.toml | "$PY" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"

# Spark's Java wrapper and log settings live beside the interpreter: built here, outside any sandbox,
# so that a read-only environment (the grader's kernels) finds them ready.
prepare_runtime_files() {
    "$PY" -c 'from mic_dp_helpers.java_runtime import prepare_runtime_files; prepare_runtime_files()' \
        || echo "warning: could not prepare Spark's runtime files; lesson 09 will build them when it runs." >&2
}

# The course's JupyterLab settings (jupyter/overrides.json: no "get notified about Jupyter news?" pop-up
# over a corner of every lesson, no update check) go where JupyterLab reads defaults for this environment.
install_lab_settings() {
    mkdir -p "$VENV/share/jupyter/lab/settings"
    cp jupyter/overrides.json "$VENV/share/jupyter/lab/settings/overrides.json"
}

if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ]; then
    [ -x "$VENV/course-java-home/bin/java" ] || prepare_runtime_files
    cmp -s jupyter/overrides.json "$VENV/share/jupyter/lab/settings/overrides.json" || install_lab_settings
    echo "Course environment is up to date ($VENV); nothing to install."
    exit 0
fi

echo "Installing the pinned course dependencies into $VENV (first run: a few minutes) ..."
"$PY" -m pip install --quiet --disable-pip-version-check --upgrade "pip>=24"
"$PY" -m pip install --quiet --disable-pip-version-check \
    -r requirements/course.txt -c requirements/constraints.txt
# setuptools 69 (pinned for minepy's build) prints deprecation notices when it installs the course in
# editable mode: they are harmless, so they go to a log, shown only if the install fails.
if ! "$PY" -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e . \
        >"$VENV/course-install.log" 2>&1; then
    cat "$VENV/course-install.log" >&2
    exit 1
fi

# minepy is needed by lesson 05 only: if it cannot be built (no C compiler), everything else is
# ready, and the stamp is not written, so the next run of this script tries minepy again.
if ! MINEPY_BUILD_LOG="$PWD/$VENV/minepy-build.log" bash scripts/build_minepy.sh "$PY"; then
    echo
    prepare_runtime_files
    echo "Course environment ready in $VENV, except minepy: lesson 05 will tell you it is missing;"
    echo "every other lesson works. Run the set-up again after fixing the problem above."
    exit 0
fi

prepare_runtime_files
install_lab_settings
echo "$stamp" > "$stamp_file"
echo "Course environment ready in $VENV."

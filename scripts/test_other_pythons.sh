#!/usr/bin/env bash
# Run the exercise-check tests under every other supported Python found on this machine (3.12, 3.13),
# and print which versions ran. From Python 3.12 `sum()` of floats is compensated, so a check (or a
# planted mistake) that relies on float rounding can behave differently there: CI runs these tests on
# each interpreter it has.
#
# For each version X.Y it looks for an interpreter (PYTHON_3_12 / PYTHON_3_13 in the environment,
# else pythonX.Y on PATH, else ~/.pyenv/versions/X.Y.*), builds a virtual environment in
# .venv-pyXY from requirements/course.txt with the pins of requirements/constraints.txt (once), and
# builds minepy into it with scripts/build_minepy.sh; if minepy cannot be built, the tests that need
# it (exercise 05.1, which computes MIC) are skipped, and the script says so.
#
# Usage: bash scripts/test_other_pythons.sh [pytest options]     (exit 1 if any version's tests fail)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TESTS=(tests/test_checks.py tests/test_check_integrity.py tests/test_check_false_rejection.py)
ran=()
skipped=()
failed=()

# An interpreter counts only if it runs and is the version asked for (a pyenv shim on PATH may exist
# and still refuse to run a version that is not selected).
runs_as() {
    [[ -n "$1" ]] && "$1" -c "import sys; sys.exit(sys.version_info[:2] != tuple(map(int, '$2'.split('.'))))" \
        >/dev/null 2>&1
}

find_python() {
    local version="$1" variable="PYTHON_${1/./_}" candidate
    if [[ -n "${!variable:-}" ]]; then echo "${!variable}"; return; fi
    for candidate in "$(command -v "python$version" 2>/dev/null)" "$HOME"/.pyenv/versions/"$version".*/bin/python; do
        if runs_as "$candidate" "$version"; then echo "$candidate"; return; fi
    done
}

for version in 3.12 3.13; do
    python="$(find_python "$version")"
    if [[ -z "$python" ]]; then
        skipped+=("$version (no interpreter found)")
        continue
    fi
    venv=".venv-py${version/./}"
    if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import numpy, pandas, scipy, pytest, pydp" 2>/dev/null; then
        echo "== Python $version: building $venv from requirements/course.txt (pinned) ..."
        "$python" -m venv "$venv" || { failed+=("$version (venv)"); continue; }
        "$venv/bin/python" -m pip install --quiet -r requirements/course.txt -c requirements/constraints.txt \
            || { failed+=("$version (install)"); continue; }
    fi
    if ! "$venv/bin/python" -c "import minepy" 2>/dev/null; then
        MINEPY_BUILD_LOG="$PWD/$venv/minepy-build.log" bash scripts/build_minepy.sh "$venv/bin/python" >/dev/null 2>&1 || true
    fi
    if ! "$venv/bin/python" -c "import minepy" 2>/dev/null; then
        echo "== Python $version: minepy could not be built; exercise 05.1's checks are skipped (they need MIC)."
    fi
    echo "== Python $version ($("$venv/bin/python" -c 'import platform; print(platform.python_version())')): check tests"
    # The default tier only (as `./course test` runs it): the slow tier (false-rejection regression test
    # included) runs once, on the course's Python, in CI's `./course test -m slow`. Two workers, as there.
    if PYTHONPATH="$PWD" "$venv/bin/python" -m pytest -p no:cacheprovider -o addopts="" -q \
            -n 2 --dist loadfile -m "not slow" "${TESTS[@]}" "$@"; then
        ran+=("$version")
    else
        failed+=("$version")
    fi
done

echo "Check tests passed on Python: ${ran[*]:-none}"
[[ ${#skipped[@]} -gt 0 ]] && echo "Not run: ${skipped[*]}"
[[ ${#failed[@]} -gt 0 ]] && { echo "FAILED on Python: ${failed[*]}"; exit 1; }
exit 0

#!/usr/bin/env bash
# Re-resolve requirements/constraints.txt from the pins in requirements/course.txt in a
# throw-away environment. Run the test suite (./course test) before committing the result.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON_BIN="${PYTHON:-python3}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$PYTHON_BIN" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --upgrade pip
"$tmp/venv/bin/python" -m pip install --quiet -r requirements/course.txt
{
    echo "# Every package of the course environment at the version the test suite passed with."
    echo "# Regenerate with: bash scripts/lock.sh"
    "$tmp/venv/bin/python" -m pip freeze --all | grep -v -i -E '^(pip|minepy)==|^-e '
} > requirements/constraints.txt
echo "Wrote requirements/constraints.txt; now run ./course test."

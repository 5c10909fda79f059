#!/usr/bin/env bash
# Set up everything the test suite needs and run it: a virtual environment with the project and
# its test dependencies, and Debian's Chromium for the browser tests, the fonts they draw in
# (each browser forced to one: tests/font_setup.py), poppler-utils for the printed sheets'
# checks, and systemd-analyze and Caddy for the deploy/ checks, when missing.
#
#   bash tests/run.sh [PYTEST ARGS]   every test, on all cores (pytest-xdist), then the few held
#                                     to the wall clock (marked serial) alone: what CI runs
#   bash tests/run.sh --quick [ARGS]  the developer's loop: every test not marked slow, on all
#                                     cores (pytest-xdist); under 2 minutes on 2 cores
#   bash tests/run.sh --lint          ruff check and ruff format --check over the tree, and mypy on
#                                     the engine and store
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
mode=full
case "${1:-}" in
  --quick) mode=quick; shift ;;
  --lint) mode=lint; shift ;;
esac
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
# The project and its test dependencies, installed again only when pyproject.toml changed
# since the last install (a fresh checkout, as in CI, always installs).
if [ ! -f .venv/.installed ] || [ pyproject.toml -nt .venv/.installed ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test]'
  touch .venv/.installed
fi
if [ "$mode" = lint ]; then
  .venv/bin/ruff check .
  .venv/bin/ruff format --check .
  exec .venv/bin/mypy   # the files and options are in pyproject.toml's [tool.mypy]
fi
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
command -v caddy >/dev/null 2>&1 || need+=(caddy)
for font in fonts-noto-core fonts-dejavu-core fonts-roboto-unhinted; do
  [ "$(dpkg-query -W -f '${Status}' "$font" 2>/dev/null)" = "install ok installed" ] || need+=("$font")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ "$mode" = quick ]; then
  exec .venv/bin/python -m pytest -n auto -m "not slow" -q "$@"
fi
# Every test on every core, then those held to the wall clock (marked serial) alone; a part
# that selects nothing (exit status 5) is not a failure.
status=0
.venv/bin/python -m pytest -n auto -m "not serial" "$@" || status=$?
serial=0
.venv/bin/python -m pytest -m serial "$@" || serial=$?
[ "$serial" -eq 5 ] && serial=0
[ "$status" -eq 5 ] && status=0
[ "$status" -ne 0 ] && exit "$status"
exit "$serial"

#!/usr/bin/env bash
# Set everything up (see setup.sh), check the code with ruff (lint and format) and mypy (strict on the core), then
# run the whole test suite, one worker a core (pytest-xdist). Extra arguments go to pytest (`-n 0`: one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
exec .venv/bin/python -m pytest -n auto "$@"

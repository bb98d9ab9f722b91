#!/usr/bin/env bash
# Set everything up (see setup.sh), check the code with ruff (lint and format) and mypy (strict on the core), then
# run the whole test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"

#!/usr/bin/env bash
# Set everything up (see setup.sh, with what the tests need besides), check the code with ruff (lint and format)
# and mypy (strict on the core), the phone page's script with ESLint's recommended rules and its unit tests (node's
# own test runner, no browser), then run the whole test suite, three workers for two cores (pytest-xdist). Extra
# arguments go to pytest (`-n 0`: one process); without any, the lowest versions pyproject.toml allows are tested
# too (scripts/test-minimums.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --with-tests
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/python scripts/mypy_strict.py --check  # the figure in docs/architecture.md is today's
npx --no-install eslint assistant/share/page tests/page eslint.config.js
node --test tests/page/
# Three workers for two cores: a test spends much of its time waiting on a real daemon, browser or process (with one
# worker a core the 2 cores ran at a load of 1.1 to 1.6); "worksteal" hands what waits behind a long test to a worker
# that is free. (docs/benchmarks.md, "Three workers for two cores".)
export TEST_WORKERS=$(( $(nproc) * 3 / 2 ))
if [ $# = 0 ]; then
    bash scripts/test-minimums.sh
fi
exec .venv/bin/python -m pytest -n "$TEST_WORKERS" --dist worksteal "$@"

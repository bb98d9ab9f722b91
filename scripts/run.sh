#!/usr/bin/env bash
# Set everything up (see setup.sh) and start the app on the default deck. Extra arguments go to the app.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --then-run
exec .venv/bin/table-assistant "$@"

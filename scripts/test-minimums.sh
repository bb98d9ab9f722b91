#!/usr/bin/env bash
# The lower bounds of pyproject.toml's dependencies, tested: a second environment, .venv-min, with every dependency
# at exactly the lowest version allowed (and the browser packages of the test extra, playwright and
# axe-playwright-python), and the tests of the app (the phone page in Debian's chromium included), the command line,
# the scanner, the braille labels and the speech run on it. Extra arguments go to pytest. Run by scripts/test.sh; needs scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
pins=$(.venv/bin/python - <<'PY'
import re
import tomllib

from packaging.markers import Marker

with open("pyproject.toml", "rb") as file:
    project = tomllib.load(file)["project"]
# The test extra's browser packages too: the phone page's tests (tests/ui) run on their lowest versions as well.
browser = [d for d in project["optional-dependencies"]["test"] if d.startswith(("playwright", "axe-playwright-python"))]
for dependency in project["dependencies"] + browser:
    name, lowest = re.match(r"([A-Za-z0-9_.-]+)(?:\[[^]]*\])?\s*>=\s*([^,;\s]+)", dependency).groups()
    marker = dependency.partition(";")[2].strip()
    if not marker or Marker(marker).evaluate():  # a dependency of another platform (accessible_output2) left out
        print(f"{name}=={lowest}")
PY
)
stamp=.venv-min/.installed
# Made again when pyproject.toml or this script (which chooses what is pinned) is newer than the environment.
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ scripts/test-minimums.sh -nt "$stamp" ]; then
    rm -rf .venv-min
    .venv/bin/python -m venv .venv-min
    echo "Installing the lowest allowed versions into .venv-min:" $pins
    .venv-min/bin/python -m pip install -q --disable-pip-version-check $pins pytest pytest-timeout pytest-xdist hypothesis
    # The project itself, its dependencies left as pinned: the terminal tests start its `table-assistant`.
    .venv-min/bin/python -m pip install -q --disable-pip-version-check --no-deps -e .
    touch "$stamp"
fi
# The system's clients that are on no package index, as scripts/setup.sh links them into .venv (done on every run,
# so a .venv-min made before a link was added gets it too): liblouis's and speech-dispatcher's Python packages, and
# BrlAPI's compiled module, the one built for this Python (without it the braille display's tests are skipped).
site=$(.venv-min/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
for module in louis speechd; do
    if [ -d "/usr/lib/python3/dist-packages/$module" ] && [ ! -e "$site/$module" ]; then
        ln -s "/usr/lib/python3/dist-packages/$module" "$site/$module"
    fi
done
brlapi=brlapi$(.venv-min/bin/python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
if [ -e "/usr/lib/python3/dist-packages/$brlapi" ] && [ ! -e "$site/$brlapi" ]; then
    ln -s "/usr/lib/python3/dist-packages/$brlapi" "$site/$brlapi"
fi
exec .venv-min/bin/python -m pytest -n auto -q -p no:cacheprovider \
    tests/ui tests/commands --ignore=tests/commands/test_wheel.py \
    tests/adapters/test_scanner_decode.py tests/adapters/test_braille_labels.py \
    tests/adapters/test_speech_audio.py tests/adapters/test_speech_platforms.py tests/adapters/test_share_server.py "$@"

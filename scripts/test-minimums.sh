#!/usr/bin/env bash
# The lower bounds of pyproject.toml's dependencies, tested: a second environment, .venv-min, with every dependency
# at exactly the lowest version allowed (and the browser packages of the test extra, playwright and
# axe-playwright-python), and the tests that exercise those dependencies' own APIs run on it. Extra arguments go to
# pytest. Run by scripts/test.sh; needs scripts/setup.sh first.
#
# What belongs here (the rule): a test file whose checks pass through a pinned dependency's API where another version
# could behave differently, and for each dependency at least one such file:
# - Textual: the app under Textual's Pilot (its start, screen, widgets and focus, keys through its terminal parser,
#   which ours subclasses, its drivers, a crash, and the app in a real terminal under tmux);
# - aiohttp, zeroconf, qrcode, playwright and axe-playwright-python: the sharing server, its app factory in the
#   app's own loop, the local name, the QR code, and the phone page in Debian's chromium;
# - opencv, zxing-cpp, pyzbar, numpy, pillow, rapidfuzz: the scanner's decoding and the braille labels;
# - pyttsx3 and sounddevice: the speech's audio and the platforms' engines;
# - platformdirs and the console entry: the command line (tests/commands).
# Not here: tests of the project's own logic on top of those (games played through the app, the braille display's
# behaviour over BRLTTY, the plain mode, the words said, the speech queue through the app): they meet the
# dependencies only where the files below already do, and run on today's versions in the main run. A new test file
# that is the first to use a dependency's API in a new way belongs here; say which line above it falls under.
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
ui=(test_app.py test_app_crash.py test_app_screen.py test_braille_input.py test_keys_kept.py test_tmux.py
    test_windows_driver.py test_without_termios.py test_share_app.py test_share_qr.py test_share_browser.py
    # the key reader on Textual's terminal parser, in a Latin-1 terminal too:
    test_encodings.py::test_the_key_reader_decodes_in_the_terminal_encoding_and_never_raises
    test_encodings.py::test_the_app_reads_raw_8bit_bytes_without_ending)
adapters=(test_share_server.py test_share_local_name.py test_scanner_decode.py test_braille_labels.py
          test_speech_audio.py test_speech_platforms.py)
# Whole games played from the phones: the project's own game through a page whose every kind of use the other
# tests of that file make (left to the main run).
games=(test_a_whole_unicorn_game_recorded_from_phones_and_the_laptop test_a_whole_llamas_game_with_its_add_on_recorded_from_phones)
exec .venv-min/bin/python -m pytest -n "${TEST_WORKERS:-auto}" --dist worksteal -q -p no:cacheprovider "${ui[@]/#/tests/ui/}" \
    tests/commands --ignore=tests/commands/test_wheel.py "${adapters[@]/#/tests/adapters/}" \
    "${games[@]/#/--deselect=tests/ui/test_share_browser.py::}" "$@"

#!/usr/bin/env bash
# Set up table-assistant on a Debian or Ubuntu machine: the system packages it needs (when missing), a virtual
# environment in .venv, and the project installed into it. Safe and fast to run again.
#
#   bash scripts/setup.sh               the app
#   bash scripts/setup.sh --with-tests  the app and what its tests need besides (scripts/test.sh uses it)
#   bash scripts/setup.sh --then-run    the app, without saying how to start it (scripts/run.sh starts it)
#
# Without root (and without sudo that needs no password) missing system packages are not installed: the exact
# line for the administrator is printed, and the set-up goes on with what is there (the app falls back: no
# speech-dispatcher means its own voice, no liblouis its built-in grade-1 braille table, no libzbar the other QR
# decoder).
#
# Once a set-up has gone through with nothing left out, it is not checked again until pyproject.toml or this script
# changes (with --with-tests, package-lock.json too): a stamp in .venv holds their checksum, so a later run starts
# at once, while a fresh clone (no .venv) and any change run every check.
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=""
[ "${1:-}" = "--with-tests" ] && with_tests=1
then_run=""
[ "${1:-}" = "--then-run" ] && then_run=1
ready="Ready. Start the app with: .venv/bin/table-assistant   (or: bash scripts/run.sh)"

# The checks below cost about half a second even when everything is there (a package query each, Python asked
# twice): skipped when the last set-up of this kind went through and nothing it depends on changed since.
set_up=.venv/.set-up
sources="pyproject.toml scripts/setup.sh"
if [ -n "$with_tests" ]; then
    set_up=.venv/.set-up-tests
    if [ -f package-lock.json ]; then sources="$sources package-lock.json"; fi
fi
fingerprint=$(cat $sources | cksum)
if [ -x .venv/bin/python ] && [ -f "$set_up" ] && [ "$(cat "$set_up")" = "$fingerprint" ]; then
    if [ -z "$with_tests" ] && [ -z "$then_run" ]; then echo "$ready"; fi
    exit 0
fi
complete=1  # every system package is there (a stamp is written at the end only then)

# The app's system packages: QR decoding, speech and sound, braille (liblouis, BRLTTY's client for a braille
# display), and Python's venv.
debs="libzbar0 espeak-ng alsa-utils libportaudio2 liblouis20 liblouis-data python3-louis python3-venv
      speech-dispatcher speech-dispatcher-espeak-ng python3-speechd brltty python3-brlapi"
# Only the tests: tmux drives the real app in a terminal, sox measures the speech heard, locales builds the
# strict UTF-8 and Latin-1 locales the input fuzz runs under, chromium is the real browser the phone page's tests
# drive with Playwright (its own browser download is never used), node runs the page script's lint and unit tests.
test_debs="tmux sox locales chromium nodejs"
[ -n "$with_tests" ] && debs="$debs $test_debs"
# Debian's nodejs comes without npm (NodeSource's brings its own): Debian's npm only where no npm is found.
if [ -n "$with_tests" ] && ! command -v npm >/dev/null; then debs="$debs npm"; fi

# Python 3.11 or newer: python3, or else the first of python3.13, python3.12, python3.11 found.
python=""
for candidate in python3 python3.13 python3.12 python3.11; do
    if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
        python=$candidate
        break
    fi
done
if [ -z "$python" ]; then
    found=$(python3 -c 'import platform; print(platform.python_version())' 2>/dev/null || echo "none")
    echo "table-assistant needs Python 3.11 or newer; this machine has Python $found."
    echo "Install a newer Python (Debian 12 and Ubuntu 24.04 have one: apt-get install python3 python3-venv),"
    echo "then run this command again."
    exit 1
fi

missing=""
for pkg in $debs; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo"
    else sudo="none"; fi
    if [ "$sudo" = none ] || ! command -v apt-get >/dev/null; then
        echo "Some system packages are missing. Ask the administrator to run, as root:"
        echo "  apt-get update && apt-get install -y$missing"
        echo "Going on without them: what they bring is left out until they are installed."
        complete=""
    else
        echo "Installing system packages:$missing"
        $sudo apt-get update -qq
        # BRLTTY's package starts its daemon when installed; the app connects to a BRLTTY the player runs, so a
        # machine without one (a container, CI) gets no daemon grabbing its terminals: starts are refused meanwhile.
        policy=""
        if [ ! -e /usr/sbin/policy-rc.d ]; then
            policy=/usr/sbin/policy-rc.d
            printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod +x "$policy"
        fi
        status=0
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null || status=$?
        if [ -n "$policy" ]; then $sudo rm -f "$policy"; fi  # removed even when the installation failed
        if [ "$status" != 0 ]; then exit "$status"; fi
    fi
fi

if [ ! -x .venv/bin/python ]; then
    if ! "$python" -m venv .venv; then
        rm -rf .venv
        echo "Python cannot make a virtual environment here: the administrator can install it with"
        echo "  apt-get install -y python3-venv"
        exit 1
    fi
fi
extras=""
stamp=.venv/.installed
if [ -n "$with_tests" ]; then extras="[test]"; stamp=.venv/.installed-tests; fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "Installing the project into .venv"
    # OpenCV's builds (opencv-python with GUI libraries the app never uses, the headless one without its contrib
    # modules) share the cv2 folder with the one the project uses, opencv-contrib-python-headless (the WeChat QR
    # detector is a contrib module): an environment made with another loses them all, and the install puts it back.
    for other in opencv-python opencv-python-headless; do
        if .venv/bin/python -m pip show -q "$other" >/dev/null 2>&1; then
            .venv/bin/python -m pip uninstall -y -q opencv-python opencv-python-headless opencv-contrib-python-headless
            break
        fi
    done
    .venv/bin/python -m pip install -q --disable-pip-version-check -e ".$extras"
    touch "$stamp"
fi

# Debian's python3-louis is a pure ctypes binding to liblouis (the PyPI package of that name is unrelated),
# python3-speechd is speech-dispatcher's own client and python3-brlapi BRLTTY's (none of them on PyPI): make them
# importable from the virtual environment.
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
for module in louis speechd; do
    if [ -d "/usr/lib/python3/dist-packages/$module" ] && [ ! -e "$site/$module" ]; then
        ln -s "/usr/lib/python3/dist-packages/$module" "$site/$module"
    fi
done
# BrlAPI's Python module (python3-brlapi, BRLTTY's client library) is one compiled file.
for module in /usr/lib/python3/dist-packages/brlapi.cpython-*.so; do
    if [ -e "$module" ] && [ ! -e "$site/$(basename "$module")" ]; then
        ln -s "$module" "$site/$(basename "$module")"
    fi
done

# The phone page's script checks (scripts/test.sh): ESLint, at the versions package-lock.json pins, into
# node_modules; again only when the lock changed.
if [ -n "$with_tests" ] && [ -f package-lock.json ] && command -v npm >/dev/null; then
    if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
        echo "Installing the page script's checks into node_modules"
        npm ci --no-audit --no-fund --loglevel=error >/dev/null
    fi
fi

if [ -n "$complete" ]; then echo "$fingerprint" >"$set_up"; fi
if [ -z "$with_tests" ] && [ -z "$then_run" ]; then echo "$ready"; fi

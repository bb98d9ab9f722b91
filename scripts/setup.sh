#!/usr/bin/env bash
# Set up table-assistant on a Debian or Ubuntu machine: the system packages it needs (when missing), a virtual
# environment in .venv, and the project installed into it. Safe and fast to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

debs="libzbar0 espeak-ng alsa-utils liblouis20 liblouis-data python3-louis python3-venv libgl1 libglib2.0-0 tmux sox
      speech-dispatcher speech-dispatcher-espeak-ng python3-speechd brltty python3-brlapi locales"
missing=""
for pkg in $debs; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then apt=(); elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then apt=(sudo); else
        echo "Some system packages are missing. Install them with:"
        echo "  sudo apt-get update && sudo apt-get install -y$missing"
        echo "then run this command again."
        exit 1
    fi
    echo "Installing system packages:$missing"
    "${apt[@]}" apt-get update -qq
    # BRLTTY's package starts its daemon when installed; the app connects to a BRLTTY the player runs, so a
    # machine without one (a container, CI) gets no daemon grabbing its terminals: starts are refused meanwhile.
    policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' | "${apt[@]}" tee "$policy" >/dev/null && "${apt[@]}" chmod +x "$policy"
    fi
    status=0
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" apt-get install -y -qq $missing >/dev/null || status=$?
    if [ -n "$policy" ]; then "${apt[@]}" rm -f "$policy"; fi  # removed even when the installation failed
    if [ "$status" != 0 ]; then exit "$status"; fi
fi

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
stamp=.venv/.installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "Installing the project into .venv"
    .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]"
    touch "$stamp"
fi

# Debian's python3-louis is a pure ctypes binding to liblouis (the PyPI package of that name is unrelated), and
# python3-speechd is speech-dispatcher's own client (pure Python, not on PyPI): make both importable from the
# virtual environment; so is python3-brlapi, BRLTTY's client, one compiled module for the system's Python.
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
for module in louis speechd; do
    if [ -d "/usr/lib/python3/dist-packages/$module" ] && [ ! -e "$site/$module" ]; then
        ln -s "/usr/lib/python3/dist-packages/$module" "$site/$module"
    fi
done
for module in /usr/lib/python3/dist-packages/brlapi.cpython-*.so; do
    if [ -e "$module" ] && [ ! -e "$site/$(basename "$module")" ]; then
        ln -s "$module" "$site/$(basename "$module")"
    fi
done

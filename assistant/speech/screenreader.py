"""Is a screen reader already doing the talking? Then `speech = auto` keeps the app quiet, so the two never talk
over each other.

What is checked, in order:
1. the `TABLE_ASSISTANT_SCREEN_READER` environment variable: any value but "", "0", "no" or "off" counts as a
   screen reader (its value is the name said), and "0", "no" or "off" forces "none" without looking further;
2. Speakup, the console screen reader: its kernel module (`/sys/module/speakup`, or a built-in speakup driver
   such as `speakup_soft` under `/sys/module`);
3. a running Orca or Fenrir process: `/proc/<pid>/comm`, and for Python processes their command line.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Process names of screen readers that speak, and the name said.
READERS = {"orca": "Orca", "fenrir": "Fenrir", "fenrir-daemon": "Fenrir"}


def screen_reader_running(environ=os.environ, proc: Path = Path("/proc"), sys_root: Path = Path("/sys")) -> str:
    """The name of the screen reader that is speaking, or "" when none was found."""
    hint = environ.get("TABLE_ASSISTANT_SCREEN_READER", "").strip()
    if hint.lower() in ("0", "no", "off", "none"):
        return ""
    if hint:
        return hint
    modules = sys_root / "module"
    try:
        if (modules / "speakup").exists() or any(m.name.startswith("speakup_") for m in modules.iterdir()):
            return "Speakup"
    except OSError:
        pass
    try:
        entries = list(proc.iterdir())
    except OSError:
        return ""
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
            if name.startswith("python"):  # Orca run as `python3 /usr/bin/orca`
                arguments = (entry / "cmdline").read_bytes().split(b"\0")[1:3]
                scripts = [Path(a.decode(errors="replace")).name for a in arguments if a and not a.startswith(b"-")]
                name = scripts[0] if scripts else name
        except OSError:
            continue  # the process ended, or is not ours to read
        if name in READERS:
            return READERS[name]
    return ""

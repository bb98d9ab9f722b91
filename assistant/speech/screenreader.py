"""Is a screen reader running? Then `speech = auto` speaks through it (speech-dispatcher on Linux, accessible_output2
on Windows and macOS), so the two never talk over each other.

What is checked, in order:
1. the `TABLE_ASSISTANT_SCREEN_READER` environment variable: any value but "", "0", "no" or "off" counts as a
   screen reader (its value is the name said), and "0", "no" or "off" forces "none" without looking further;
2. on Windows and macOS, a screen reader accessible_output2 finds running (NVDA, JAWS, VoiceOver...; none when
   the library is not installed); elsewhere:
3. Speakup, the console screen reader: its kernel module (`/sys/module/speakup`, or a built-in speakup driver
   such as `speakup_soft` under `/sys/module`);
4. a running Orca or Fenrir process: `/proc/<pid>/comm`, and for Python processes their command line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

#: Process names of screen readers that speak, and the name said.
READERS = {"orca": "Orca", "fenrir": "Fenrir", "fenrir-daemon": "Fenrir"}


def screen_reader_running(
    environ: Mapping[str, str] = os.environ,
    proc: Path = Path("/proc"),
    sys_root: Path = Path("/sys"),
    platform: str = sys.platform,
    reader_name: Callable[[], str] | None = None,
) -> str:
    """The name of the screen reader that is speaking, or "" when none was found. `reader_name` finds one on
    Windows and macOS (accessible_output2's, unless a test gives its own)."""
    hint = environ.get("TABLE_ASSISTANT_SCREEN_READER", "").strip()
    if hint.lower() in ("0", "no", "off", "none"):
        return ""
    if hint:
        return hint
    if platform in ("win32", "darwin"):
        if reader_name is not None:
            return reader_name()
        from assistant.speech.readers import running_reader_name

        return running_reader_name()
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

"""Keep the details of an unexpected error in a file, so the player hears one sentence, not a traceback."""

from __future__ import annotations

import datetime
import traceback
from pathlib import Path

from assistant.storage.paths import user_data_dir


def write_crash_log(exc: BaseException) -> Path | str:
    """Append the exception's traceback to `crash.log` in the data directory; return the file's path, or, when it
    could not be written (a read-only or full home), why not: the player is never pointed at a file that is not
    there."""
    path = user_data_dir() / "crash.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(f"--- {datetime.datetime.now().isoformat(timespec='seconds')}\n")
            log.write("".join(traceback.format_exception(exc)))
    except OSError as failure:
        return failure.strerror or str(failure)
    return path

"""Start-up with the largest import the app accepts: a reference sheet at every limit, imported, then the app
started again and again.

Run as `.venv/bin/python -m benchmarks.imports` (`--json` for the raw figures, `--runs N`). Each home is a
temporary folder: none, a 500-card sheet of about 1.96 MB (every limit of `deck import` at once: 500 card lines,
texts cut at 2,000 characters, under 2 MB on disk) imported with `deck import`, and an import file written by hand
at the bounded reader's limit (2,000,000 characters), as someone could drop into the decks folder. For each,
`card yay` and the plain mode (started, then `quit`) are run as real processes; the figure is the median wall
time. Exits 1 when a start with an import takes a second or more.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from assistant.commands.deck import MAX_SHEET_BYTES
from assistant.core.cards.sheet import MAX_ROWS
from assistant.core.datatext import MAX_CHARACTERS
from benchmarks import logs

START_GOAL_S = 1.0
WORDS = "unicorn neigh stable card draw discard sacrifice destroy steal magic upgrade downgrade baby rainbow".split()


def largest_sheet() -> str:
    """A CSV sheet at every limit: `MAX_ROWS` new cards, each text longer than `MAX_TEXT` (so it is cut), the
    whole just under `MAX_SHEET_BYTES`."""
    rng = random.Random(13)
    rows = ["name,type,copies,text"]
    room = MAX_SHEET_BYTES // MAX_ROWS - 40  # each row's share of the file, less its name, type and copies
    for number in range(MAX_ROWS):
        text = " ".join(rng.choice(WORDS) for _ in range(room // 4))[:room]
        rows.append(f'Card Number {number},magic,99,"{text}"')
    return "\n".join(rows) + "\n"


def _run(home: Path, args: list[str], stdin: str = "") -> float:
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home)}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "assistant", *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=120)  # fmt: skip
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr}")
    return elapsed


def homes(root: Path) -> dict[str, Path]:
    """The three homes measured: no import, the largest sheet imported, a hand-made import at the reader's limit."""
    empty, imported, hand = root / "none", root / "sheet", root / "hand"
    for home in (empty, imported, hand):
        home.mkdir()
    sheet = root / "largest.csv"
    sheet.write_text(largest_sheet(), encoding="utf-8")
    _run(imported, ["deck", "import", str(sheet)])
    made = (imported / "data" / "decks" / "uu-2nd-sheet.toml").read_text(encoding="utf-8")
    doubled = re.sub(r'^text = "(.*)"$', lambda m: f'text = "{m.group(1)} {m.group(1)}"', made, flags=re.M)
    while len(doubled) > MAX_CHARACTERS:  # whole cards only, so it still loads
        doubled = doubled[: doubled.rindex("\n[[cards]]")] + "\n"
    (hand / "data" / "decks").mkdir(parents=True)
    (hand / "data" / "decks" / "uu-2nd-sheet.toml").write_text(doubled, encoding="utf-8")
    return {"no import": empty, "500-card sheet imported": imported, "hand-made 2,000,000-character import": hand}


#: The commands started, each with what is typed to it: a card looked up, and the plain mode quit at once.
COMMANDS = (("card yay", ["card", "yay"], ""), ("plain mode", ["--plain", "--no-speech"], "quit\n"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--runs", type=int, default=9, help="starts measured per case (9)")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path: one start of `card yay` with the 500-card sheet imported; exit 0",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        sheet_bytes = len(largest_sheet().encode("utf-8"))
        cases = homes(root)
        if args.smoke:
            cases = {"500-card sheet imported": cases["500-card sheet imported"]}
        sizes = {name: sum(p.stat().st_size for p in (home / "data" / "decks").glob("*.toml"))
                 if (home / "data" / "decks").is_dir() else 0 for name, home in cases.items()}  # fmt: skip
        figures = []
        for name, home in cases.items():
            for label, command, stdin in COMMANDS[: 1 if args.smoke else None]:
                if not args.smoke:
                    _run(home, command, stdin)  # warm the file cache
                times = [_run(home, command, stdin) for _ in range(1 if args.smoke else args.runs)]
                figures.append({"home": name, "import_bytes": sizes[name], "command": label,
                                "median_s": statistics.median(times), "max_s": max(times)})  # fmt: skip
    if args.json:
        print(logs.dumps({"sheet_bytes": sheet_bytes, "figures": figures}, indent=2))
    else:
        print(f"Largest sheet: {sheet_bytes:,} bytes, {MAX_ROWS} cards.")
        for row in figures:
            print(f"{row['home']} ({row['import_bytes']:,} bytes of import), {row['command']}: "
                  f"median {row['median_s']:.2f} s, slowest {row['max_s']:.2f} s")  # fmt: skip
    missed = [row for row in figures if row["import_bytes"] and row["median_s"] >= START_GOAL_S]
    return 1 if missed and not args.smoke else 0


if __name__ == "__main__":
    sys.exit(main())

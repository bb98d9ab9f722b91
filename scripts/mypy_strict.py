"""The `mypy --strict` figure of docs/architecture.md, from one command: `python scripts/mypy_strict.py` prints it,
`--write` puts it in the page, `--check` fails when the page's figure is not today's (scripts/test.sh runs it).

The figure is what `mypy --strict assistant` reports beyond the project's own configuration (which is strict on the
core, the front ends, the server, storage, braille and the session): its errors, counted by the folder of
`assistant/` they are in.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- mypy-strict: `python scripts/mypy_strict.py --write` writes this line; `--check` checks it -->"
END = "<!-- /mypy-strict -->"
_ERROR = re.compile(r"^assistant/([a-z_]+)/\S*: error:", re.MULTILINE)


def figure(report: str) -> str:
    """The sentence for mypy's `report`: the errors in all, then by folder, most first."""
    counts = Counter(_ERROR.findall(report))
    if not counts:
        return "`mypy --strict assistant` finds no error."
    by_folder = sorted(counts.items(), key=lambda count: (-count[1], count[0]))
    folders = ", ".join(f"{count} in `{folder}/`" for folder, count in by_folder)
    outside = "" if "core" in counts else ", all outside the core"
    total = sum(counts.values())
    return f"`mypy --strict assistant` finds {total} error{'s' * (total != 1)}{outside}: {folders}."


def in_page(page: str) -> str | None:
    """The figure the page says, or None when it has none."""
    found = re.search(rf"{re.escape(BEGIN)}\n(.*)\n{re.escape(END)}", page)
    return found[1] if found else None


def with_figure(page: str, sentence: str) -> str:
    """The page with its figure replaced by `sentence`."""
    return re.sub(rf"{re.escape(BEGIN)}\n.*\n{re.escape(END)}", lambda _: f"{BEGIN}\n{sentence}\n{END}", page)


def main(argv: list[str]) -> int:
    mypy = Path(sys.executable).parent / "mypy"
    report = subprocess.run([str(mypy), "--strict", "assistant"], cwd=ROOT, capture_output=True, text=True).stdout
    sentence = figure(report)
    page = PAGE.read_text(encoding="utf-8")
    if "--write" in argv:
        PAGE.write_text(with_figure(page, sentence), encoding="utf-8")
    elif "--check" in argv and in_page(page) != sentence:
        print(f"docs/architecture.md says:\n  {in_page(page)}\ntoday:\n  {sentence}")
        print("Write today's: python scripts/mypy_strict.py --write")
        return 1
    print(sentence)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

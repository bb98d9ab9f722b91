"""The `mypy --strict` figure of docs/architecture.md comes from a command (`scripts/mypy_strict.py`), never by
hand: its sentence from mypy's report, and the page's line it writes and checks (scripts/test.sh runs the check on
mypy's real report)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mypy_strict", ROOT / "scripts" / "mypy_strict.py")
assert _spec is not None and _spec.loader is not None
mypy_strict = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mypy_strict)

REPORT = """assistant/speech/earcons.py:10: error: Missing type arguments for generic type "list"  [type-arg]
assistant/scanner/budget.py:3: error: Returning Any from function declared to return "float"  [no-any-return]
assistant/scanner/known.py:7: error: Missing type arguments for generic type "tuple"  [type-arg]
assistant/scanner/known.py:7: note: a note is not an error
Found 3 errors in 3 files (checked 152 source files)
"""


def test_the_figure_counts_mypys_errors_by_folder_most_first():
    assert mypy_strict.figure(REPORT) == (
        "`mypy --strict assistant` finds 3 errors, all outside the core: 2 in `scanner/`, 1 in `speech/`."
    )
    core = "assistant/core/game/state.py:1: error: Function is missing a type annotation  [no-untyped-def]\n"
    assert mypy_strict.figure(core) == "`mypy --strict assistant` finds 1 error: 1 in `core/`."
    assert mypy_strict.figure("Success: no issues found in 152 source files\n") == (
        "`mypy --strict assistant` finds no error."
    )


def test_the_page_holds_a_figure_the_command_writes_and_checks():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    said = mypy_strict.in_page(page)
    assert said is not None and said.startswith("`mypy --strict assistant` finds ")
    written = mypy_strict.with_figure(page, "`mypy --strict assistant` finds no error.")
    assert mypy_strict.in_page(written) == "`mypy --strict assistant` finds no error."
    assert written.replace("`mypy --strict assistant` finds no error.", said) == page

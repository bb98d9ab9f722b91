"""What the Textual app's screen shows, read as a sighted helper would: a region's text, and whether the cursor
stands on the answer (where a screen reader or a braille display follows it)."""

from __future__ import annotations

from typing import Any


def text(app: Any, widget_id: str) -> str:
    """The text a region (`#widget_id`: answer, status, pile, ...) shows now."""
    return str(app.query_one(f"#{widget_id}").render())


def cursor_on_answer(app: Any) -> bool:
    """Whether the terminal cursor is at the start of the answer."""
    region = app.query_one("#answer").content_region
    return (app.cursor_position.x, app.cursor_position.y) == (region.x, region.y)

"""Fixtures of the Textual app's tests with a braille display (`test_braille_display_outage.py`,
`test_braille_display_readers.py`): a real BRLTTY of a chosen width, and the app opened on it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui.braille_app import BrailleApp


@pytest.fixture
def display_server(tmp_path, monkeypatch, request) -> Iterator[Any]:
    """A real BRLTTY (its TTY driver on a pseudo-terminal) 40 cells wide, or as wide as the test's parameter says
    (`indirect=True`); BrlAPI's address and key given to the app through the environment."""
    from brltty_fixture import Brltty

    server = Brltty(tmp_path / "brltty", width=getattr(request, "param", 40))
    monkeypatch.setenv("BRLAPI_HOST", server.host)
    monkeypatch.setenv("BRLAPI_AUTH", server.auth)
    yield server
    server.stop()


@pytest.fixture
def braille_app(display_server, make_app) -> BrailleApp:
    """The app as `table-assistant --braille-display --no-speech` opens it, on `display_server`."""
    return BrailleApp(make_app(None, "--braille-display", "--no-speech"), display_server)

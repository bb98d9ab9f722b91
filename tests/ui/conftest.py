"""Fixtures of the app's tests (tests/ui): a real BRLTTY for the braille display's, and the app opened on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from brltty_fixture import Brltty

from tests.ui.braille_app import BrailleApp


@pytest.fixture
def display_server(tmp_path, monkeypatch, request) -> Iterator[Brltty]:
    """A real BRLTTY (`tests/brltty_fixture.py`) with a TTY display of 40 cells, or of the width a test gives
    (`@pytest.mark.parametrize("display_server", [40, 20], indirect=True)`); BrlAPI's host and key set in the
    environment, so the app's display finds it; stopped after the test."""
    server = Brltty(tmp_path / "brltty", width=getattr(request, "param", 40))
    monkeypatch.setenv("BRLAPI_HOST", server.host)
    monkeypatch.setenv("BRLAPI_AUTH", server.auth)
    yield server
    server.stop()


@pytest.fixture
def braille_app(display_server, make_app) -> BrailleApp:
    """The app as `table-assistant --braille-display --no-speech` opens it, on `display_server`."""
    return BrailleApp(make_app(None, "--braille-display", "--no-speech"), display_server)

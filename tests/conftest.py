"""Shared fixtures: every test runs with its own user directories, never the player's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_home(tmp_path, monkeypatch):
    """Point the app's data and config directories into the test's temporary folder."""
    home = tmp_path / "home"
    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(home))
    return home

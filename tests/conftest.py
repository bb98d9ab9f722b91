"""Shared fixtures: every test runs with its own user directories, never the player's; the command line run as a
player runs it; the Textual app on a session wired like the real one."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def private_home(tmp_path, monkeypatch):
    """Point the app's data and config directories into the test's temporary folder."""
    home = tmp_path / "home"
    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(home))
    return home


def run_cli(
    *args: str, stdin: str = "", home: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`python -m assistant ARGS` in a new process, as a player types it; its output and status.

    The process gets the test's environment (so the test's private home, unless `home` names another)."""
    env = dict(os.environ)
    if home is not None:
        env["TABLE_ASSISTANT_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "assistant", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )


@pytest.fixture(scope="session")
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """The command line: `cli("card", "rainbow aura", stdin="", home=None)` (see `run_cli`)."""
    return run_cli


@pytest.fixture(scope="session")
def make_app() -> Callable[..., Any]:
    """A factory of the Textual app: `make_app(speak, session=None, **options)`, on a session of the default deck
    with the app's own resolver unless a session is given; `options` go to `TableApp` (camera, chord_window)."""
    from assistant.commands.app import table_session
    from assistant.storage.decks import load_card_set
    from assistant.ui.app import TableApp

    def make(speak: Callable[..., Any] | None, session: Any = None, **options: Any) -> TableApp:
        return TableApp(session or table_session(load_card_set()), "Table assistant.", speak=speak, **options)

    return make

"""Shared fixtures: every test runs with its own user directories, never the player's; the command line run as a
player runs it; the Textual app built by the command's own factory, as a player opens it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]

# Hypothesis's tests judge what the code does, never how long an example took or was made: its 200 ms deadline
# failed a queue property once on a machine busy with other work. (Speed is measured in benchmarks/.)
settings.register_profile("any-load", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("any-load")


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
    """The Textual app as `table-assistant ARGS` opens it: `make_app(speak, *args, camera=None)` parses `args` with
    the real command line and builds the app with its factory (`assistant.commands.app.make_app`): the session saves
    games in the test's private home (`private_home`, read when the app is made) and offers them again, learns
    cards there, reads the settings there. `speak` hears every reply; `camera`, a frame-source opener, stands for
    the camera (without one, the app opens none: `--no-camera`); `clock`, the camera scanner's time. A test's
    `speak` without a voice is a `fake_speaker.Heard`."""
    from assistant.cli import build_parser
    from assistant.commands.app import make_app as app_factory
    from assistant.ui.app import TableApp

    def make(
        speak: Callable[..., Any] | None,
        *args: str,
        camera: Callable[[], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> TableApp:
        options = build_parser().parse_args([*args] if camera is not None else ["--no-camera", *args])
        return app_factory(options, speak, camera=camera, clock=clock)

    return make

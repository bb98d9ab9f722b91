"""Every missing piece is said once, with a fix this user can apply on this computer (issue 106, item 2): the
PortAudio notice told a user with no sudo to run "sudo apt install libportaudio2", gave the same Debian advice on
Windows and macOS and called winsound "one program a sound"; `player = ""` was said as " is not installed"."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from assistant.core.words.outage import (
    Piece,
    System,
    braille_grade2_unavailable,
    brlapi_missing,
    liblouis_missing,
    missing_fix,
    player_not_installed,
    portaudio_missing,
)
from assistant.speech import mixer, player
from assistant.speech.player import Player, system_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("system", list(System))
@pytest.mark.parametrize("instead", ["aplay", "winsound", "afplay", ""])
def test_the_portaudio_fix_is_one_this_user_can_apply_here(system, instead):
    said = portaudio_missing(instead, system)
    if system in (System.WINDOWS, System.MACOS, System.LINUX):
        assert "apt" not in said and "sudo" not in said, said
    if system in (System.DEBIAN_USER, System.DEBIAN_ROOT):
        assert "sudo" not in said, said  # root needs none; a user with none cannot use it
    if system is System.DEBIAN_USER:
        assert "administrator" in said and "libportaudio2" in said
    if system is System.DEBIAN_ROOT:
        assert "apt install libportaudio2" in said
    assert "one program a sound" not in said
    if instead == "winsound":
        assert "Windows plays one sound at a time" in said


@pytest.mark.parametrize(("platform", "words", "not_said"), [("win32", "Windows", "apt"), ("darwin", "macOS", "apt")])
def test_on_windows_and_macos_portaudio_missing_gives_their_own_fix(monkeypatch, platform, words, not_said):
    monkeypatch.setattr(mixer, "portaudio_installed", lambda: False)
    monkeypatch.setattr(mixer, "portaudio_available", lambda device="": False)
    note = Player.choose("auto", "", platform)[1]
    assert note.startswith("PortAudio is not installed") and words in note and not_said not in note, note


def test_the_computer_is_told_apart():
    assert (system_of("win32"), system_of("darwin")) == (System.WINDOWS, System.MACOS)
    here = system_of("linux")
    if shutil.which("apt-get") is None:
        assert here is System.LINUX
    elif os.geteuid() == 0:
        assert here is System.DEBIAN_ROOT
    else:
        assert here in (System.DEBIAN_SUDO, System.DEBIAN_USER)


def test_a_debian_user_without_sudo_is_told_to_ask_the_administrator(monkeypatch):
    if shutil.which("apt-get") is None:
        pytest.skip("not a Debian or Ubuntu system")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(player, "_in_groups", lambda names: False)
    assert system_of("linux") is System.DEBIAN_USER
    monkeypatch.setattr(player, "_in_groups", lambda names: True)
    assert system_of("linux") is System.DEBIAN_SUDO


@pytest.mark.parametrize("value", ["", "   "])
def test_an_empty_player_setting_is_said_as_empty(value):
    note = Player.choose(value, "", "linux")[1]
    assert note.startswith("The player setting is empty"), note
    assert not note.startswith(" ") and " is not installed" not in note
    assert player_not_installed(value, "aplay") == "The player setting is empty: playing with aplay."


@pytest.mark.parametrize("system", list(System))
@pytest.mark.parametrize("piece", list(Piece))
def test_every_missing_piece_has_a_fix_this_user_can_apply_on_every_computer(piece, system):
    """No `apt` off Debian, no `sudo` as root or for a user without it, the packages the set-up installs named where
    apt works, and the system named where a fix is its own."""
    said = missing_fix(piece, system)
    assert said.startswith("To fix it") and said.endswith(".")
    if system not in (System.DEBIAN_ROOT, System.DEBIAN_SUDO, System.DEBIAN_USER):
        assert "apt" not in said and "sudo" not in said, said
    if system is not System.DEBIAN_SUDO:
        assert "sudo" not in said, said
    debian = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    if system is System.DEBIAN_SUDO:
        packages = said.removeprefix("To fix it: sudo apt install ").removesuffix(".").split()
        assert packages and all(package in debian for package in packages), said  # what the set-up installs
    if system is System.DEBIAN_USER:
        assert "administrator" in said
    if system in (System.WINDOWS, System.MACOS):
        assert ("Windows" if system is System.WINDOWS else "macOS") in said


def test_a_missing_liblouis_brlapi_and_speech_dispatcher_module_are_said_with_their_fix_here():
    here = system_of()
    for said in (liblouis_missing(here), braille_grade2_unavailable(here), brlapi_missing(here)):
        assert said.endswith(missing_fix(Piece.LIBLOUIS if "liblouis" in said else Piece.BRLAPI, here)), said
    assert "liblouis" in liblouis_missing(System.WINDOWS) and "apt" not in liblouis_missing(System.WINDOWS)

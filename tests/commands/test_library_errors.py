"""A library's own error reaching the command line's last guard is said in plain words, its details kept in the crash
log, with the documented exit status 70 (issue 106, item 6): "unknown encoding: mbcs", a codec that exists only on
Windows, ended the app with that bare message and exit status 2, the status of a deck or file that cannot be read."""

from __future__ import annotations

import codecs

from assistant import cli
from assistant.commands import card
from assistant.commands.helptext import EXIT_STATUS


def test_a_librarys_lookup_error_is_said_logged_and_ends_with_the_status_of_an_unexpected_error(
    private_home, monkeypatch, capsys
):
    def run(args):
        codecs.lookup("mbcs")  # (found only on Windows: a LookupError elsewhere)
        return 0

    monkeypatch.setattr(card, "run", run)
    status = cli.main(["card", "rainbow aura"])
    said = capsys.readouterr().err.strip()
    assert status == 70 and ("70", "an unexpected error; its details are in crash.log") in EXIT_STATUS
    assert said.startswith("Something went wrong: LookupError: unknown encoding: mbcs.") and "crash" in said, said
    assert (private_home / "data" / "crash.log").exists()


def test_a_deck_that_is_not_installed_is_still_said_with_status_2(private_home, capsys):
    assert cli.main(["card", "rainbow aura", "--deck", "no-such-deck"]) == 2
    said = capsys.readouterr().err
    assert "no-such-deck" in said and "Something went wrong" not in said

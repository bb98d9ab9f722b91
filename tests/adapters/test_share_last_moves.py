"""The phones' last moves, each with its place in the game's log, on the real sharing server: two moves alike at two
places are two entries, an undo takes back the one at the place it undid (never the one with the same words), a
redo's words take the undo's place, and another game's moves replace the last game's."""

from __future__ import annotations

from typing import Any

from test_share_server import Table, run, shared_table

from tests.core.talking import asks

DREW = "Ana drew a card."


async def typed(table: Table, line: str) -> list[dict[str, Any]]:
    """Type a line on the laptop (yes to its question), as the front ends do; Ben's phone's last moves after it."""
    reply = table.session.handle(line)
    table.share.after(table.session.handle("yes") if asks(reply) else reply)
    status, view, _ = await table.get("/api/state")
    assert status == 200 and view["game"] is not None, view
    return list(view["game"]["last"])


def test_two_moves_alike_are_two_entries_and_an_undo_takes_back_the_one_at_its_place(tmp_path):
    """Before, the phones got plain lines: "Ana drew a card." twice could not be told apart, and the move undone
    stayed listed."""

    async def scenario() -> None:
        async with shared_table(tmp_path, "Ana Ben", "red pink") as table:
            await table.join("Ben")
            await typed(table, "draw")
            last = await typed(table, "draw")  # the same words, at the next place of the log
            assert len(table.session.game.log) == 2
            assert last == [{"at": 1, "text": DREW, "kind": "move"}, {"at": 2, "text": DREW, "kind": "move"}]

            last = await typed(table, "undo")
            assert {"at": 1, "text": DREW, "kind": "move"} in last  # the same words at another place stay
            assert not [entry for entry in last if entry["kind"] == "move" and entry["at"] == 2], last
            undone = [entry for entry in last if entry["kind"] == "undo"]
            assert undone and all(entry["at"] == 2 for entry in undone), last
            assert undone[0]["text"].startswith("Undone: ")

            last = await typed(table, "redo")  # the move is back: the undo's words are gone, the redo's said
            assert not [entry for entry in last if entry["kind"] == "undo"], last
            redone = [entry for entry in last if entry["kind"] == "redo"]
            assert redone and all(entry["at"] == 2 for entry in redone), last

    run(scenario())


def test_another_games_moves_replace_the_last_games(tmp_path):
    """Its places begin again at 1: before, the last game's moves stayed listed among the new game's."""

    async def scenario() -> None:
        async with shared_table(tmp_path, "Ana Ben", "red pink") as table:
            await table.join("Ben")
            await typed(table, "draw")
            await typed(table, "new game Ana Ben babies red pink")
            last = await typed(table, "draw")
            assert [entry for entry in last if entry["at"] >= 1] == [{"at": 1, "text": DREW, "kind": "move"}], last

    run(scenario())

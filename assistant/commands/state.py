"""`table-assistant state`: where the last saved game stands; `--json` prints the whole state. The state itself, as
a value, is `assistant/core/game/state.py`: the same thing, in the command line's layer."""

from __future__ import annotations

import argparse
import sys

from assistant.commands.helptext import described
from assistant.core.text import terminal_json
from assistant.core.words.errors import save_unreadable
from assistant.core.words.gameplay import NO_SAVED_GAME
from assistant.core.words.position import describe_stable, describe_tally, describe_turn


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser(
        "state",
        help="the last saved game: turn, tally, Stables (--json: everything)",
        **described(
            description="Print where the last saved game stands: whose turn and which phase, the tally, each Stable.",
            examples=[
                ("table-assistant state", "the last game, in sentences"),
                ("table-assistant state --json", "the whole state as JSON"),
            ],
        ),
    )
    parser.add_argument("--json", action="store_true", help="print the whole state as JSON")


def run(args: argparse.Namespace) -> int:
    """Read the last game (without changing its save) and print it; exit 1 when there is none."""
    from assistant.core.cards.lookup import resolve_name
    from assistant.core.game.setup import Setup
    from assistant.core.language.lobby import Lobby
    from assistant.storage.decks import load_card_set
    from assistant.storage.saves import GameStore

    store = GameStore()
    notes = store.unusable_said()  # named as start-up names them; only read here, never set aside
    try:
        saved = store.load_last()
    except OSError as exc:
        print(*notes, save_unreadable(exc.strerror or str(exc)), sep="\n", file=sys.stderr)
        return 1
    if saved is None:
        print(*notes, NO_SAVED_GAME, sep="\n", file=sys.stderr)
        return 1
    try:  # a save is a file anyone may edit: a setup or decks it cannot use are the resume's to explain
        setup = Setup.from_dict(saved.setup)
        cards = load_card_set(setup.base, setup.addons)
    except (LookupError, ValueError):  # SetupError is a ValueError
        cards = load_card_set()
    lobby = Lobby(cards, lambda query: resolve_name(cards, query), store=store, load_cards=load_card_set)
    said = lobby.resume(repair=False)
    game = lobby.game
    if game is None:
        print(*notes, said.speech, sep="\n", file=sys.stderr)
        return 1
    notes += said.lines[:-1]
    if args.json:
        data = game.to_dict()
        data["save"] = str(store.last_path())
        data["notes"] = notes
        print(terminal_json(data))
        return 0
    table, state = game.table, game.state
    for line in notes:
        print(line)
    print(describe_turn(table, state))
    print(describe_tally(table, state))
    for seat in range(len(state.players)):
        print(describe_stable(table, state, seat))
    return 0

"""What a phone on the shared table shows: the game as now, for one player, as plain values (sent as JSON).

Every sentence in it comes from `assistant/core/words/` (the same ones the laptop says for `turn`, `pile`, `chain`,
`stable`); names and card names are plain strings the page shows as text, never as markup.
"""

from __future__ import annotations

from typing import Any

from assistant.core.game.history import Game
from assistant.core.language.device import may_do
from assistant.core.words.cardtext import type_name
from assistant.core.words.gameplay import describe_outcome
from assistant.core.words.position import describe_chain, describe_pile, describe_stable, describe_turn
from assistant.core.words.share import NO_GAME_TO_JOIN
from assistant.core.words.verbosity import Verbosity

__all__ = ["card_entry", "phone_view"]


def card_entry(game: Game, card_id: str) -> dict[str, str]:
    """One card as the page lists it: id, name, its type in the deck's words and the type's id (`kind`)."""
    card = game.table.card_of(card_id)
    vocabulary = game.table.profile.vocabulary
    return {"id": card.id, "name": card.name, "type": type_name(card.type, vocabulary), "kind": card.type.value}


def phone_view(
    game: Game | None,
    player: str,
    version: int,
    last: list[str],
    question: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The view of the table for the device of `player`: `version` grows with every change, `last` are the last
    moves said (newest last), `question` the device's open warning (its id and lines), if any."""
    if game is None or player not in game.table.setup.players:
        return {"version": version, "you": player, "line": NO_GAME_TO_JOIN, "game": None}
    table, state = game.table, game.state
    vocabulary = table.profile.vocabulary
    names = table.setup.players
    counts = table.tally(state)
    neigh = table.cards.get(table.neigh_card) if table.neigh_card else None
    players = [
        {
            "name": name,
            "count": counts[seat],
            "goal": state.goal,
            "summary": describe_stable(table, state, seat),
            "cards": [card_entry(game, card_id) for card_id in state.players[seat].stable],
            "hand": state.players[seat].hand,
        }
        for seat, name in enumerate(names)
    ]
    view = {
        "words": {
            "area": vocabulary.area,
            "areas": f"{vocabulary.area}s",
            "creature": vocabulary.creature,
            "instant": neigh.name
            if neigh is not None
            else type_name(table.instants[0].type, vocabulary)
            if table.instants
            else "",
        },
        "turn": describe_turn(table, state, Verbosity.NORMAL),  # the page's buttons say how: no "say draw"
        "current": names[state.current],
        "phase": state.phase.value,
        "players": players,
        "pile": [{**card_entry(game, c.card), "player": names[c.player]} for c in state.pile],
        "pile_line": describe_pile(table, state, Verbosity.NORMAL),
        "chain": describe_chain(table, state) if state.chain else [],
        "last": list(last),
        "winner": describe_outcome(table, state.outcome, state) if state.outcome is not None else None,
        "may": may_do(game, player),
        "question": question,
    }
    return {"version": version, "you": player, "line": "", "game": view}

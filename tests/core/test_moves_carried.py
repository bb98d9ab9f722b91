"""Every move a reply tells (`Reply.tells`, `Topic.MOVE`) is carried by one of its segments: the speech queue says a
reply's move from the sentence of the segment that tells it, and cuts or merges it there; a move no segment carries
left it to guess by position. Two whole fixture games, every reply (a turn's end is said by the turn that begins)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.commands.app import table_session
from assistant.core.game.about import Topic
from assistant.storage.decks import load_card_set

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAMES = [
    ("llamas_six_game.txt", "llamas", ["llamas-farmed"]),
    ("unicorns_four_game.txt", "uu-2nd", ["uu-dragons", "uu-adventures"]),
]


@pytest.mark.parametrize(("script", "base", "addons"), GAMES)
def test_every_move_a_reply_tells_is_carried_by_a_segment(script, base, addons):
    session = table_session(load_card_set(base, addons))
    loose, moves = [], 0
    for line in (FIXTURES / script).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        reply = session.handle(line)
        carried = {fact for segment in reply.segments for fact in segment.about}
        told = [fact for fact in reply.tells if fact.topic is Topic.MOVE]
        moves += len(told)
        loose += [(line, fact.move) for fact in told if fact not in carried]
    assert moves > 50  # the games tell moves
    assert loose == []

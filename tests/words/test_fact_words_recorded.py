"""A fact's words for every audience, held to the words recorded from real games: every fact each reply carries
(its segments' facts and tells, merged moves taken apart too) in three whole games of both editions (Unstable
Unicorns, Llamas Unleashed) and a short game of warnings, questions, undos and redos, worded by
`words.worded.words_for` for each audience; each reply's speech; and the digest of the last facts (`words.pace.missed`)
after each line. The recorded words (`tests/fixtures/fact_words.json`) are today's: a change to how a fact carries its
values keeps every word. To record them again after a deliberate change of words:
`python -m tests.words.test_fact_words_recorded`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from assistant.commands.app import table_session
from assistant.core.game.about import About
from assistant.core.words.announce import facts_of_step, tells_of_step
from assistant.core.words.audience import Audience
from assistant.core.words.pace import missed
from assistant.core.words.worded import words_for
from assistant.storage.decks import load_card_set

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RECORDED = FIXTURES / "fact_words.json"

#: A short game of the answers the scripts never give: a move out of turn (a warning), declined and taken anyway,
#: a card a phrase names two of (a question), undos and redos.
ASIDES = """new game Ana Ben Cy babies red pink narwhal win 6
draw
ben draw
no
ben draw
yes
undo
redo
play basic
1
resolve
undo
undo
redo
end turn
draw
play neigh
play basic red
neigh
resolve
resolve
end turn
"""

#: The games replayed: a script (or its lines) and the decks it is played with.
GAMES: dict[str, tuple[str, str, list[str]]] = {
    "llamas four": ("llamas_game.txt", "llamas", ["llamas-farmed"]),
    "llamas six": ("llamas_six_game.txt", "llamas", ["llamas-farmed"]),
    "unicorns four": ("unicorns_four_game.txt", "uu-2nd", ["uu-dragons", "uu-adventures"]),
    "asides": ("", "uu-2nd", []),
}


def _worded(fact: About, table: Any) -> dict[str, str]:
    said = {audience.value: words_for(fact, audience, table) for audience in Audience}
    return {"topic": fact.topic.value, "move": fact.move.value if fact.move else "", **said}


def record(game: str) -> list[dict[str, Any]]:
    """Every line of the game said in order, and for each its reply's speech, each fact's words for every audience
    and the digest of the last facts for the first seat."""
    script, base, addons = GAMES[game]
    session = table_session(load_card_set(base, addons))
    text = (FIXTURES / script).read_text(encoding="utf-8") if script else ASIDES
    text = text.replace(" deck llamas addon llamas-farmed", "")  # (the decks are the session's own)
    heard: list[About] = []
    out: list[dict[str, Any]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        reply = session.handle(line)
        facts = [
            part
            for segment in reply.segments
            for fact in (*segment.about, *segment.tells)
            for part in (fact, *fact.parts)
        ]
        table = session.game.table if session.game is not None else None
        talk = session.lobby.talk
        if table is not None and talk is not None and talk.step is not None and talk.step.after is session.game.state:
            at = len(session.game.log)  # (the step's own facts, as a phone's move or a digest carries them)
            facts += [*facts_of_step(table, talk.step, at), *tells_of_step(table, talk.step, at)]
        heard = [*heard, *reply.tells, *reply.facts][-12:]
        digest = missed(heard, me=0)
        out.append(
            {
                "line": line,
                "speech": reply.speech,
                "facts": [_worded(fact, table) for fact in dict.fromkeys(facts)],
                "missed": list(digest.lines),
            }
        )
    return out


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    return json.loads(RECORDED.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_fact_is_worded_as_recorded(game, recorded):
    now = record(game)
    assert len(now) == len(recorded[game])
    for said, was in zip(now, recorded[game]):
        assert said == was, said["line"]


def test_the_record_is_broad():
    """The sample holds facts of every topic but a win taken back, and moves of many kinds, in both editions."""
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    facts = [fact for game in recorded.values() for said in game for fact in said["facts"]]
    topics = {fact["topic"] for fact in facts}
    assert {"win", "turn", "count", "question", "warning", "duty", "chain-done", "move", "stopped", "undo"} <= topics
    assert len({fact["move"] for fact in facts}) >= 12
    assert len(facts) >= 400


if __name__ == "__main__":
    RECORDED.write_text(json.dumps({game: record(game) for game in GAMES}, indent=1) + "\n", encoding="utf-8")
    sys.exit(0)

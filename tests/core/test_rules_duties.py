"""Duties that cannot be skipped, hands discarded by count, and reminders from the game's state (issue 103).

A mandatory beginning-of-turn effect (Sadistic Ritual) of which nothing was done is warned at a bare `resolve`
(rulebook 002: "If the effect is mandatory, you must still do it"): the table may still insist, and until it does the
effect stays in the chain.

Played on the core's own API (tests/core/playing.py), asserting on the typed objections; the lines through the
session (tests/core/talking.py) where the line itself is the subject.
"""

from __future__ import annotations

from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import Draw, EndTurn, Resolve, Sacrifice
from assistant.core.game.objections import MandatoryNotDone
from assistant.core.words.rulings import describe_objection
from tests.core import playing as play
from tests.core import talking as talk

ANA, BEN = play.ANA, play.BEN
RITUAL = MandatoryNotDone(ANA, "sadistic-ritual", ("sacrifice", "draw"))


def _ritual_due() -> play.Game:
    """Ana's turn begins with Sadistic Ritual and a Unicorn card in her Stable."""
    g = play.table()
    play.bring(g, "sadistic-ritual")
    play.bring(g, "basic-unicorn-red")
    play.moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert [t.card for link in g.state.chain for t in link] == ["sadistic-ritual"]
    return g


def test_a_bare_resolve_of_a_mandatory_effect_left_undone_is_warned_and_it_stays_in_the_chain():
    """002: "If the effect is mandatory, you must still do it": nothing sacrificed or drawn, the resolve is warned;
    declined, the effect is still waiting."""
    g = _ritual_due()
    assert play.declined(g, Resolve()) == (RITUAL,)
    assert g.state.chain == ((Trigger("sadistic-ritual", ANA, TriggerKind.BEGIN),),)


def test_the_table_may_insist_that_the_mandatory_effect_resolve():
    g = _ritual_due()
    assert play.warned(g, Resolve()) == (RITUAL,)
    assert not g.state.chain


def test_a_mandatory_effect_done_resolves_without_a_word():
    g = _ritual_due()
    play.moves(g, Sacrifice(ANA, "basic-unicorn-red"), Draw(ANA), Resolve())
    assert not g.state.chain


def test_an_effect_with_nothing_for_its_player_to_do_is_not_warned():
    """Unstoppable Ram's effect is the tracker's own (no one may play an Instant): nothing is asked of its player."""
    g = play.table("llamas")
    play.bring(g, "unstoppable-ram")
    play.moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert g.state.chain and g.check(Resolve()) == ()


def test_the_line_resolve_asks_before_letting_a_mandatory_effect_go():
    """The issue's case: a bare `resolve` said "Sadistic Ritual resolved." though nothing was done."""
    session = talk.table()
    talk.bring(session, "sadistic-ritual")
    talk.bring(session, "basic-unicorn-red")
    for line in ("end turn", "draw", "end turn"):
        session.handle(line)
    reply = session.handle("resolve")
    assert talk.asks(reply)
    assert talk.objections(session) == (RITUAL,)
    session.handle("no")
    assert session.game.state.chain


def test_the_warning_says_what_is_still_to_do():
    g = play.table()
    said = describe_objection(g.table, RITUAL)
    assert said == (
        "Sadistic Ritual's effect is mandatory and Ana has not done it: nothing was sacrificed or drawn yet. It stays "
        "in the chain until it is done."
    )

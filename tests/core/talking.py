"""Playing a game through the text front end, for the tests ABOUT the lines and what a reply asks or says (a
question the tracker asks, a save offered, a name read, a sentence said): the session each line goes to, the
objections and facts the core found in the event a line built. A rule with nothing to do with the text is tested
on the core's own API instead (tests/core/playing.py)."""

from __future__ import annotations

from assistant.commands.app import table_session
from assistant.core.cards.card import CardSet, CardType
from assistant.core.game.facts import Fact
from assistant.core.game.objections import Objection
from assistant.core.language.reply import Question, Reply
from assistant.session import Session
from assistant.storage.decks import load_card_set


def asks(reply: Reply) -> bool:
    """The reply asks a yes-or-no question: the next line answers it."""
    return isinstance(reply.pending, Question)


def table(base: str = "uu-2nd", addons: tuple[str, ...] = (), cards: CardSet | None = None) -> Session:
    """A session with a game of Ana and Ben on these decks, each with one of the set's first two Babies, Ana in her
    Action phase."""
    cards = cards or load_card_set(base, list(addons))
    session = table_session(cards)
    babies = [c for c in cards if c.type is CardType.BABY][:2]
    line = "new game Ana Ben" + (f" babies {babies[0].id} {babies[1].id}" if len(babies) == 2 else "")
    assert session.handle(line).important
    session.handle("draw")
    return session


def objections(session: Session) -> tuple[Objection, ...]:
    """What the core's `Game.check` found against the rules in the event the last line built."""
    assert session.lobby.talk is not None
    return session.lobby.talk.objections


def facts(session: Session) -> tuple[Fact, ...]:
    """What the event the last line recorded did beyond itself; fails when that line recorded nothing."""
    step = session.lobby.talk.step if session.lobby.talk is not None else None
    assert step is not None and step.after is session.game.state, "the line recorded no event"
    return step.facts


def bring(session: Session, card_id: str, into: str = "Ana") -> tuple[Fact, ...]:
    """Put a card straight into a Stable (as a card's effect would), confirming any warning; the step's facts."""
    reply = session.handle(f"bring {card_id} into {into}")  # by id: two decks may print the same name
    if asks(reply):
        reply = session.handle("yes")
    assert card_id in session.game.state.players[0 if into == "Ana" else 1].stable, reply.speech
    return facts(session)


def warning(session: Session, line: str) -> tuple[Objection, ...]:
    """Say a line that must be warned, decline it, and return the objections the warning phrased."""
    reply = session.handle(line)
    assert asks(reply), f"{line!r} was not warned: {reply.speech}"
    found = objections(session)
    events = len(session.game.log)
    session.handle("no")
    assert found and len(session.game.log) == events, f"{line!r}: a warning with no objection, or recorded"
    return found


def unwarned(session: Session, line: str) -> tuple[Fact, ...]:
    """Say a line that the core must find nothing against; it is recorded: return its step's facts."""
    reply = session.handle(line)
    assert not asks(reply) and objections(session) == (), f"{line!r} was warned: {reply.speech}"
    return facts(session)

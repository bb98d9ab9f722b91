"""Every reply that leaves a question open holds the question as a typed decisive fact (`Topic.QUESTION`, or a
warning's `Topic.WARNING`), said in its own words (`Part.FACT`): a braille display and the status line keep it until
it is answered, and speech says it first. Each path of the session that asks is walked here."""

from __future__ import annotations

from argparse import Namespace

from assistant.commands.app import make_session
from assistant.core.game.about import Topic
from assistant.core.language.reply import Part, Reply
from assistant.session import Session
from tests.core.talking import unwarned
from tests.core.test_rules_five import rhinocorn_talk

_ASKING = (Topic.QUESTION, Topic.WARNING)


def held(reply: Reply) -> bool:
    """The reply asks nothing, or holds its question as a fact said in a segment of its own."""
    if reply.pending is None:
        return True
    facts = [fact for fact in reply.facts if fact.topic in _ASKING]
    said = {fact for segment in reply.segments if segment.part is Part.FACT for fact in segment.about}
    return bool(facts) and all(fact in said for fact in facts)


def session() -> Session:
    """The app's own session on the base deck, saving and learning into the test's own data folder."""
    return make_session(Namespace(deck="uu-2nd", addon=[]))


def test_every_question_the_session_leaves_open_is_held_as_a_fact(private_home):
    table = session()
    asked: list[tuple[str, Reply]] = []

    def say(line: str) -> Reply:
        reply = table.handle(line)
        asked.append((line, reply))
        return reply

    say("search destroy")  # numbered cards found
    say("card basic unicorn")  # numbered cards close to the name
    say("new game Ana Ben babies red pink")
    say("draw")
    say("Ben play yay")  # a warning: record anyway?
    say("no")
    say("new game Ana Ben")  # a game in progress: start another?
    say("no")
    scans = [
        "Some New Card: Magic card. Draw three cards.",  # a card to add, its type known
        "Other New Card: draw three cards.",  # its type unknown: yes asks for it
        "Rainbow Aura: Destroy every card.",  # a deck's card in other words
    ]
    for payload in scans:
        asked.append((payload, table.card_desk.scanned(payload)))
        say("yes")
        say("no")
    rhinocorn = rhinocorn_talk(target="basic-unicorn-red")  # its effect done: "End Ana's turn now?"
    unwarned(rhinocorn, "destroy basic red from Ben")
    asked.append(("resolve (Rhinocorn)", rhinocorn.handle("resolve")))
    resumed = session().offer_resume()  # the saved game offered at start
    assert resumed is not None
    asked.append(("(start)", resumed))
    questions = [line for line, reply in asked if reply.pending is not None]
    assert len(questions) >= 9, questions
    assert [line for line, reply in asked if not held(reply)] == []

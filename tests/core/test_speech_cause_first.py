"""Another hand's move is said before what it led to, every turn's end is said, and a duty is said with the name of
the player whose card it is: on the speech queue (`SpeechQueue.arrive`), the path both voices take for another
hand's reply, with typed facts and segments as the session gives them."""

from __future__ import annotations

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.segment import Part, Segment, Verbatim
from assistant.core.speech.placement import Seating, sentence_places
from assistant.core.speech.queue import SpeechQueue
from assistant.core.speech.utterance import Utterance
from assistant.core.words.audience import Audience
from assistant.core.words.worded import speech_of, words_for
from tests.facts import fact

PLAYERS = ("Ana", "Ben", "Cy", "Dee")


def move(text: str, seat: int, kind: str, card: str = "", at: int = 0, owner: int | None = None) -> About:
    whose = PLAYERS[owner] if owner is not None else ""
    return fact(
        Topic.MOVE, text, seat, player=PLAYERS[seat], move=MoveKind(kind), card=card, owner=owner, whose=whose, at=at
    )


def reply(segments: tuple[Segment, ...], facts=(), tells=(), hand: int | None = None) -> Utterance:
    return Utterance(
        speech_of(segments, Audience.TABLE), facts=tuple(facts), tells=tuple(tells), hand=hand, segments=segments
    )


def saying_her_reply() -> SpeechQueue:
    queue = SpeechQueue()
    queue.add(Utterance("Ana's Stable: 2 Unicorns. Rainbow Aura, Basic Unicorn (Red)."))
    queue.take()
    return queue


DEE_0 = fact(Topic.COUNT, "Dee 0 Unicorns.", 3, player="Dee")
DESTROYED = move("Cy destroyed Dee's Baby Unicorn (Blue).", 2, "destroy", "Baby Unicorn (Blue)", at=30, owner=3)
DESTROY_REPLY = (
    Segment(Verbatim("Dee 0 Unicorns."), (DEE_0,), DEE_0.states, Part.FACT),
    Segment(Verbatim("Cy destroyed Dee's Baby Unicorn (Blue) in Dee's Stable."), (DESTROYED,)),
)


def test_another_hands_move_is_said_before_the_count_it_led_to():
    """ "Dee 0 Unicorns." was said 2.6 s before "Cy destroyed Dee's Baby Unicorn (Blue)": the move comes first, its
    count after it, in its reply as in a fold of replies that waited."""
    queue = SpeechQueue()
    queue.arrive(reply(DESTROY_REPLY, (DEE_0,), (DESTROYED,), hand=2))
    said = queue.waiting[0]
    assert said.text == "Cy destroyed Dee's Baby Unicorn (Blue) in Dee's Stable. Dee 0 Unicorns."
    assert said.unheard(1) == [DEE_0]  # the move heard, the count not yet
    seating = Seating(4)
    assert sentence_places(said, seating) == (seating.place(2), seating.place(2))  # both at Cy's seat

    queue = saying_her_reply()  # a burst: the move's reply waits, another arrives
    queue.arrive(reply(DESTROY_REPLY, (DEE_0,), (DESTROYED,), hand=2))
    drew = move("Ben drew a card.", 1, "draw", at=31)
    queue.arrive(reply((Segment(Verbatim("Ben drew a card."), (drew,)),), tells=(drew,), hand=1))
    text = queue.waiting[0].text
    assert text.index("Cy destroyed") < text.index("Dee 0 Unicorns.") < text.index("Ben drew a card.")


def test_a_fast_turns_end_is_said():
    """Cy ended the turn and Dee drew at once: "Cy ended the turn." is said (Dee's draw says whose turn it is)."""
    queue = saying_her_reply()
    ended = move("Cy ended the turn.", 2, "end", at=40)
    dees_turn = fact(Topic.TURN, "Dee's turn.", 3, player="Dee")
    ends = (
        Segment(
            Verbatim("Cy, from a phone: ended the turn. Turn 5: Dee's turn."), (ended, dees_turn), dees_turn.states
        ),
    )
    queue.arrive(reply(ends, (dees_turn,), (ended,), hand=2))
    drew = move("Dee drew a card.", 3, "draw", at=41)
    queue.arrive(reply((Segment(Verbatim("Dee drew a card."), (drew,)),), tells=(drew,), hand=3))
    assert [u.text for u in queue.waiting] == ["Cy ended the turn. Dee drew a card."]
    # and her own key then: the turn's end still said, after her reply
    queue = saying_her_reply()
    queue.listener = 0
    queue.arrive(reply(ends, (dees_turn,), (ended,), hand=2))
    queue.new_input()
    queue.done()
    queue.add(Utterance("Nothing in your hand."))
    assert any("Cy ended the turn." in u.text for u in queue.waiting)


def test_a_duty_is_said_with_the_name_of_the_player_whose_card_it_is():
    """Ben resolved Dee's Surprise Emu Attack from his phone: its duty is Dee's, not Ben's, and said after the
    resolve that led to it."""
    duty = fact(Topic.DUTY, "Destroy one Animal.", 3, player="Dee")
    segments = (
        Segment(Verbatim("Ben, from a phone:")),
        Segment(Verbatim("Destroy one Animal."), (duty,), part=Part.FACT, joined=True),
        Segment(Verbatim("Surprise Emu Attack, played by Dee, resolves.")),
    )
    queue = SpeechQueue()
    queue.arrive(reply(segments, (duty,), hand=1))
    said = queue.waiting[0]
    assert said.text == "Ben, from a phone: Surprise Emu Attack, played by Dee, resolves. Dee: Destroy one Animal."
    assert [words_for(fact, Audience.TABLE) for fact in said.facts] == ["Dee: Destroy one Animal."]
    assert said.split() == [
        "Ben, from a phone: Surprise Emu Attack, played by Dee, resolves.",
        "Dee: Destroy one Animal.",
    ]
    own = (
        Segment(Verbatim("Dee, from a phone:")),
        *segments[1:],
    )  # her own card's duty from her own phone: no name needed
    queue = SpeechQueue()
    queue.arrive(reply(own, (duty,), hand=3))
    said = queue.waiting[0]
    assert said.text == "Dee, from a phone: Surprise Emu Attack, played by Dee, resolves. Destroy one Animal."

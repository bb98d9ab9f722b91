"""What she hears comes in the order it happened (assistant/core/speech/utterance.py, queue.py): the turn's earcon
with the sentence that says the turn ended, never with a count said ahead of it; a reminder never said after what it
reminds of was done. Plain data: no threads, no audio."""

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.segment import Part, Segment, Verbatim
from assistant.core.speech.queue import SpeechQueue
from assistant.core.speech.utterance import Priority, Utterance
from tests.facts import fact


def move(text: str, seat: int, kind: MoveKind, card: str = "", at: int = 0) -> About:
    player = ("Ana", "Ben", "Cy", "Dee")[seat]
    return fact(Topic.MOVE, text, seat, player=player, move=kind, card=card, at=at)


COUNT = fact(Topic.COUNT, "Cy 3 Unicorns.", 2, player="Cy")
ENDED = move("Cy's turn ended.", 2, MoveKind.END, at=9)
TURN = fact(Topic.TURN, "Ana's turn.", 0, player="Ana")
LASSO = move("Cy played Unicorn Lasso.", 2, MoveKind.PLAY, "Unicorn Lasso", at=5)
DUTY = fact(Topic.DUTY, "May sacrifice a card, then destroy a card.", 2, player="Cy", at=5)
SACRIFICED = move("Cy sacrificed Unicorn Lasso.", 2, MoveKind.SACRIFICE, "Unicorn Lasso", at=6)


def turn_ended(*lead: Segment) -> Utterance:
    """Cy's turn end as a reply says it, its earcon the turn's, led by whatever facts are said first."""
    return Utterance(
        priority=Priority.IMPORTANT,
        sound="your-turn",
        tells=(ENDED,),
        facts=(TURN,),
        other=True,
        segments=(
            *lead,
            Segment(Verbatim("Cy's turn ended."), (ENDED,)),
            Segment(Verbatim("Turn 5: Ana's turn."), (TURN,), TURN.states),
        ),
    )


def chimes_at(utterance: Utterance) -> str:
    return utterance.split()[utterance.sound_at()]


def test_the_turns_earcon_goes_with_the_turns_end_not_with_a_count_said_ahead_of_it():
    led = turn_ended(Segment(Verbatim("Cy 3 Unicorns."), (COUNT,), COUNT.states, Part.FACT))
    assert led.split()[0] == "Cy 3 Unicorns."
    assert chimes_at(led) == "Cy's turn ended."
    assert chimes_at(turn_ended()) == "Cy's turn ended." and turn_ended().sound_at() == 0
    turn_only = Utterance(
        sound="your-turn", segments=(Segment(Verbatim("Ana 2 Unicorns.")), Segment(Verbatim("Ben's turn."), (TURN,)))
    )
    assert chimes_at(turn_only) == "Ben's turn."
    other_earcon = Utterance(
        sound="error",
        segments=(Segment(Verbatim("Cy 3 Unicorns."), (COUNT,)), Segment(Verbatim("Ben's turn."), (TURN,))),
    )
    assert other_earcon.sound_at() == 0  # (an earcon of no fact: before the first sentence)


def test_the_turns_earcon_stays_with_the_turns_end_when_older_facts_are_folded_before_it():
    queue = SpeechQueue()
    queue.arrive(
        Utterance(
            "Ben played Basic Unicorn (Blue). It enters Ben's Stable.",
            tells=(move("Ben played Basic Unicorn (Blue).", 1, MoveKind.PLAY, "Basic Unicorn (Blue)"),),
        )
    )
    queue.take()  # being said: Cy's count waits, then Cy's turn ends
    queue.arrive(
        Utterance(
            priority=Priority.IMPORTANT, facts=(COUNT,), segments=(Segment(Verbatim("Cy 3 Unicorns."), (COUNT,)),)
        )
    )
    queue.arrive(turn_ended())
    said = queue.waiting[-1]
    assert said.sound == "your-turn"
    assert said.split().index("Cy 3 Unicorns.") < said.sound_at()
    assert chimes_at(said).startswith("Cy's turn ended") or chimes_at(said).startswith("Turn 5")


def test_parted_keeps_every_sentence_once_and_the_earcon_with_the_second_part():
    led = turn_ended(Segment(Verbatim("Cy 3 Unicorns."), (COUNT,), COUNT.states, Part.FACT))
    before, after = led.parted(led.sound_at())
    assert before.split() + after.split() == led.split()
    assert (before.sound, after.sound) == ("", "your-turn") and after.sound_at() == 0


def test_a_duty_is_done_by_a_later_move_of_its_player_not_by_the_move_it_came_with_nor_anothers():
    assert DUTY.done_by(SACRIFICED) and DUTY.settled_by([SACRIFICED])
    assert not DUTY.done_by(LASSO)  # the play that brought it: recorded with it, not after
    assert not DUTY.done_by(move("Ben played Neigh.", 1, MoveKind.NEIGH, "Neigh", at=6))
    assert not SACRIFICED.done_by(DUTY) and not COUNT.done_by(SACRIFICED)


def test_a_reminder_cut_by_the_move_it_reminds_of_is_never_said_after_it():
    # the table voice (or one voice): Cy's reply is being said when Cy's sacrifice arrives
    queue = SpeechQueue()
    queue.arrive(
        Utterance(
            tells=(LASSO,),
            facts=(DUTY,),
            other=True,
            segments=(
                Segment(Verbatim("Cy played Unicorn Lasso."), (LASSO,)),
                Segment(Verbatim("May sacrifice a card, then destroy a card."), (DUTY,)),
            ),
        )
    )
    queue.take()
    queue.arrive(
        Utterance(
            tells=(SACRIFICED,),
            other=True,
            segments=(Segment(Verbatim("Cy sacrificed Unicorn Lasso."), (SACRIFICED,)),),
        )
    )
    said = " ".join(u.text for u in queue.waiting)
    assert "Cy sacrificed Unicorn Lasso." in said
    assert "May sacrifice" not in said


def test_her_own_reminder_cut_by_her_next_key_is_not_folded_into_the_reply_that_did_it():
    duty = fact(Topic.DUTY, "May sacrifice a card, then destroy a card.", 0, player="Ana", at=5)
    sacrificed = move("Ana sacrificed Unicorn Lasso.", 0, MoveKind.SACRIFICE, "Unicorn Lasso", at=6)
    queue = SpeechQueue()
    queue.add(
        Utterance(
            facts=(duty,),
            segments=(
                Segment(Verbatim("May sacrifice a card, then destroy a card."), (duty,), part=Part.FACT),
                Segment(Verbatim("Ana played Unicorn Lasso.")),
            ),
        )
    )
    queue.take()
    queue.new_input()  # she types "sacrifice lasso" before the reminder was heard
    queue.done()
    queue.add(
        Utterance(tells=(sacrificed,), segments=(Segment(Verbatim("Ana sacrificed Unicorn Lasso."), (sacrificed,)),))
    )
    assert [u.text for u in queue.waiting] == ["Ana sacrificed Unicorn Lasso."]

"""One voice, her words first (issue 107, "One voice, decided"; assistant/core/speech/queue.py `at_pause`): while
she types, another hand's move that does not concern her is held, its words said at her first pause (`PAUSE_S`
with no key) as one short digest; what concerns her breaks in at once; nothing held is ever lost. Time is given as
`now`, never read from a clock."""

from dataclasses import replace

from assistant.core.game.about import About, MoveKind, SaveInstead, Topic
from assistant.core.game.segment import Segment, Verbatim
from assistant.core.speech.queue import PAUSE_S, SpeechQueue, concerns
from assistant.core.speech.utterance import Utterance
from tests.facts import fact


def move(text: str, seat: int, kind: MoveKind, card: str = "", at: int = 0, owner: int | None = None) -> About:
    player = ("Ana", "Ben", "Cy", "Dee")[seat]
    return fact(Topic.MOVE, text, seat, player=player, move=kind, card=card, owner=owner, at=at)


def other(fact: About, *more: About) -> Utterance:
    return Utterance(tells=(fact,), facts=more, other=True, segments=(Segment(fact, (fact,)),))


def own(text: str) -> Utterance:
    return Utterance(text)


BEN_DREW = move("Ben drew a card.", 1, MoveKind.DRAW, at=3)
BEN_PLAYED = move("Ben played Yay.", 1, MoveKind.PLAY, "Yay", at=4)
CY_DREW = move("Cy drew a card.", 2, MoveKind.DRAW, at=5)
CY_DESTROYED = move("Cy destroyed Ana's Basic Unicorn (Red).", 2, MoveKind.DESTROY, "Basic Unicorn (Red)", 6, owner=0)


def typing_queue() -> SpeechQueue:
    queue = SpeechQueue()
    queue.at_pause, queue.listener = True, 0
    return queue


def key(queue: SpeechQueue, now: float, reply: str) -> None:
    """Her key at `now`: its reply queued at once (as the speech service does)."""
    queue.new_input(now=now)
    queue.add(own(reply))


def said(queue: SpeechQueue) -> list[str]:
    """Say everything waiting, in order (each said whole)."""
    words = []
    while (utterance := queue.take()) is not None:
        words.append(utterance.text)
        for n in range(len(utterance.split())):
            queue.sentence_played(n)
        queue.done()
    return words


def test_while_she_types_her_own_words_come_first_and_other_moves_wait_for_her_pause():
    queue = typing_queue()
    key(queue, 0.0, "Ana 2 Unicorns.")
    assert queue.holds(other(BEN_DREW), now=0.4)  # held: known by its earcon now
    heard = said(queue)
    key(queue, 1.2, "Pile: Yay.")
    assert queue.holds(other(BEN_PLAYED), now=1.5)
    heard += said(queue)
    key(queue, 2.4, "Ben 3 Unicorns.")
    heard += said(queue)
    assert heard == ["Ana 2 Unicorns.", "Pile: Yay.", "Ben 3 Unicorns."]  # hers only, each as she typed
    assert queue.due_at() == 2.4 + PAUSE_S
    assert not queue.pause(now=2.4 + PAUSE_S - 0.1)  # no pause yet: nothing of theirs
    assert queue.pause(now=2.4 + PAUSE_S)
    (digest,) = said(queue)
    assert "Ben" in digest and "drew a card" in digest and "Yay" in digest  # one sentence for Ben's moves
    assert not queue.held and queue.due_at() is None


def test_in_her_pause_a_move_is_said_at_once():
    queue = typing_queue()
    key(queue, 0.0, "Ana 2 Unicorns.")
    said(queue)
    assert not queue.holds(other(CY_DREW), now=0.0 + PAUSE_S + 0.5)  # she has paused: said now, in turn
    queue.arrive(other(CY_DREW), now=PAUSE_S + 0.5)
    assert said(queue) == ["Cy drew a card."]


def test_what_concerns_her_breaks_in_and_the_rest_still_waits():
    queue = typing_queue()
    key(queue, 0.0, "Tally.")
    assert queue.take() is not None  # her reply being said
    assert queue.holds(other(BEN_DREW), now=0.2)
    assert not queue.holds(other(CY_DESTROYED), now=0.3)  # a card of hers taken: said at once
    queue.arrive(other(CY_DESTROYED), now=0.3)
    queue.sentence_played(0)
    queue.done()  # her reply heard to its end
    words = said(queue)
    assert any("Cy destroyed Ana's" in w for w in words)
    assert not any("Ben drew" in w for w in words)
    assert queue.held == [BEN_DREW]
    ben_turn = fact(Topic.TURN, "Ana's turn.", 0, player="Ana")
    win = fact(Topic.WIN, "Cy wins!", 2, player="Cy")
    save = SaveInstead("Ana", "Basic Unicorn (Red)", "Black Knight Unicorn", 0, True)
    question = About(Topic.QUESTION, (0,), "Ana", asked=save)
    for one in (ben_turn, win, question):
        assert concerns(Utterance(facts=(one,), other=True, segments=(Segment(one, (one,)),)), 0)
    assert not concerns(other(BEN_DREW), 0)


def test_a_move_being_said_when_she_types_goes_back_to_wait_for_her_pause_never_lost():
    queue = typing_queue()
    key(queue, 0.0, "Tally.")
    said(queue)
    queue.arrive(other(BEN_PLAYED), now=PAUSE_S + 1.0)  # in her pause: said now
    queue.take()  # being said, not yet heard
    key(queue, PAUSE_S + 1.1, "Pile.")  # she types again: cut, and her words first
    assert [u.text for u in queue.waiting] == ["Pile."]
    queue.done()
    assert BEN_PLAYED in queue.held
    assert queue.pause(now=PAUSE_S + 1.1 + PAUSE_S)
    assert any("Ben played Yay." in w for w in said(queue))


def test_her_reply_that_says_a_held_state_settles_it():
    queue = typing_queue()
    key(queue, 0.0, "Tally.")
    cy_turn = fact(Topic.TURN, "Cy's turn.", 2, player="Cy")
    assert queue.holds(
        Utterance(
            facts=(cy_turn,),
            other=True,
            segments=(Segment(cy_turn, (cy_turn,), cy_turn.states),),
        ),
        now=0.2,
    )
    queue.new_input(now=0.5)
    queue.add(
        Utterance(facts=(cy_turn,), segments=(Segment(Verbatim("Turn 5: Cy's turn."), (cy_turn,), cy_turn.states),))
    )
    assert queue.held == []


def test_at_her_pause_her_long_reply_gives_way_after_its_facts_the_rest_after_the_digest():
    queue = typing_queue()
    key(queue, 0.0, "Ben's Stable: Basic Unicorn (Blue), Yay, Rainbow Aura. Ben 1 Unicorn. Rainbow Aura: a card text.")
    queue.take()
    assert queue.holds(other(CY_DREW), now=0.5)
    assert not queue.sentence_began(0, at=0.05, seconds=1.5)  # ends at 1.55: no pause yet
    queue.sentence_played(0)
    assert queue.sentence_began(1, at=1.6, seconds=0.8)  # ends at 2.4, past her pause (2.0): gives way after it
    queue.sentence_played(1)
    queue.done()
    assert [u.text for u in queue.waiting] == ["Cy drew a card.", "Rainbow Aura: a card text."]


def test_what_concerns_her_still_waiting_at_her_next_key_goes_after_that_keys_reply_not_to_her_pause():
    queue = typing_queue()
    key(queue, 0.0, "Tally.")
    queue.take()  # her reply being said
    queue.arrive(other(CY_DESTROYED), now=0.3)  # a card of hers taken: waits for her reply's end
    queue.holds(other(BEN_DREW), now=0.4)
    queue.new_input(now=1.2)  # her next key before it was said
    queue.done()
    queue.add(own("Pile."))
    words = said(queue)
    assert words[0] == "Pile." and any("Cy destroyed Ana's" in w for w in words[1:])
    assert not any("Ben drew" in w for w in words) and queue.held == [BEN_DREW]


def test_the_tables_question_to_every_player_does_not_break_in_its_move_is_held_with_its_earcon():
    asked = fact(Topic.QUESTION, "Any Neigh for Ben's Yay?")
    segments = (
        Segment(Verbatim("Ben played Yay."), (BEN_PLAYED,)),
        Segment(Verbatim("Any Neigh for Ben's Yay?"), (asked,)),
    )
    queue = typing_queue()
    key(queue, 0.0, "Tally.")
    assert queue.holds(Utterance(tells=(BEN_PLAYED,), other=True, segments=segments), now=0.3)
    assert queue.pause(now=PAUSE_S)
    assert said(queue) == ["Tally.", "Ben played Yay."]  # the question, closed by then, not said


def test_a_move_that_concerned_her_is_never_held_to_her_pause_however_fast_she_types():
    queue = typing_queue()
    key(queue, 0.0, "Tally.")
    queue.take()
    save = SaveInstead("Ana", "Basic Unicorn (Red)", "Black Knight Unicorn", 0, True)
    asked = About(Topic.QUESTION, (0,), "Ana", asked=save)
    question = Segment(asked, (asked,))
    segments = (Segment(Verbatim("Cy destroyed Ana's Basic Unicorn (Red)."), (CY_DESTROYED,)), question)
    queue.arrive(Utterance(tells=(CY_DESTROYED,), other=True, segments=segments), now=0.3)
    heard = []
    for n in range(1, 6):  # a key every 1.2 s, each reply cut by the next before the move was said
        queue.new_input(now=1.2 * n)
        queue.done()
        queue.add(own(f"Reply {n}. It says more."))
        assert not queue.held
        utterance = queue.take()
        heard.append(utterance.text)  # her reply first at every key, however long the move waited
        if n == 4:  # a first sentence that ends before her next key: the move breaks in after it
            assert queue.sentence_began(0, at=1.2 * n, seconds=0.5)
            queue.sentence_played(0)
            queue.done()
            heard.append(queue.take().text)
            queue.sentence_played(0)
    assert heard[:4] == ["Reply 1. It says more.", "Reply 2. It says more.", "Reply 3. It says more.",
                         "Reply 4. It says more."]  # fmt: skip
    assert "Cy destroyed Ana's" in heard[4] and heard[5] == "Reply 5. It says more."


def test_her_reply_is_begun_before_her_next_key_when_what_concerns_her_has_waited_however_long_it_is():
    """As in the benchmark's steady game (issue 107): a move that concerns her (there Dee's turn's end, Ana's turn
    next) waits while Ana types a key every 1.2 s, each reply's first sentence longer than that; once it had waited,
    it went before a reply of hers, and when it lasted longer than the gap to her next key (a long sentence, or a
    slow render), that reply was passed by, never heard (there "Turn 6: Ben's turn.", her `end turn`). Her own words
    always first: every reply begins within `LATE_S` of her key, and the move is still heard, in full, after her
    reply's first sentence once one leaves room."""
    from assistant.core.speech.queue import LATE_S
    from tests.core.clocked_voice import ClockedVoice

    voice = ClockedVoice(0.34)
    voice.queue.at_pause, voice.queue.listener = True, 0
    taken = move("Dee destroyed Ana's Basic Unicorn (Red).", 3,
                 MoveKind.DESTROY, "Basic Unicorn (Red)", 7, owner=0)  # fmt: skip
    keys = [1.2 * n for n in range(10)]
    replies = [f"Reply {n}: Ana's Stable holds three cards. Basic Unicorn and Neigh." for n in range(9)]
    replies.append("Done.")  # her last key: a short reply, then she stops
    for n, moment in enumerate(keys):
        voice.key(moment, Utterance(replies[n]))
        if n == 0:
            voice.tap(0.3, other(taken))
    voice.run_until(60.0)
    for n, moment in enumerate(keys):
        began = [at for at, sentence in voice.heard if sentence.startswith(replies[n].split(":")[0])]
        assert began and began[0] - moment <= LATE_S, (n, voice.heard)  # begun at once: never passed by
    dee = [n for n, (at, sentence) in enumerate(voice.heard) if sentence.startswith("Dee destroyed")]
    assert dee, voice.heard
    at, sentence = voice.heard[dee[-1]]
    ends = voice.heard[dee[-1] + 1][0] if dee[-1] + 1 < len(voice.heard) else 60.0
    assert ends - at >= 0.34 * len(sentence.split()) - 1e-6, voice.heard  # heard to its end


def test_a_digest_of_two_turns_says_each_turn_apart_in_the_order_played():
    """What the benchmark's one voice said at her pause: "Dee ended the turn and ended the turn" (two turns' ends
    merged into one sentence, gathered before the turn): each turn's moves said in order, a turn's end closing its
    player's sentence, whose turn it is now after the end that led to it."""

    def in_turn(text: str, seat: int, kind: MoveKind, at: int, turn: int) -> About:
        return replace(move(text, seat, kind, at=at), turn=turn)

    def turn_of(seat: int) -> About:
        name = ("Ana", "Ben", "Cy", "Dee")[seat]
        return fact(Topic.TURN, f"{name}'s turn.", seat, player=name)

    queue = typing_queue()
    key(queue, 0.0, "Ana 2 Unicorns.")
    held = [
        other(in_turn("Dee ended the turn.", 3, MoveKind.END, 10, 4), turn_of(1)),
        other(in_turn("Ben drew a card.", 1, MoveKind.DRAW, 11, 5)),
        other(in_turn("Ben drew a card.", 1, MoveKind.DRAW, 12, 5)),
        other(in_turn("Ben ended the turn.", 1, MoveKind.END, 13, 5), turn_of(3)),
        other(in_turn("Dee drew a card.", 3, MoveKind.DRAW, 14, 6)),
        other(in_turn("Dee ended the turn.", 3, MoveKind.END, 15, 6), turn_of(1)),
    ]
    for n, utterance in enumerate(held):
        key(queue, 0.5 + n, "Pile: empty.")
        assert queue.holds(utterance, now=0.6 + n)
    said(queue)
    assert queue.pause(now=5.5 + PAUSE_S)
    (digest,) = said(queue)
    assert digest == (
        "Dee ended the turn. Ben drew 2 cards and ended the turn. Dee drew a card and ended the turn. Ben's turn."
    ), digest


def test_a_digest_says_the_turns_in_the_order_played_though_a_move_came_back_late():
    """A move cut and held again, or folded first, comes back after newer ones: the digest says the moves by their
    place in the log (the benchmark's said Cy's turn before Ben's turn before it)."""

    def in_turn(text: str, seat: int, kind: MoveKind, at: int, turn: int) -> About:
        return replace(move(text, seat, kind, at=at), turn=turn)

    queue = typing_queue()
    key(queue, 0.0, "Ana 2 Unicorns.")
    late = [
        in_turn("Cy drew a card.", 2, MoveKind.DRAW, 6, 3),
        in_turn("Ben drew a card.", 1, MoveKind.DRAW, 3, 2),
        in_turn("Ben ended the turn.", 1, MoveKind.END, 4, 2),
    ]
    for n, one in enumerate(late):
        key(queue, 0.5 + n, "Pile: empty.")
        assert queue.holds(other(one), now=0.6 + n)
    said(queue)
    assert queue.pause(now=2.5 + PAUSE_S)
    assert said(queue) == ["Ben drew a card and ended the turn. Cy drew a card."]

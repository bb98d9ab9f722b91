"""The speech queue's rules (assistant/core/speech/queue.py), as plain data: no threads, no audio."""

import dataclasses
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.core.game.about import About, NewPhone, Topic, WhichCard
from assistant.core.game.segment import ChainLink, Segment, Verbatim
from assistant.core.language.reply import Source
from assistant.core.speech.queue import Cut, SpeechQueue, cause_first, interrupting, scale, split_sentences
from assistant.core.speech.utterance import Priority, Utterance
from assistant.core.text import SentenceNames
from assistant.core.words.audience import Audience
from assistant.core.words.kinds import is_decisive
from assistant.core.words.worded import segment_words
from tests.facts import fact, move, said

IMPORTANT, MESSAGE, ECHO, HINT = Priority.IMPORTANT, Priority.MESSAGE, Priority.ECHO, Priority.HINT


def turn(text: str, seat: int = 1, player: str = "") -> About:
    """A turn; its words made from its player's name ("Cy's turn.", `words_for`)."""
    return fact(Topic.TURN, text, seat, player=player)


def count(text: str, *seats: int) -> About:
    return fact(Topic.COUNT, text, *seats)


def win(text: str, seat: int = 0) -> About:
    return fact(Topic.WIN, text, seat)


def queue_with(*items, speaking: str | None = None) -> SpeechQueue:
    queue = SpeechQueue()
    if speaking is not None:
        queue.add(Utterance(speaking))
        queue.take()
    for text, priority in items:
        queue.add(Utterance(text, priority))
    return queue


def texts(queue: SpeechQueue) -> list[str]:
    return [u.text for u in queue.waiting]


def test_messages_are_said_in_order():
    queue = queue_with(("one", MESSAGE), ("two", MESSAGE), ("three", MESSAGE))
    said = []
    while (utterance := queue.take()) is not None:
        said.append(utterance.text)
        queue.done()
    assert said == ["one", "two", "three"]
    assert not queue.busy


def test_important_never_jumps_ahead_order_is_kept():
    queue = queue_with(("m1", MESSAGE), ("i1", IMPORTANT), ("m2", MESSAGE), ("i2", IMPORTANT))
    assert texts(queue) == ["m1", "i1", "m2", "i2"]


def test_the_next_key_cuts_what_is_said_and_drops_what_waits_so_its_own_reply_comes_first():
    queue = SpeechQueue()
    queue.add(Utterance("Ana drew a card. Action phase."))
    queue.take()
    queue.add(Utterance("Ana played Basic Unicorn (Blue). Any Neigh? Say neigh and a name, or resolve."))
    queue.add(Utterance("No card called x. Type help.", IMPORTANT))
    queue.add(Utterance("c", ECHO))
    assert queue.new_input() is Cut.NOW
    assert texts(queue) == []  # nothing of the keys before is said before the new key's reply
    queue.done()
    queue.add(Utterance("Ana 2 Unicorns."))
    assert texts(queue) == ["Ana 2 Unicorns."]  # (none of them carried a decisive fact: nothing folded)


def test_new_input_cuts_even_an_important_utterance_at_once():
    queue = SpeechQueue()
    queue.add(Utterance("Turn 2: Ben's turn. Ben draws a card.", IMPORTANT))
    queue.take()
    assert queue.new_input() is Cut.NOW  # the new key is answered now; a decisive fact would be said again
    queue.done()
    assert queue.new_input() is Cut.NONE
    queue.add(Utterance("again", review=True))
    queue.take()
    assert queue.new_input() is Cut.NOW  # a repeat the player asked for is not a reply: the next key cuts it


def test_an_earcon_alone_is_queued_and_stays_in_order():
    queue = queue_with(("one", MESSAGE))
    assert queue.add(Utterance("", IMPORTANT, sound="error"))
    queue.add(Utterance("two"))
    assert [(u.text, u.sound) for u in queue.waiting] == [("one", ""), ("", "error"), ("two", "")]
    assert [u.text for u in queue.said.utterances] == ["one", "two"]  # a sound alone is not something to repeat


def test_echo_latest_wins():
    queue = queue_with(("a", ECHO), ("m", MESSAGE), ("b", ECHO), ("c", ECHO), speaking="card")
    assert texts(queue) == ["m", "c"]


def test_hint_dropped_when_busy_and_kept_when_idle():
    idle = SpeechQueue()
    assert idle.add(Utterance("code seen", HINT))
    busy = queue_with(speaking="a card")
    assert not busy.add(Utterance("code seen", HINT))
    waiting = queue_with(("message", MESSAGE))
    assert not waiting.add(Utterance("code seen", HINT))
    assert texts(waiting) == ["message"]


def interrupt(queue: SpeechQueue, utterance: Utterance) -> Cut:
    """Stop, here is the next thing, as the speech service does it (`SpeechService.interrupt`): `new_input()`, then
    queue `utterance`; what happens to the one being said."""
    cut = queue.new_input()
    queue.add(interrupting(utterance))
    return cut


def test_interrupt_drops_the_queue_and_cuts_the_current_message():
    queue = queue_with(("m1. More.", MESSAGE), ("error", IMPORTANT), ("e", ECHO), speaking="old card")
    cut = interrupt(queue, Utterance("next card"))
    assert cut is Cut.NOW
    assert texts(queue) == ["next card"]


def test_interrupt_cuts_an_important_utterance_at_once():
    queue = SpeechQueue()
    queue.add(Utterance("your turn", IMPORTANT))
    queue.take()
    assert interrupt(queue, Utterance("next card")) is Cut.NOW
    assert texts(queue) == ["next card"]


def test_an_interrupting_hint_is_said():
    queue = queue_with(speaking="old")
    interrupt(queue, Utterance("code seen", HINT))
    assert texts(queue) == ["code seen"]


def test_stop_drops_everything_even_important():
    queue = queue_with(("error", IMPORTANT), ("m", MESSAGE), speaking="card")
    assert queue.stop()
    assert texts(queue) == []
    assert not queue_with().stop()  # nothing being said: nothing to cut


def test_history_holds_what_was_given_not_echoes_and_not_repeats():
    queue = queue_with(("one", MESSAGE), ("f", ECHO), ("two", MESSAGE), ("stale", MESSAGE))
    queue.new_input()  # "stale" is never said, but the player can still find it in the history
    while queue.take() is not None:
        queue.done()
    assert [u.text for u in queue.said.utterances] == ["one", "two", "stale"]
    queue.said.utterances.pop()
    again = queue.said.repeat()
    assert again.text == "two" and again.review
    queue.add(again)
    queue.take()
    assert [u.text for u in queue.said.utterances] == ["one", "two"]


def test_stepping_back_and_forward_through_the_history():
    queue = SpeechQueue()
    for text in ("one", "two", "three"):
        queue.add(Utterance(text))
        queue.take()
        queue.done()
    assert queue.said.forward() is None  # already at the newest
    assert queue.said.back().text == "two"
    assert queue.said.back().text == "one"
    assert queue.said.back() is None  # the oldest
    assert queue.said.forward().text == "two"
    assert queue.said.forward().text == "three"
    assert queue.said.forward() is None
    assert queue.said.repeat().text == "three"


def test_nothing_said_yet_gives_nothing_to_repeat_or_review():
    queue = SpeechQueue()
    assert queue.said.repeat() is None and queue.said.back() is None and queue.said.forward() is None


def test_muted_queues_nothing_but_remembers():
    queue = queue_with(("waiting", MESSAGE))
    queue.set_muted(True)
    assert texts(queue) == []
    assert not queue.add(Utterance("error", IMPORTANT))
    assert [u.text for u in queue.said.utterances] == ["waiting", "error"]  # given, though never said
    queue.set_muted(False)
    assert queue.add(Utterance("back again"))


def test_history_is_bounded_and_keeps_the_private_flag():
    queue = SpeechQueue(history_limit=3)
    for n in range(5):
        queue.add(Utterance(f"card {n}", private=n == 4))
        queue.take()
        queue.done()
    assert [u.text for u in queue.said.utterances] == ["card 2", "card 3", "card 4"]
    assert queue.said.repeat().private


def test_empty_text_is_not_queued():
    assert not SpeechQueue().add(Utterance("   "))


@given(st.lists(st.tuples(st.sampled_from(list(Priority)), st.sampled_from(["add", "new input", "take"])),
                max_size=40))  # fmt: skip
def test_any_mix_keeps_the_order_and_says_every_reply_given_since_the_last_key(steps):
    queue = SpeechQueue()
    since_key, said = [], []
    for n, (priority, step) in enumerate(steps):
        utterance = Utterance(f"u{n}. More words.", priority)
        if step == "new input":
            queue.new_input()
            since_key = []
        if step == "take" and (taken := queue.take()) is not None:
            said.append(taken)
            queue.done()
        if queue.add(utterance) and priority in (IMPORTANT, MESSAGE):
            since_key.append(f"u{n}. More words.")
    while (taken := queue.take()) is not None:
        said.append(taken)
        queue.done()
    numbers = [int(u.text.split(".")[0][1:]) for u in said]
    assert numbers == sorted(numbers)  # nothing is ever heard after something that followed it
    heard = [u.text for u in said]
    assert all(text in heard for text in since_key)  # what the last key brought is all said


def test_split_sentences():
    assert split_sentences("Rainbow Aura, Upgrade card. If this card is in your Stable! Yes? ") == [
        "Rainbow Aura, Upgrade card.", "If this card is in your Stable!", "Yes?"]  # fmt: skip
    assert split_sentences("Turn 5: Ben's turn. Ben draws.") == ["Turn 5: Ben's turn.", "Ben draws."]
    assert split_sentences("") == []
    long = "word, " * 100
    pieces = split_sentences(long, longest=50)
    assert all(len(p) <= 50 for p in pieces)
    assert " ".join(pieces).split() == long.split()


def test_scale_maps_0_to_100_onto_an_engine_range_with_its_default_in_the_middle():
    assert scale(0, 80, 175, 450) == 80
    assert scale(50, 80, 175, 450) == 175
    assert scale(100, 80, 175, 450) == 450
    assert scale(150, -100, 0, 100) == 100


# A decisive fact (the win, a turn, a count an effect changed, a warning) is never lost to the next key: folded
# into the next reply, once; and nothing the new reply settles is said.


def _saying(utterance: Utterance) -> SpeechQueue:
    queue = SpeechQueue()
    queue.add(utterance)
    queue.take()
    return queue


def test_a_cut_decisive_fact_is_folded_into_the_next_reply_not_replayed_before_it_and_never_said_twice():
    ben = turn("Ben's turn.")
    queue = _saying(Utterance("Turn 10: Ben's turn. Ben draws a card: say draw.", IMPORTANT, facts=(ben,)))
    assert queue.new_input() is Cut.NOW
    queue.done()
    queue.add(Utterance("Ben drew a card. Action phase."))
    assert texts(queue) == ["Ben's turn. Ben drew a card. Action phase."]  # one reply, the fact first
    folded = queue.waiting[0]
    assert folded.folded == (ben,) and folded.priority is IMPORTANT
    queue.take()  # the folded reply is cut too, before its fact was heard: folded once more
    assert queue.new_input() is Cut.NOW
    queue.done()
    queue.add(Utterance("Ben played Basic Unicorn (Red). Neigh?"))
    assert texts(queue) == ["Ben's turn. Ben played Basic Unicorn (Red). Neigh?"]
    queue.take()  # cut again before it was heard: a state (whose turn it is) is folded until heard or settled
    queue.new_input()
    queue.done()
    queue.add(Utterance("Cy played Neigh."))
    assert texts(queue) == ["Ben's turn. Cy played Neigh."]
    queue.take()  # heard at last: never said again
    queue.sentence_played(0)
    queue.new_input()
    queue.done()
    queue.add(Utterance("Turn 11: Cy's turn."))
    assert texts(queue) == ["Turn 11: Cy's turn."]
    queue = _saying(Utterance(priority=IMPORTANT, folded=(ben,), segments=(Segment(Verbatim("Ben drew a card.")),)))
    queue.sentence_played(0)  # the folded fact heard: never said again
    queue.new_input()
    queue.add(Utterance("Ben played Neigh."))
    assert texts(queue) == ["Ben played Neigh."]


def test_a_fact_cut_in_its_last_words_is_not_said_again_one_cut_before_them_is():
    won = "Ana wins!"
    for cut_at, folded in ((1.40, False), (0.60, True)):
        queue = _saying(Utterance(f"{won} The game is over.", IMPORTANT, facts=(win(won),)))
        queue.sentence_began(0, at=0.0, seconds=1.6)
        queue.new_input(now=cut_at)
        queue.done()
        queue.add(Utterance("Ana's Stable 3 Unicorns."))
        assert (texts(queue)[0].startswith(won)) is folded, cut_at


def test_a_fact_played_to_its_end_is_not_folded_when_the_rest_is_cut():
    said = "Ana's turn: may use the Alpaca Herd Bonus."
    text = f"Turn 5, {said} Alpaca Herd Bonus: Your Alpacas cannot be destroyed. It may be used with 3 or more Alpacas."
    queue = _saying(Utterance(text, IMPORTANT, facts=(turn(said, 0, "Ana"),)))
    queue.sentence_played(0)
    queue.new_input()
    queue.add(Utterance("Ana drew a card."))
    assert texts(queue) == ["Ana drew a card."]


def test_a_waiting_reply_is_dropped_but_its_decisive_facts_folded_each_move_before_the_state_it_led_to():
    destroyed = move("Ben destroyed X.", 1, "destroy", "X")
    queue = _saying(Utterance("Ben destroyed Rainbow Unicorn. More words.", facts=(destroyed,)))
    facts = (move("Cy sacrificed Y.", 2, "sacrifice", "Y"), count("Cy 3 Unicorns.", 2))
    queue.add(Utterance("waiting words", MESSAGE, facts=facts))
    queue.new_input()
    queue.add(Utterance("Ana drew a card."))
    assert texts(queue) == ["Ben destroyed X. Cy sacrificed Y. Cy 3 Unicorns. Ana drew a card."]  # cause first


def test_in_a_fold_the_other_facts_and_other_hands_moves_are_one_rank_said_in_the_order_recorded():
    """`About.rank`: after a win and a turn, a fact and a move are said in the order they were recorded, whichever
    came first (a move ranked after the facts would say "Cy 3 Unicorns." before the sacrifice that led to it; one
    ranked before them, the sacrifice before the count it followed)."""
    for facts in (
        (move("Cy sacrificed Y.", 2, "sacrifice", "Y"), count("Cy 3 Unicorns.", 2)),
        (count("Ben 2 Unicorns.", 1), move("Cy sacrificed Y.", 2, "sacrifice", "Y")),
    ):
        queue = _saying(
            Utterance(
                "Ben destroyed Rainbow Unicorn. More words.", facts=(move("Ben destroyed X.", 1, "destroy", "X"),)
            )
        )
        queue.add(Utterance("waiting words", MESSAGE, facts=(*facts, turn("Dee's turn.", 3))))
        queue.new_input()
        queue.add(Utterance("Ana drew a card."))
        words = " ".join(said(fact) for fact in facts)
        assert texts(queue) == [f"Dee's turn. Ben destroyed X. {words} Ana drew a card."]


def test_an_answered_question_is_never_said_after_its_answer():
    question = "Which card is basic alpaca? 2 matches: 1 Basic Alpaca, 2 Basic Alpaca. Type a number to choose."
    asked = About(Topic.QUESTION, asked=WhichCard("Ana", "basic alpaca", ("Basic Alpaca", "Basic Alpaca")))
    assert said(asked) == question
    queue = _saying(Utterance(question, IMPORTANT, facts=(asked,)))
    queue.add(Utterance(question, IMPORTANT, facts=(asked,)))  # asked twice: both wait or are being said
    assert queue.new_input(again=False) is Cut.NOW  # the answer
    queue.done()
    queue.add(Utterance("Dee played Basic Alpaca. Instant?"))
    assert texts(queue) == ["Dee played Basic Alpaca. Instant?"]


def test_a_superseded_count_and_a_turn_that_has_passed_are_not_said():
    queue = _saying(Utterance("Turn 10: Ben's turn. Ben draws.", IMPORTANT, facts=(turn("Ben's turn."),)))
    queue.new_input()
    queue.add(Utterance("Turn 11: Cy's turn. Cy draws.", IMPORTANT, facts=(turn("Cy's turn.", 2),)))
    assert texts(queue) == ["Turn 11: Cy's turn. Cy draws."]  # Ben's turn has passed
    sacrificed = move("Ana sacrificed Basic Unicorn (Red).", 0, "sacrifice", "Basic Unicorn (Red)")
    queue = _saying(Utterance("Ana sacrificed Basic Unicorn (Red). Ana 1 Unicorn.",
                              facts=(sacrificed, count("Ana 1 Unicorn.", 0))))  # fmt: skip
    queue.new_input()
    queue.add(Utterance("Ana has 2 Unicorns. Basic Unicorn (Blue) entered.", facts=(count("Ana has 2 Unicorns.", 0),)))
    assert texts(queue) == ["Ana sacrificed Basic Unicorn (Red). Ana has 2 Unicorns. Basic Unicorn (Blue) entered."]


def test_after_an_undo_only_the_state_as_it_now_is_is_heard():
    won = "Ana wins!"
    queue = _saying(Utterance(f"{won} The game is over.", IMPORTANT, facts=(win(won),)))
    queue.add(Utterance("Ana 3 Unicorns.", facts=(count("Ana 3 Unicorns.", 0),)))
    queue.new_input(again=False)  # the undo takes it back
    queue.add(Utterance("Undone: Basic Unicorn (Yellow) is back on the pile. Ana has 2 Unicorns.", IMPORTANT))
    assert texts(queue) == ["Undone: Basic Unicorn (Yellow) is back on the pile. Ana has 2 Unicorns."]


def _arrived(utterance: Utterance) -> SpeechQueue:
    queue = SpeechQueue()
    queue.arrive(utterance)
    queue.take()
    return queue


def test_replies_from_other_hands_follow_in_order_the_older_shrinking_to_their_facts_and_moves():
    queue = _arrived(Utterance("Ben played Basic Unicorn (Red). Neigh? Say neigh and a name."))
    cy = move("Cy played Neigh.", 2, "neigh", "Neigh")
    assert queue.arrive(Utterance("Cy played Neigh. Neigh?", tells=(cy,))) is Cut.AFTER_SENTENCE  # ends "Ben ..."
    assert texts(queue) == ["Cy played Neigh. Neigh?"]
    dee = Utterance("Dee: Ginormous Unicorn. Dee 2 Unicorns.", facts=(count("Dee 2 Unicorns.", 3),))
    assert queue.arrive(dee) is Cut.AFTER_SENTENCE
    assert texts(queue) == ["Cy played Neigh. Dee: Ginormous Unicorn. Dee 2 Unicorns."]  # Cy's move kept, short
    queue.arrive(Utterance("Turn 4: Ana's turn.", IMPORTANT, facts=(turn("Ana's turn.", 0),)))
    # never more than one behind; each move before what came after it, in the order recorded
    assert texts(queue) == ["Cy played Neigh. Dee 2 Unicorns. Turn 4: Ana's turn."]
    queue.done()
    queue.take()  # "Cy played Neigh." being said: the next move lets it end, and Ana's turn leads the next
    assert queue.arrive(Utterance("Ana drew a card.")) is Cut.AFTER_SENTENCE
    assert texts(queue) == ["Ana's turn. Dee 2 Unicorns. Ana drew a card."]


def test_another_hands_move_heard_is_never_said_again_and_what_only_explains_it_is_cut_for_the_next():
    ben = move("Ben played Basic Unicorn (Red).", 1, "play", "Basic Unicorn (Red)", at=9)
    cy = Utterance("Cy played Neigh. Neigh?", tells=(move("Cy played Neigh.", 2, "neigh", "Neigh", at=10),))
    queue = _arrived(Utterance("Ben played Basic Unicorn (Red). Neigh? Say neigh and a name.", tells=(ben,)))
    assert queue.arrive(cy) is Cut.AFTER_SENTENCE  # Ben's move is being said: it ends, heard
    assert texts(queue) == ["Cy played Neigh. Neigh?"]  # never "Ben played Basic Unicorn (Red)." again
    duty = fact(Topic.DUTY, "Destroy a Unicorn.", 2)
    chain = "Destroy a Unicorn. Unicorn Poison is played: it takes effect, then goes to the discard pile."
    queue = _arrived(Utterance(chain, IMPORTANT, facts=(duty,)))
    queue.sentence_played(0)  # the duty heard; its explanation being said
    dee = Utterance("Dee drew a card.", tells=(move("Dee drew a card.", 3, "draw", at=11),))
    assert queue.arrive(dee) is Cut.NOW  # the next move is not kept waiting behind an explanation
    assert texts(queue) == ["Dee drew a card."]
    queue = _arrived(Utterance(chain, IMPORTANT, facts=(duty,)))  # the duty itself being said: it ends first
    assert queue.arrive(dee) is Cut.AFTER_SENTENCE


def test_a_phones_move_said_before_its_facts_is_heard_by_its_sentence_and_a_count_told_is_no_move():
    ended = move("Dee ended the turn.", 3, "end", at=22)
    reply = Utterance("Dee, from a phone: ended the turn. Turn 5: Ana's turn. Ana draws a card: say draw.", IMPORTANT,
                      facts=(turn("Ana's turn.", 0),), tells=(ended,))  # fmt: skip
    ben = Utterance("Ben drew a card.", tells=(move("Ben drew a card.", 1, "draw", at=23),))
    queue = _arrived(reply)
    queue.sentence_played(0)  # her move heard; the turn being said, needed: it ends first
    assert queue.arrive(ben) is Cut.AFTER_SENTENCE
    assert texts(queue) == ["Ben drew a card."]  # never "Dee's turn ended." again
    queue = _arrived(reply)
    queue.sentence_played(1)  # the move and the turn heard; what to type only explains
    assert queue.arrive(ben) is Cut.NOW
    chain = Utterance(
        "Cy 1 Animal. May take a Baby Animal of that same variation out of the Nursery. Added to the chain, "
        "in place 2: Mother Goat.",
        IMPORTANT,
        facts=(
            count("Cy 1 Animal.", 2),
            fact(Topic.DUTY, "May take a Baby Animal of that same variation out of the Nursery.", 2),
        ),
        tells=(count("Cy 1 Animal.", 2),),  # a count it tells: no move, so no sentence of a move to wait for
    )
    queue = _arrived(chain)
    queue.sentence_played(1)  # both facts heard; the chain's explanation being said
    assert queue.arrive(ben) is Cut.NOW


def test_the_players_own_reply_is_never_cut_by_another_hands_move_but_a_win_is_said_at_its_next_sentence():
    pile = "Ben played Basic Unicorn (Red). Neigh? Say neigh and a name, or resolve."
    queue = _saying(Utterance(pile, IMPORTANT))  # her own `pile` reply keeps its question
    assert queue.arrive(Utterance("Cy drew a card.", tells=(move("Cy drew a card.", 2, "draw"),))) is Cut.NONE
    assert texts(queue) == ["Cy drew a card."]  # said after her own reply, whole
    queue = _saying(Utterance(pile, IMPORTANT))
    won = Utterance("Dee wins with 7 Unicorns! The game is over.", IMPORTANT, facts=(win("Dee wins!", 3),))
    assert queue.arrive(won) is Cut.AFTER_SENTENCE  # a win outranks everything
    assert texts(queue) == ["Dee wins with 7 Unicorns! The game is over."]


def test_other_hands_moves_that_pile_up_merge_into_one_short_sentence_a_player_in_the_order_recorded():
    queue = _saying(Utterance("Ana's Stable 2 Unicorns. Basic Unicorn (Blue), Basic Unicorn (Red)."))
    ben_drew = move("Ben drew a card.", 1, "draw")
    ben_played = move("Ben played Rainbow Aura.", 1, "play", "Rainbow Aura")
    cy_neighed = move("Cy played Neigh.", 2, "neigh", "Neigh")
    queue.arrive(Utterance("Ben drew a card. Action phase.", tells=(ben_drew,)))
    queue.arrive(Utterance("Ben played Rainbow Aura. Neigh?", tells=(ben_played,)))
    queue.arrive(Utterance("Cy played Neigh. Neigh?", tells=(cy_neighed,)))
    queue.arrive(Utterance("Ben discarded a card.", tells=(move("Ben discarded a card.", 1, "discard"),)))
    assert texts(queue) == ["Ben drew a card and played Rainbow Aura. Cy played Neigh. Ben discarded a card."]
    merged = queue.waiting[0].folded[0]
    assert merged.parts == (ben_drew, ben_played) and is_decisive(merged)  # a play to the pile: never dropped
    assert merged.settled_by([ben_drew, ben_played]) and not merged.settled_by([ben_drew])


def test_a_players_name_in_any_case_or_of_several_words_folds_by_its_seat_not_its_words():
    for name in ("ana", "Ana María de la Cruz", "ÉLODIE"):
        stale = Utterance(f"{name} has 2 Unicorns. More.", IMPORTANT, facts=(count(f"{name} 2 Unicorns.", 0),))
        queue = _saying(stale)
        queue.new_input()
        queue.add(Utterance(f"{name} has 3 Unicorns.", facts=(count(f"{name} 3 Unicorns.", 0),)))
        assert texts(queue) == [f"{name} has 3 Unicorns."], name  # the stale count settled: never said first
        queue = _saying(Utterance(f"Turn 2: {name}'s turn. More.", IMPORTANT, facts=(turn(f"{name}'s turn.", 0),)))
        queue.new_input()
        queue.add(Utterance("Ben drew a card."))
        assert texts(queue) == [f"{name}'s turn. Ben drew a card."], name  # a three-word name has its topic


def test_a_reply_from_another_hand_does_not_cut_a_last_sentence():
    queue = _saying(Utterance("Ben drew a card."))
    assert queue.arrive(Utterance("Cy played Neigh.")) is Cut.NONE
    assert texts(queue) == ["Cy played Neigh."]


def test_split_sentences_keeps_card_names_whole():
    from assistant.core.text import SentenceNames

    names = SentenceNames.of(["Don't Kid Yourself!", "Fuck. Marry. Kill", "Basic Unicorn (Red)", "The G.O.A.T."])
    assert names.cards == {"Don't Kid Yourself!", "Fuck. Marry. Kill", "The G.O.A.T."}  # (only those holding an end)

    def split(text: str) -> list[str]:
        return split_sentences(text, names=names)

    assert split("Dee played Don't Kid Yourself! Neigh?") == ["Dee played Don't Kid Yourself! Neigh?"]
    assert split("Dee's Don't Kid Yourself! was Neighed. Ana 2 Unicorns.") == [
        "Dee's Don't Kid Yourself! was Neighed.", "Ana 2 Unicorns."]  # fmt: skip
    assert split("Ana played Fuck. Marry. Kill. Neigh?") == ["Ana played Fuck. Marry. Kill.", "Neigh?"]
    assert split("Ana played The G.O.A.T. into her Stable.") == ["Ana played The G.O.A.T. into her Stable."]
    # Without the names, the same words split at each end: what the names are comes with the words.
    assert split_sentences("Dee played Don't Kid Yourself! Neigh?") == ["Dee played Don't Kid Yourself!", "Neigh?"]
    utterance = Utterance("Dee played Don't Kid Yourself! Neigh?", names=names)
    assert utterance.split() == ["Dee played Don't Kid Yourself! Neigh?"]


# The rules at table pace, on an injected clock: a worker that says each word in `WORD_S` seconds, keys every
# 1.2 s whatever is being said; each key's own reply (or its folded form) must begin at the key.

WORD_S = 0.2


class _Table:
    """The queue's worker on an injected clock: each sentence begun, when, and whether it played to its end."""

    def __init__(self) -> None:
        self.queue = SpeechQueue()
        self.schedule: list[tuple[float, float, str]] = []
        """The sentences of the utterance being said: start, end, text."""
        self.heard: list[list] = []
        """Each sentence begun: [start, text, whole, the key whose reply it is (its index)]."""
        self.owner = -1
        self.replies: list[tuple[float, Utterance]] = []
        """Each key's moment and the utterance its reply became (with what was folded into it)."""
        self.owners: dict[int, int] = {}
        """Which key each utterance queued belongs to (its reply, and a catch-up said after it), by `id`."""

    def _start(self, now: float) -> bool:
        utterance = self.queue.take()
        if utterance is None:
            return False
        self.owner = self.owners[id(utterance)]
        self.schedule = []
        for sentence in split_sentences(utterance.text):
            end = now + WORD_S * len(sentence.split())
            self.schedule.append((now, end, sentence))
            now = end
        return True

    def run_until(self, moment: float, now: float = 0.0) -> None:
        """Play up to `moment`: each sentence begun is noted (and told to the queue), each ended is played."""
        while True:
            if self.queue.current is None:
                if not self._start(max(now, self.schedule[-1][1] if self.schedule else now)):
                    return
            for index, (start, end, text) in enumerate(self.schedule):
                if start >= moment:
                    return
                if not any(h[0] == start and h[1] == text for h in self.heard):
                    self.heard.append([start, text, True, self.owner])
                    self.queue.sentence_began(index, start, end - start)
                if end >= moment:  # (a key at the very moment a sentence ends comes first)
                    return
                self.queue.sentence_played(index)
            now = self.schedule[-1][1]
            self.queue.done()

    def key(self, moment: float, reply: Utterance, answers: bool = False, own: bool = True) -> None:
        self.run_until(moment)
        if own:
            cut = self.queue.new_input(again=not answers, now=moment)
            self.queue.add(reply)
        else:
            cut = self.queue.arrive(reply)
        if cut is Cut.NOW:
            for h in self.heard:
                if h[0] < moment and any(h[1] == text and end > moment for _, end, text in self.schedule):
                    h[2] = False  # the one being said, cut off
            self.schedule = [(s, min(e, moment), t) for s, e, t in self.schedule if s < moment]
            self.queue.done()
        elif cut is Cut.AFTER_SENTENCE:  # (one taken but not begun yet says its first sentence, as a backend does)
            self.schedule = [(s, e, t) for s, e, t in self.schedule if s < moment] or self.schedule[:1]
        new = [u for u in self.queue.waiting if id(u) not in self.owners]
        self.owners.update((id(u), len(self.replies)) for u in new)
        mine = [u for u in new if not (own and u.other)]  # (not the catch-up after the player's own reply)
        self.replies.append((moment, mine[-1] if mine else reply))

    def own_reply_waits(self) -> list[float]:
        """For each key, the seconds from it to the first sentence of its own reply (or its folded form)."""
        waits = []
        for moment, utterance in self.replies:
            first = split_sentences(utterance.text)[0]
            starts = [h[0] for h in self.heard if h[0] >= moment and h[1] == first]
            waits.append(min(starts, default=moment + 99) - moment)
        return waits


def test_at_table_pace_each_key_is_answered_by_its_own_reply_at_once_and_every_decisive_fact_is_heard():
    ben, won = turn("Ben's turn."), win("Ana wins!")
    destroyed = move("Ben destroyed Basic Unicorn (Red).", 1, "destroy", "Basic Unicorn (Red)")
    counted = (destroyed, count("Ana 1 Unicorn.", 0))
    replies = [
        Utterance("Ana drew Basic Unicorn (Red). Action phase. Say play and a card."),
        Utterance("Ana played Basic Unicorn (Blue). Any Neigh? Say neigh and a name."),
        Utterance("Ana has 2 Unicorns. Basic Unicorn (Blue) entered her Stable."),
        Utterance(f"Turn 2: {said(ben)} Ben draws a card: say draw.", IMPORTANT, facts=(ben,)),
        Utterance("Ben drew a card. Action phase."),
        Utterance(f"{said(destroyed)} Ana 1 Unicorn. It went to the discard pile.", IMPORTANT, facts=counted),
        Utterance("Ben played Basic Unicorn (Red). Any Neigh?"),
        Utterance(f"{said(won)} Basic Unicorn (Yellow) entered her Stable. The game is over.", IMPORTANT, facts=(won,)),
        Utterance("Ana's Stable 3 Unicorns. Basic Unicorn (Blue), Basic Unicorn (Red), Basic Unicorn (Yellow)."),
    ]
    table = _Table()
    for n, reply in enumerate(replies):
        table.key(1.2 * n, reply)
    table.run_until(1000.0)
    assert table.own_reply_waits() == [0.0] * len(replies)  # each key's own reply (or its folded form) at once
    whole = [text for _, text, played, _ in table.heard if played]
    assert any(said(ben) in text for text in whole) and any(said(won) in text for text in whole)
    assert all(any(said(fact) in text for text in whole) for fact in counted)
    starts = [h[0] for h in table.heard]
    assert starts == sorted(starts)  # one thing at a time, in order
    # Nothing of a key before the last one is heard after a later key: the reply to the key before last never plays.
    for n in range(len(table.replies) - 1):
        assert not [h for h in table.heard if h[3] == n and h[0] >= table.replies[n + 1][0]]
    assert ["Ana 1 Unicorn.", True, 6] in [h[1:] for h in table.heard]  # cut, then folded into the next key's reply


def test_a_burst_from_other_hands_is_said_in_order_never_more_than_one_reply_behind():
    table = _Table()
    table.key(0.0, Utterance("Ana played Basic Unicorn (Blue). Neigh? Say neigh and a name, or resolve."))
    moves = [
        Utterance("Ben played Neigh.", tells=(move("Ben played Neigh.", 1, "neigh", "Neigh"),)),
        Utterance("Cy played Neigh. Neigh?", tells=(move("Cy played Neigh.", 2, "neigh", "Neigh"),)),
        Utterance(
            "Dee played Super Neigh. Ben's Neigh is stopped.",
            IMPORTANT,
            tells=(move("Dee played Super Neigh.", 3, "neigh", "Super Neigh"),),
        ),
        Utterance("Ana 1 Unicorn. The chain is resolved.", IMPORTANT, facts=(count("Ana 1 Unicorn.", 0),)),
    ]
    for n, arrived in enumerate(moves, start=1):
        table.key(0.3 * n, arrived, own=False)
        assert len(table.queue.waiting) <= 1  # never more than one reply behind
    table.run_until(1000.0)
    assert [h[1] for h in table.heard] == [
        "Ana played Basic Unicorn (Blue).",  # her own reply is never cut by another hand's move: whole
        "Neigh?",
        "Say neigh and a name, or resolve.",
        "Ben played Neigh.",  # every move heard, in the order recorded, each in a short sentence
        "Cy played Neigh.",
        "Dee played Super Neigh.",  # (what followed from it is on the screen)
        "Ana 1 Unicorn.",
        "The chain is resolved.",  # the newest in full
    ]
    assert all(whole for _, _, whole, _ in table.heard)


def test_a_folded_fact_not_yet_begun_is_carried_on_one_begun_is_not():
    queue = _saying(Utterance("Turn 4: Ana's turn.", IMPORTANT, facts=(turn("Ana's turn.", 0),)))
    queue.new_input()  # cut before anything was heard
    queue.done()
    queue.add(Utterance("Ana drew a card."))
    queue.take()
    queue.arrive(Utterance("Cy 2 Unicorns.", facts=(count("Cy 2 Unicorns.", 2),)))  # "Ana's turn." said: it ends
    assert texts(queue) == ["Cy 2 Unicorns."]
    queue = _saying(
        Utterance(
            "Ben's turn. Cy 3 Unicorns. Dee played Neigh.", folded=(turn("Ben's turn."), count("Cy 3 Unicorns.", 2))
        )
    )
    queue.arrive(Utterance("Dee 1 Unicorn."))  # the first folded fact is being said, the second not begun
    assert texts(queue) == ["Cy 3 Unicorns. Dee 1 Unicorn."]


def test_a_win_said_again_settles_its_taking_back_and_the_count_before_it():
    back = (fact(Topic.WIN, "Win taken back."), count("Ana has 3 Unicorns.", 0))
    queue = _saying(Utterance(f"{said(back[0])} {said(back[1])} Undone: more.", IMPORTANT, facts=back))
    queue.new_input()
    won = Utterance("Ana wins with 4 Unicorns! The game is over.", IMPORTANT, facts=(win("Ana wins!"),),
                    tells=(count("Ana 4 Unicorns.", 0),))  # fmt: skip
    queue.add(won)
    assert texts(queue) == ["Ana wins with 4 Unicorns! The game is over."]


def test_in_a_burst_a_fact_merged_again_and_again_before_it_began_is_still_said():
    queue = _saying(Utterance("Ana played Basic Unicorn (Blue). Neigh? Say neigh and a name."))
    queue.arrive(Utterance("Turn 3: Cy's turn.", IMPORTANT, facts=(turn("Cy's turn.", 2),)))
    queue.arrive(Utterance("Cy played Ginormous Unicorn. Cy 2 Unicorns.", facts=(count("Cy 2 Unicorns.", 2),)))
    for n in range(2):  # more moves arrive while Ana's reply is still said: the older shrink, merged each time
        queue.arrive(Utterance(f"Move {n}."))
    assert texts(queue) == ["Cy's turn. Cy 2 Unicorns. Move 1."]
    queue.done()
    queue.take()  # "Cy's turn." being said when the next move comes: it ends, and the count, never begun, goes on
    queue.arrive(Utterance("Move 2."))
    assert texts(queue) == ["Cy 2 Unicorns. Move 2."]


def test_a_turns_reminder_is_said_whole_once_and_only_the_turn_is_folded_again():
    whole = "Cy's turn: may use the Goat Herd Bonus."
    queue = _saying(Utterance(f"Turn 9, {whole} More.", IMPORTANT, facts=(turn(whole, 2, "Cy"),)))
    queue.new_input()  # cut before it was heard: longer than the gap between keys, it would be cut every time
    queue.done()
    queue.add(Utterance("Ana has 2 Unicorns."))
    assert texts(queue) == ["Cy's turn. Ana has 2 Unicorns."]
    arriving = _saying(Utterance(f"Turn 9, {whole}", IMPORTANT, facts=(turn(whole, 2, "Cy"),)))
    arriving.add(Utterance("Cy's Goat Herd Bonus: ...", IMPORTANT))
    drew = move("Cy drew a card.", 2, "draw")
    arriving.arrive(Utterance("Cy drew a card.", tells=(drew,)))  # the draw: the reminder waiting is past
    assert all("may use" not in text for text in texts(arriving))


def test_other_hands_moves_cut_at_her_keys_are_never_dropped_but_said_after_her_reply_a_player_a_sentence():
    queue = _saying(Utterance("Ana's Stable 2 Unicorns. More words."))
    for n in range(8):
        queue.arrive(Utterance(f"Move {n}.", tells=(move(f"Ben discarded C{n}.", 1, "discard", f"C{n}", at=n),)))
    queue.arrive(Utterance("Cy drew.", tells=(move("Cy drew a card.", 2, "draw", at=8),)))
    queue.new_input()  # her key: her reply first, then every move, merged a player a sentence
    queue.done()
    queue.add(Utterance("Ana drew a card."))
    reply, after = queue.waiting
    assert reply.text == "Ana drew a card."
    kept = [part.card for fact in after.folded for part in fact.flat() if part.player == "Ben"]
    assert kept == [f"C{n}" for n in range(8)], kept  # (docs/speech.md says never dropped)
    assert len(split_sentences(after.text)) == 2, after.text  # Ben's eight moves in one sentence, Cy's in one


def test_a_turn_cut_before_it_was_heard_is_said_by_its_own_players_draw_and_not_folded_before_it():
    queue = _saying(
        Utterance("Turn 9: Ben's turn. Ben draws a card: say draw.", IMPORTANT, facts=(turn("Ben's turn."),))
    )
    queue.new_input()  # the draw, typed 1.2 s after the end of the turn before: "Ben's turn." was cut
    queue.done()
    queue.add(Utterance("Ben drew a card. Action phase.", tells=(move("Ben drew a card.", 1, "draw", at=40),)))
    assert texts(queue) == ["Ben drew a card. Action phase."]  # her own key's words at once: they say whose turn
    queue = _saying(
        Utterance("Turn 9: Ben's turn. Ben draws a card: say draw.", IMPORTANT, facts=(turn("Ben's turn."),))
    )
    queue.new_input()
    queue.done()
    queue.add(Utterance("Cy drew a card.", tells=(move("Cy drew a card.", 2, "draw", at=40),)))
    assert texts(queue) == ["Ben's turn. Cy drew a card."]  # another's draw says nothing of Ben's turn


def test_a_players_name_typed_in_lower_case_begins_a_sentence_and_no_other_word_does():
    from assistant.core.text import SentenceNames

    names = SentenceNames.of(["Don't Kid Yourself!"], ("ana", "ben", "Cy"))
    assert split_sentences("ana wins! ana's Stable: Yay. ben drew a card.", names=names) == [
        "ana wins!",
        "ana's Stable: Yay.",
        "ben drew a card.",
    ]
    assert split_sentences("Dee played Don't Kid Yourself! entered. anatomy is a word.", names=names) == [
        "Dee played Don't Kid Yourself! entered. anatomy is a word."
    ]  # (a word that only begins like a name, or any other word in lower case, is no sentence's start)


def test_with_one_voice_her_own_words_come_first_and_another_seats_facts_wait_after_them_with_the_moves():
    """Her seat known (0): another hand's turn, count or chain's end waits after her reply with the moves; her own
    turn, her count and a win are still said before her words (she acts on them)."""
    queue = _saying(Utterance("Ana's Stable 2 Unicorns. More words."))
    queue.listener = 0
    bens_turn, ana_count = turn("Ben's turn.", 1), count("Ana 1 Unicorn.", 0)
    ended = move("Dee played Neigh.", 3, "neigh", "Neigh", at=7)
    destroyed = move("Cy destroyed Basic Unicorn (Red).", 2, "destroy", "Basic Unicorn (Red)", at=6)
    queue.arrive(Utterance("Ana 1 Unicorn. Cy destroyed Basic Unicorn (Red).", facts=(ana_count,), tells=(destroyed,)))
    queue.arrive(Utterance("Ben's turn. Dee played Neigh.", facts=(bens_turn,), tells=(ended,)))
    queue.new_input()  # her key: "tally"
    queue.done()
    queue.add(Utterance("Unicorns: Ana 1, Ben 0."))
    reply, after = queue.waiting
    assert reply.text == "Ana 1 Unicorn. Unicorns: Ana 1, Ben 0."  # her count first, then her own words
    assert after.text.startswith("Ben's turn.") and "Cy destroyed" in after.text and "Dee played Neigh" in after.text
    unknown = _saying(Utterance("Ana's Stable 2 Unicorns. More words."))  # her seat not known: folded, as before
    unknown.arrive(Utterance("Ben's turn. Dee played Neigh.", facts=(bens_turn,), tells=(ended,)))
    unknown.new_input()
    unknown.done()
    unknown.add(Utterance("Unicorns: Ana 1, Ben 0."))
    assert unknown.waiting[0].text.startswith("Ben's turn.")


def test_a_text_splits_the_same_whatever_the_program_did_before():
    """The probe: in a fresh interpreter, split a text, then load a deck whose card names hold a sentence's end and
    start a game whose players' names are typed in lower case, then split the same text again: the same sentences.
    The names that change the split come with the words (`SentenceNames`), from the session that has them."""
    import json
    import subprocess
    import sys

    probe = """
import json
from assistant.core.text import split_sentences
from assistant.session import Session
from assistant.storage.decks import load_card_set

text = "ana wins! ana's Stable: Yay. Dee played Don't Kid Yourself! Neigh?"
before = split_sentences(text)
session = Session(load_card_set("llamas"))
session.handle("new game ana ben cy")
assert session.players() == ("ana", "ben", "cy")
after = split_sentences(text)
print(json.dumps([before, after]), flush=True)
print(json.dumps(split_sentences(text, names=session.lobby.sentence_names())))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    before, after = json.loads(done.stdout.splitlines()[0])
    assert after == before == ["ana wins! ana's Stable: Yay.", "Dee played Don't Kid Yourself!", "Neigh?"]
    assert done.returncode == 0, done.stderr
    named = json.loads(done.stdout.splitlines()[1])  # the session's names: the game's cards and players
    assert named == ["ana wins!", "ana's Stable: Yay.", "Dee played Don't Kid Yourself! Neigh?"]


def test_a_fact_of_no_state_cut_each_time_is_folded_twice_and_not_a_third_time():
    """A duty cut in its fold each time (a key a second after its sentence began) is folded twice at most: into
    "Move 0." and "Move 1.", no longer before "Move 2."; a turn, a state, stays until heard."""
    duty = fact(Topic.DUTY, "Destroy a Unicorn.", 2)
    for one, folds in ((duty, 1), (turn("Ana's turn.", 0), 4)):
        queue = SpeechQueue()
        queue.add(Utterance(folded=(one,), segments=(Segment(Verbatim("Move 0.")),)))
        heard = []
        for n in range(1, 5):
            queue.take()
            queue.sentence_began(0, 10.0 * n, 1.0)
            queue.new_input(now=10.0 * n + 0.2)
            queue.done()
            queue.add(Utterance(f"Move {n}."))
            heard.append(queue.waiting[0].text)
        assert heard == [f"{said(one)} Move {n}." if n <= folds else f"Move {n}." for n in range(1, 5)], one


def _join_question() -> Utterance:
    """A phone's join question as the laptop says it (`Reply.asking`: the question its decisive fact)."""
    asked = About(Topic.QUESTION, asked=NewPhone("Ben"))
    return Utterance(said(asked), IMPORTANT, facts=(asked,))


def test_another_hands_question_is_not_said_again_once_a_newer_move_is_recorded():
    """The table voice: the join question, cut by the moves of the phone it let in, is never said after them (the
    question was answered on the laptop; one still open is asked again there, after her next key)."""
    from tests.core.clocked_voice import ClockedVoice

    voice = ClockedVoice(word_s=0.3)
    voice.tap(0.0, _join_question())
    ben = [move(f"Ben played Card {n}.", 1, "play", f"Card {n}") for n in range(4)]
    for n, told in enumerate(ben):
        voice.tap(
            0.5 + 0.4 * n, Utterance(f"Ben, from a phone: played Card {n}. It does something long.", tells=(told,))
        )
    voice.run_until(60.0)
    said = [sentence for _, sentence in voice.heard]
    assert sum("asks to record" in sentence for sentence in said) == 1, said  # (it was said three times)
    assert "Card 3" in said[-1], said


def test_another_hands_question_is_not_folded_after_her_key():
    """One voice: her key (her yes to the join question, or any line: the laptop asks an open question again
    itself) never has the other hand's question folded after its reply."""
    from tests.core.clocked_voice import ClockedVoice

    voice = ClockedVoice(word_s=0.3)
    voice.tap(0.0, _join_question())
    voice.key(0.6, Utterance("Ben's phone can now record for Ben."))
    voice.run_until(60.0)
    said = [sentence for _, sentence in voice.heard]
    assert sum("asks to record" in sentence for sentence in said) == 1, said


def _shifted(places: int):  # type: ignore[no-untyped-def]
    """Other words with the same sentence ends: each letter moved `places` along the alphabet, case, digits and
    punctuation kept (two shifts word one text in two ways that never agree)."""
    lower, upper = string.ascii_lowercase, string.ascii_uppercase
    table = str.maketrans(lower + upper, lower[places:] + lower[:places] + upper[places:] + upper[:places])
    return lambda text: text.translate(table)


#: The facts' words (every text an `About` carries) and the segments' own words, each in words of their own.
FACT_WORDS, SEGMENT_WORDS = _shifted(13), _shifted(7)


def _fact_in_words(fact: About) -> About:
    """A fact worded by `FACT_WORDS`: every text it carries, its merged moves too."""
    texts = ("player", "card", "whose", "on")
    asked = fact.asked
    if asked is not None:  # (what it asks: its names and phrases too)
        fields = dataclasses.fields(asked)
        asked = dataclasses.replace(
            asked, **{f.name: FACT_WORDS(v) for f in fields if isinstance(v := getattr(asked, f.name), str)}
        )
    return dataclasses.replace(
        fact,
        **{name: FACT_WORDS(getattr(fact, name)) for name in texts},
        asked=asked,
        parts=tuple(_fact_in_words(part) for part in fact.parts),
    )


def _reply_in_words(reply):  # type: ignore[no-untyped-def]
    """A reply whose segments say their words by `SEGMENT_WORDS` and carry facts worded by `FACT_WORDS`: no fact's
    words are any segment's, so only a typed match finds a fact's segment."""

    def segment(piece: Segment) -> Segment:
        return dataclasses.replace(
            piece,
            says=Verbatim(SEGMENT_WORDS(segment_words(piece, Audience.TABLE))),  # (a fact it says too)
            link=None
            if piece.link is None
            else ChainLink(piece.link.position, tuple(map(SEGMENT_WORDS, piece.link.names))),
            about=tuple(map(_fact_in_words, piece.about)),
            repeats=tuple(map(_fact_in_words, piece.repeats)),
            tells=tuple(map(_fact_in_words, piece.tells)),
        )

    return dataclasses.replace(reply, segments=tuple(map(segment, reply.segments)))


def _names_in_words(names: SentenceNames) -> SentenceNames:
    """The game's names as both kinds of words say them (a fact folded, a segment said)."""
    return SentenceNames(
        frozenset(map(FACT_WORDS, names.cards)) | frozenset(map(SEGMENT_WORDS, names.cards)),
        frozenset(map(FACT_WORDS, names.players)) | frozenset(map(SEGMENT_WORDS, names.players)),
    )


def _played_replies(game: str):  # type: ignore[no-untyped-def]
    """Every reply of a fixture game played line by line through the session, and the game's names."""
    from assistant.commands.app import table_session
    from assistant.storage.decks import load_card_set

    session = table_session(load_card_set("uu-2nd"), load_cards=load_card_set)
    lines = (Path(__file__).resolve().parents[1] / "fixtures" / game).read_text(encoding="utf-8").splitlines()
    replies = [session.handle(line) for line in lines if line.strip() and not line.startswith("#")]
    return replies, session.lobby.sentence_names()


@pytest.mark.parametrize("game", ["llamas_game.txt", "unicorns_four_game.txt"])
def test_the_queue_finds_each_fact_by_its_segment_never_by_its_words(game):
    """Whole games' replies with facts and segments worded apart (`FACT_WORDS`, `SEGMENT_WORDS`): the queue cuts,
    folds and reorders them as it does the originals, so it finds where a fact is said (its end, a duty of another
    player named, a move's cause first) by the typed facts each segment carries, never by comparing words."""
    replies, names = _played_replies(game)
    found = 0
    for reply in replies:
        probe = _reply_in_words(reply)
        for source in (Source.OWN_KEY, Source.OTHER_HAND):
            said = Utterance.of_reply(reply, source, names=names)
            again = Utterance.of_reply(probe, source, names=_names_in_words(names))
            if source is Source.OTHER_HAND:  # as `SpeechQueue.arrive` says it: its move before what it led to
                said, again = cause_first(said), cause_first(again)
                assert again.facts == tuple(map(_fact_in_words, said.facts)), reply.speech
            sentences = len(said.split())
            assert len(again.split()) == sentences, reply.speech
            assert (again.needed(), again.asks_from()) == (said.needed(), said.asks_from()), reply.speech
            for heard in range(sentences + 1):
                assert again.unheard(heard) == list(map(_fact_in_words, said.unheard(heard))), (reply.speech, heard)
                found += heard > 0 and said.unheard(heard) != said.unheard(0)
            for heard in range(1, sentences):  # her next key after `heard` sentences: what is folded into its reply
                folded = []
                for utterance in (said, again):
                    queue = _saying(utterance)
                    queue.sentence_played(heard - 1)
                    queue.new_input()
                    queue.done()
                    queue.add(Utterance("Next."))
                    folded.append(queue.waiting[0].folded)
                assert folded[1] == tuple(map(_fact_in_words, folded[0])), (reply.speech, heard)
    assert found > 10  # replies with a fact said after their first sentence: the probe tells where each ends

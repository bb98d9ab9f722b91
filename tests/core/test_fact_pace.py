"""Every decisive fact heard in full at table pace, on an injected clock: the benchmark's games (both editions and a
burst of other hands' moves, `benchmarks/table_pace.py`) played through the real session and the real speech
queue, with a worker whose sentences last as long as espeak-ng says them at the default rate (`spoken_s`, a model
fitted to its lengths), keys every 1.2 s and every 2.0 s whatever is being said.

What "heard in full" counts is the benchmark's rule: each sentence of a reply's decisive fact played to its end
(or cut in its last words), in its reply, in other words of the same state, or folded into a later reply; a fact a
newer one supersedes before the player's next own key (an older count of the same player, a turn that passed, a
win taken back by an undo) is settled and need not be heard; every other fact is still current and must be heard.

Also the shorter words that make this possible (a chain's duty as its deed, a reply that says its fact first), the
queue's order in a burst, and choices a listener can tell apart (cards of one name named by what differs).
"""

from __future__ import annotations

import pytest

from assistant.core.game.about import About, Topic
from assistant.core.game.segment import Segment, Verbatim
from assistant.core.language.reply import Choice, Question
from assistant.core.speech.queue import LAST_WORDS_S, split_sentences
from assistant.core.speech.utterance import Priority, Utterance
from assistant.core.words.audience import Audience
from assistant.core.words.worded import words_for
from benchmarks.table_pace import BURST_S, GAMES, _heard, _until_own_key, _waits_for, kind, shadow_replies
from tests.core.test_speech_queue import _Table, count, turn
from tests.facts import fact

CHAIN_DONE = fact(Topic.CHAIN_DONE, "Chain resolved.")
DESTROY = fact(Topic.DUTY, "Destroy a Unicorn.", 2)
ANA_0 = count("Ana 0 Unicorns.", 0)
DEE_2 = count("Dee 2 Unicorns.", 3)

#: Seconds between two keys at table pace: the gap a decisive fact must fit in.
GAP_S = 1.2


def _folding(facts: tuple[About, ...], words: str) -> Utterance:
    """A reply of `words` with `facts` folded into it, said first."""
    return Utterance(folded=facts, segments=(Segment(Verbatim(words)),))


def spoken_s(sentence: str) -> float:
    """How long espeak-ng takes to say a sentence at the default rate, silence trimmed: 55 ms a character, 0.3 s for
    the pause at a colon, 0.1 s to begin (fitted on its lengths: "Ana: 3 Unicorns." 1.42 s, model 1.28; "Ana 3
    Unicorns." 1.10, 0.93; "Destroy a Unicorn card in another player's Stable." 2.50, 2.90; "Ben's turn." 0.70,
    0.71; "The chain is resolved." 1.06, 1.31)."""
    return 0.055 * len(sentence) + 0.3 * sentence.count(":") + 0.1


class _Espeak(_Table):
    """The queue's worker on an injected clock, each sentence as long as `spoken_s`; an utterance begins `render_s`
    after the worker takes it (its first sentence rendered; the next ones are rendered while one plays), and a reply
    given while nothing is said begins then after its key."""

    given = 0.0
    render_s = 0.0

    def key(self, moment: float, reply: Utterance, answers: bool = False, own: bool = True) -> None:
        self.run_until(moment)
        self.given = moment
        super().key(moment, reply, answers, own)

    def _start(self, now: float) -> bool:
        utterance = self.queue.take()
        if utterance is None:
            return False
        now = max(now, self.given) + self.render_s
        self.owner = self.owners[id(utterance)]
        self.schedule = []
        for sentence in split_sentences(utterance.text):
            self.schedule.append((now, now + spoken_s(sentence), sentence))
            now += spoken_s(sentence)
        return True


def _waited(reply, names) -> bool:  # type: ignore[no-untyped-def]
    """A fact the player waits for before acting (a question, a turn's duties): the next key comes once it was heard."""
    return bool(_waits_for(reply, names)) or isinstance(reply.pending, (Question, Choice))


def test_every_decisive_fact_not_waited_for_fits_between_two_keys():
    for game in ("uu-2nd", "llamas", "burst"):
        replies, names = shadow_replies(game, "normal")
        for step, reply in zip(GAMES[game].steps, replies):
            if not reply.decisive or _waited(reply, names):
                continue
            for sentence in split_sentences(reply.decisive):
                assert spoken_s(sentence) <= GAP_S, (game, step, sentence)  # about a second: heard before the next key


def _play(game: str, interval: float, render_s: float = 0.0) -> tuple[list[str], list[str]]:
    """The game through the queue on the injected clock (each utterance `render_s` late): the decisive facts
    missed, and those settled."""
    steps, (replies, names) = GAMES[game].steps, shadow_replies(game, "normal")
    table, moment, asked = _Espeak(), 0.0, False
    table.render_s = render_s
    for n, (step, reply) in enumerate(zip(steps, replies)):
        if n:
            moment += BURST_S if kind(step) == "other" else interval
            wanted = _waits_for(replies[n - 1], names)
            while wanted and not all(any(w in h[1] and h[2] for h in table.heard) for w in wanted):
                table.run_until(moment)
                if table.queue.current is None and not table.queue.waiting:
                    break
                moment += 0.05
        priority = Priority.IMPORTANT if reply.important or reply.decisive else Priority.MESSAGE
        said = Utterance.of_reply(reply, priority=priority)
        own = kind(step) != "other"
        table.key(moment, said, answers=asked or reply.settles, own=own)
        if own:
            asked = reply.pending is not None
    table.run_until(moment + 1000.0)
    keys = [m for m, _ in table.replies]
    missed, settled = [], []
    for n, (step, reply) in enumerate(zip(steps, replies)):
        if not reply.decisive or isinstance(reply.pending, Choice):
            continue
        # heard in full: played to its end, or cut in its last words (the table marks a cut sentence not whole)
        heard = [h[1] for h in table.heard if h[0] >= keys[n] and (h[2] or _ends_soon(table, h))]
        facts = split_sentences(reply.decisive)
        if all(any(_heard(f, text) for text in heard) for f in facts):
            continue
        later = _until_own_key(steps, replies, n)
        if any(r.settles or all(f.settled_by((*r.facts, *r.tells)) for f in reply.facts) for r in later):
            settled.append(f"{n} {step}")
        else:
            missed.append(f"{n} {step}: {reply.decisive}")
    return missed, settled


def _ends_soon(table: _Table, sentence: list) -> bool:
    """A sentence cut in its last words (`LAST_WORDS_S`): the next sentence heard began within that of its end."""
    start, text = sentence[0], sentence[1]
    return any(h[0] > start and h[0] >= start + spoken_s(text) - LAST_WORDS_S for h in table.heard)


@pytest.mark.parametrize("render_s", [0.0, 0.3])
@pytest.mark.parametrize("interval", [1.2, 2.0])
@pytest.mark.parametrize("game", ["uu-2nd", "uu-2nd-lower", "llamas", "burst"])
def test_at_table_pace_every_decisive_fact_still_current_is_heard_in_full(game, interval, render_s):
    # render_s 0.3: each utterance begins 0.3 s after the worker takes it, as in the benchmark's log on a busy
    # machine (Enter to the first sound 0.1 to 0.2 s, and espeak-ng's sentences a little longer than `spoken_s`);
    # there the burst at 1.2 s lost "Ana's turn.", queued behind three older facts and cut in each fold
    missed, _ = _play(game, interval, render_s)
    assert missed == []


def test_a_chain_duty_is_its_deed_in_about_a_second():
    from assistant.core.words.cardtext import duty_short

    assert duty_short("Destroy a Unicorn card in another player's Stable") == "Destroy a Unicorn."
    assert duty_short("then you may draw 3 cards") == "May draw 3 cards."
    # a cost is said with what it buys, never alone
    cost = "you may discard a card; if you do, steal a Goat card"
    assert duty_short(cost) == "May discard a card, then steal a Goat."
    assert duty_short("you may discard 2 Unicorn cards from your hand; if you do, and more") == (
        "May discard 2 Unicorns."
    )
    long = "you may take a Baby Animal out of the Nursery and put it into your Field"
    assert duty_short(long) == "May take a Baby Animal out of the Nursery."  # its first deed
    assert duty_short("") == ""


def test_a_reply_says_its_decisive_fact_first():
    from assistant.core.game.segment import Part, Segment
    from assistant.core.words.audience import Audience
    from assistant.core.words.pace import lead_with
    from assistant.core.words.worded import lines_of

    def led(facts, said):
        return list(
            lines_of(
                lead_with(facts, [Segment(Verbatim(text), states=states) for text, states in said]), Audience.TABLE
            )
        )

    ana_1, nothing = count("Ana 1 Unicorn.", 0), frozenset()
    said = [("Ben destroyed Basic Unicorn (Red) in Ana's Stable.", nothing), ("Ana has 1 Unicorn.", ana_1.states)]
    assert led((ana_1,), said) == ["Ana 1 Unicorn.", "Ben destroyed Basic Unicorn (Red) in Ana's Stable."]
    assert [
        (s.about, s.part) for s in lead_with((ana_1,), [Segment(Verbatim(text), states=st) for text, st in said])
    ] == [
        ((ana_1,), Part.FACT),  # the fact its own segment, typed: what speech and braille go by
        ((), Part.SAID),
    ]
    for name in ("ana", "Ana María de la Cruz"):  # by the seat, not the words: any name
        fact = count(f"{name} 1 Unicorn.", 0)
        assert led((fact,), [("Ben destroyed X.", nothing), (f"{name} has 1 Unicorn.", fact.states)]) == [
            words_for(fact, Audience.TABLE),
            "Ben destroyed X.",
        ]
    assert led((CHAIN_DONE,), [("Unicorn Poison resolved. Chain resolved.", nothing)]) == [
        "Chain resolved.",
        "Unicorn Poison resolved.",
    ]
    ben = turn("Ben's turn.")
    assert led((ben,), [("Turn 2: Ben's turn.", ben.states)]) == ["Turn 2: Ben's turn."]  # it leads already
    from tests.core.test_game_scenarios import start, to_action

    t = start()
    to_action(t)
    t.handle("play unicorn poison")
    said_now = t.handle("resolve")
    assert said_now.speech.startswith(f"{said_now.decisive} ") and said_now.decisive == "Destroy a Unicorn."


def test_in_a_burst_the_older_fact_is_said_first():
    from assistant.core.speech.queue import SpeechQueue

    queue = SpeechQueue()
    folded = (DESTROY, ANA_0)
    queue.add(_folding(folded, "Ben destroyed Baby Unicorn (Red)."))
    queue.take()
    queue.sentence_began(0, 10.0, 1.0)  # the duty is being said; the count has not begun
    queue.arrive(Utterance("Chain resolved. Unicorn Poison resolved.", facts=(CHAIN_DONE,)))
    queue.arrive(Utterance("Turn 3: Cy's turn.", Priority.IMPORTANT, facts=(turn("Cy's turn.", 2),)))
    # the fact of the reply being said is older than the one that waited: it comes first, in the order recorded
    assert [u.text for u in queue.waiting] == ["Ana 0 Unicorns. Chain resolved. Turn 3: Cy's turn."]


def test_in_a_fold_the_turn_comes_first_then_a_fact_cut_in_a_fold_then_the_others():
    from assistant.core.speech.queue import SpeechQueue

    # the benchmark's burst at 1.2 s: four facts wait when Ana's own key comes, her turn the newest of them
    queue = SpeechQueue()
    older = (ANA_0, CHAIN_DONE, DEE_2)
    ana = turn("Ana's turn.", 0)
    queue.add(Utterance(folded=older, facts=(ana,), segments=(Segment(Verbatim("Turn 5: Ana's turn."), (ana,)),)))
    queue.take()
    queue.sentence_began(0, 10.0, 1.3)
    queue.new_input(now=10.4)  # "draw", with the first count cut
    queue.done()
    queue.add(Utterance("Ana drew a card. Action phase."))
    said = queue.take()
    assert said is not None  # whose turn it is first: what the player acts on; then the others as recorded
    assert said.text == "Ana's turn. Ana 0 Unicorns. Chain resolved. Dee 2 Unicorns. Ana drew a card. Action phase."
    queue.sentence_began(0, 10.6, 0.8)
    queue.sentence_played(0)  # the turn heard
    queue.sentence_began(1, 11.4, 1.3)
    queue.new_input(now=11.8)  # the count cut in its fold: it comes before a fact that has not begun
    queue.done()
    queue.add(Utterance("Ana played Basic Unicorn (Orange). Neigh?", facts=(fact(Topic.QUESTION, "Neigh?"),)))
    assert [u.text for u in queue.waiting] == [
        "Ana 0 Unicorns. Chain resolved. Dee 2 Unicorns. Ana played Basic Unicorn (Orange). Neigh?"
    ]
    queue = SpeechQueue()
    folded = (CHAIN_DONE, DEE_2)
    queue.add(_folding(folded, "Ana played Basic Unicorn (Orange)."))
    queue.take()
    queue.sentence_began(0, 20.0, 0.9)
    queue.sentence_played(0)
    queue.sentence_began(1, 20.9, 1.1)
    queue.new_input(now=21.0)  # "Dee 2 Unicorns." cut in its fold: it leads, before the facts not yet begun
    queue.done()
    queue.arrive(Utterance("Destroy a Unicorn. Cy played Unicorn Poison.", facts=(DESTROY,)))
    queue.new_input(now=21.1)
    queue.add(Utterance("Ana has 1 Unicorn."))
    assert [u.text for u in queue.waiting] == ["Dee 2 Unicorns. Destroy a Unicorn. Ana has 1 Unicorn."]


def test_the_chains_end_settles_its_duty_so_a_burst_never_says_a_duty_already_done():
    from assistant.core.speech.queue import SpeechQueue

    assert DESTROY.settled_by([CHAIN_DONE])
    assert not DESTROY.settled_by([ANA_0])
    assert not ANA_0.settled_by([CHAIN_DONE])  # a count is a state: only a newer count settles it
    # the benchmark's burst: the duty, the move that did it and the chain's end arrive while a count is said; the
    # duty was left in the fold, cut twice behind the turn, and dropped unheard
    queue = SpeechQueue()
    queue.add(Utterance("Ben 2 Unicorns. Ben played Basic Unicorn (Blue).", facts=(count("Ben 2 Unicorns.", 1),)))
    queue.take()
    queue.sentence_began(0, 7.2, 1.1)
    queue.arrive(Utterance("Destroy a Unicorn. Unicorn Poison is played.", facts=(DESTROY,)))
    queue.arrive(Utterance("Ana 0 Unicorns. Cy destroyed Baby Unicorn (Red).", facts=(ANA_0,)))
    queue.arrive(Utterance("Chain resolved. Unicorn Poison resolved.", facts=(CHAIN_DONE,)))
    assert [u.text for u in queue.waiting] == ["Ana 0 Unicorns. Chain resolved. Unicorn Poison resolved."]


def test_a_state_is_folded_until_heard_or_settled_a_fact_of_no_state_twice_at_most():
    from assistant.core.speech.queue import SpeechQueue

    for one, kept in ((turn("Ana's turn.", 0), True), (DEE_2, True), (DESTROY, False)):
        queue = SpeechQueue()
        queue.add(_folding((one,), "Move 0."))
        for n in range(1, 4):  # cut in its fold each time, a second after it began: folded twice, not a third time
            queue.take()
            queue.sentence_began(0, 10.0 * n, 1.0)
            queue.new_input(now=10.0 * n + 0.2)
            queue.done()
            queue.add(Utterance(f"Move {n}."))
        said = [u.text for u in queue.waiting]
        # a state keeps its place until heard: the fold holds at most one fact a state, so it stays short
        assert said == ([f"{words_for(one, Audience.TABLE)} Move 3."] if kept else ["Move 3."]), one
    queue = SpeechQueue()
    queue.add(_folding((turn("Ana's turn.", 0), DEE_2), "Move 0."))
    queue.take()
    queue.sentence_began(0, 1.0, 0.8)
    queue.new_input(now=1.2)
    queue.done()
    queue.arrive(Utterance("Turn 6: Ben's turn.", facts=(turn("Ben's turn."),)))
    queue.arrive(Utterance("Dee 3 Unicorns. Dee played Basic Unicorn (Blue).", facts=(count("Dee 3 Unicorns.", 3),)))
    # a newer turn and a newer count of the same player settle the older ones: they leave the fold at once
    assert [u.text for u in queue.waiting] == ["Ben's turn. Dee 3 Unicorns. Dee played Basic Unicorn (Blue)."]


def test_a_fold_counts_when_its_sentence_begins_not_when_its_reply_does():
    from assistant.core.speech.queue import SpeechQueue

    queue = SpeechQueue()
    facts = (ANA_0, CHAIN_DONE)
    for n in range(3):  # (past its two folds) each time the first fact is said; a move before the second began
        queue.add(_folding(facts, f"Move {n}."))
        queue.take()
        queue.sentence_began(0, 10.0 * n, 0.9)
        queue.arrive(Utterance(f"Other {n}."))
        assert [u.text for u in queue.waiting] == [f"Chain resolved. Other {n}."]  # never begun: still to be said
        queue.stop()
        queue.done()


def test_cards_of_one_name_that_play_otherwise_are_named_by_what_differs():
    from assistant.core.cards.card import Card, CardType
    from assistant.core.words.errors import choose_card_for, which_card

    base = Card("neigh", "Neigh", CardType.INSTANT, 14, "Stop a card being played.", "uu-2nd")
    addon = Card("neigh-dragons", "Neigh", CardType.INSTANT, 2, "Stop a card; draw a card.", "uu-dragons")
    magic = Card("neigh-magic", "Neigh", CardType.MAGIC, 1, "Draw a card.", "uu-2nd")
    other = Card("super-neigh", "Super Neigh", CardType.INSTANT, 1, "Stop a card for good.", "uu-2nd")
    titles = {"uu-2nd": "Unstable Unicorns", "uu-dragons": "Dragons"}
    said = choose_card_for(which_card("Ana", "neigh", [base, addon, other], titles))
    # not "1 Neigh, 2 Neigh": the deck each comes from; a name no other shares is said alone
    assert "1 Neigh (Unstable Unicorns), 2 Neigh (Dragons), 3 Super Neigh." in said
    magics = choose_card_for(which_card("Ana", "neigh", [base, magic], titles))
    assert "1 Neigh (Instant card), 2 Neigh (Magic card)." in magics


def test_a_card_two_decks_print_otherwise_is_asked_about_by_its_deck():
    from assistant.commands.app import table_session
    from assistant.storage.decks import load_card_set

    s = table_session(load_card_set("uu-1st", ["uu-rainbow-apocalypse"]))
    s.handle("new game Ana Ben")
    s.handle("draw")
    asked = s.handle("play llamacorn")  # the 1st Edition's and Rainbow Apocalypse's Llamacorn do different things
    assert "1 Llamacorn (1st Edition (Kickstarter) base game), 2 Llamacorn (Rainbow Apocalypse expansion)." in (
        asked.speech
    )
    assert s.handle("2").lines[0] == "Ana played Llamacorn."
    assert s.game.log[-1].card == asked.choices[1].id

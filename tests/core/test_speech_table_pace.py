"""The table voice's queue at table pace (assistant/core/speech/queue.py `arrive`): other hands' moves only, on a
fake clock. A move tapped while another is said is heard within about a second; a player's moves in a row wait as
one sentence; a move is never dropped however often it is cut."""

import itertools

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.segment import Part, Segment, Verbatim
from assistant.core.language.device import DeviceMove
from assistant.core.speech.queue import SpeechQueue
from assistant.core.speech.utterance import Priority, Utterance
from assistant.core.words.audience import Audience
from assistant.core.words.worded import segment_words
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.core.clocked_voice import ClockedVoice
from tests.facts import fact

#: Seconds a word lasts in the table voice (about 250 words a minute).
WORD_S = 0.24
PLAYERS = ("Ana", "Ben", "Cy", "Dee")


def _told(seat: int, kind: MoveKind, card: str, at: int) -> About:
    player = PLAYERS[seat]
    did = {MoveKind.PLAY: f"played {card}", MoveKind.NEIGH: f"played {card}", MoveKind.DRAW: "drew a card"}[kind]
    return fact(
        Topic.MOVE,
        f"{player} {did}.",
        seat,
        player=player,
        move=kind,
        card="" if kind is MoveKind.DRAW else card,
        at=at,
    )


def _reply(move: About, long: str, question: str = "") -> Utterance:
    """A phone's reply as the app gives it: the move at length, then the table's question, each a segment."""
    asked = fact(Topic.QUESTION, question)
    segments = [Segment(Verbatim(f"{move.player}, from a phone: {long}"), about=(move,))]
    if question:
        segments.append(Segment(Verbatim(question), about=(asked,), part=Part.SAID))
    text = " ".join(segment_words(segment, Audience.TABLE) for segment in segments)
    return Utterance(text, tells=(move,), segments=tuple(segments))


def _first_heard(voice: ClockedVoice, words: str, after: float) -> float:
    return min((at for at, sentence in voice.heard if words in sentence and at >= after), default=float("inf"))


def test_a_move_tapped_while_a_long_sentence_is_said_is_heard_within_a_second():
    voice = ClockedVoice(WORD_S)
    ben = _told(1, MoveKind.PLAY, "Rainbow Aura", 1)
    voice.tap(0.0, _reply(ben, "played Rainbow Aura, a Magic card that goes into a Stable of his choice, to the pile."))
    cy = _told(2, MoveKind.NEIGH, "Neigh", 2)
    voice.tap(0.6, _reply(cy, "played Neigh on Ben's Rainbow Aura.", "Any Neigh for Cy's Neigh?"))
    voice.run_until(30.0)
    assert _first_heard(voice, "Cy", 0.6) - 0.6 <= 1.0, voice.heard  # ("Ben played Rainbow Aura." first, short)
    assert [sentence for _, sentence in voice.heard][1:3] == ["Ben played Rainbow Aura.", voice.heard[2][1]]
    assert voice.heard[2][1].startswith("Cy, from a phone:")


def test_a_players_moves_in_a_row_wait_as_one_sentence_with_the_newest_question_only():
    voice = ClockedVoice(WORD_S)
    cy = _told(2, MoveKind.NEIGH, "Neigh", 1)
    voice.tap(0.0, _reply(cy, "played Neigh on Dee's Basic Unicorn (Red), which goes to the discard pile now."))
    ben_drew, ben_played = _told(1, MoveKind.DRAW, "", 2), _told(1, MoveKind.PLAY, "Rainbow Aura", 3)
    voice.tap(0.1, _reply(ben_drew, "drew a card. Action phase: play a card or end the turn."))
    voice.tap(0.2, _reply(ben_played, "played Rainbow Aura.", "Any Neigh for Ben's Rainbow Aura?"))
    (waiting,) = voice.queue.waiting  # never more than one sentence waiting a player
    assert waiting.text == "Ben drew a card and played Rainbow Aura. Any Neigh for Ben's Rainbow Aura?", waiting.text
    voice.run_until(30.0)
    assert _first_heard(voice, "Rainbow Aura", 0.2) - 0.2 <= 1.5, voice.heard


def test_another_hands_move_cut_again_and_again_is_never_dropped():
    queue = SpeechQueue()
    drew = _told(1, MoveKind.DRAW, "", 1)
    queue.arrive(Utterance("Ben drew a card. Action phase.", tells=(drew,)))
    for n in range(4):  # begun each time, cut each time by her key before its sentence ends
        queue.take()
        queue.sentence_began(0, float(n), 2.0)
        queue.new_input()
        queue.done()
        queue.add(Utterance(f"Reply {n}."))
        assert any(drew in utterance.kept() for utterance in queue.waiting), (n, queue.waiting)
        while queue.waiting[0].text.startswith("Reply"):  # her reply said whole; Ben's draw next
            queue.take()
            queue.done()


class _Phones:
    """A game on the real session, its other hands' moves made from their phones (`device_move`): each reply as the
    speech service gives it to the table voice (`Utterance` with its typed facts, move, seat and segments)."""

    def __init__(self, deck: str = "uu-2nd", addons: tuple[str, ...] = ()) -> None:
        self.session = Session(load_card_set(deck, list(addons)))
        ticks = itertools.count(0.0, 10.0)  # (the desk's moves 10 s apart: each said at once, as these taps are)
        self.session.phone_desk.clock = lambda: next(ticks)
        for line in ("new game Ana Ben Cy Dee win 3", "draw", "end turn"):  # Ben's turn next
            self.session.handle(line)

    def move(self, player: str, verb: str, **fields: str) -> Utterance:
        outcome = self.session.phone_desk.device_move(player, DeviceMove(verb, phoned=PLAYERS[1:], **fields))
        reply = outcome.reply
        assert outcome.status == "recorded" and reply is not None, outcome.lines
        priority = Priority.IMPORTANT if reply.important or reply.facts else Priority.MESSAGE
        names, hand = self.session.lobby.sentence_names(), PLAYERS.index(reply.hand)
        return Utterance.of_reply(reply, priority=priority, hand=hand, names=names)


def _sentence(voice: ClockedVoice, words: str) -> tuple[float, float]:
    """When the sentence holding `words` began and how long it played (to the next sentence begun)."""
    (n, (at, _)), *_ = [(n, heard) for n, heard in enumerate(voice.heard) if words in heard[1]]
    return at, voice.heard[n + 1][0] - at if n + 1 < len(voice.heard) else float("inf")


def test_unicorns_a_turns_end_tapped_while_the_table_voice_says_a_super_neigh_resolve_is_heard_within_a_second():
    """The benchmark's slow Unicorns move: Dee's turn's end tapped with 0.74 s left of "Dee, from a phone: Ben's
    Super Neigh resolves: ..." was heard 2.1 s after its tap, behind that sentence cut and said again short. The
    sentence now ends (less time than saying it again); what the Super Neigh stopped is heard once, in full."""
    table, voice = _Phones(), ClockedVoice(WORD_S)
    table.move("Ben", "draw")
    table.move("Ben", "play", card="basic-unicorn-yellow")
    table.move("Cy", "super-neigh")
    resolve = table.move("Ben", "resolve", on="super-neigh")
    voice.tap(10.0, resolve)
    (sentence,) = resolve.split()  # ("Ben, from a phone: Cy's Super Neigh resolves: ... discard pile.")
    ended_at = 10.0 + WORD_S * len(sentence.split()) - 0.75  # about 0.75 s of it left, as in the benchmark
    voice.tap(ended_at, table.move("Ben", "end"))
    voice.run_until(60.0)
    assert _first_heard(voice, "ended the turn", ended_at) - ended_at <= 1.0, voice.heard
    assert _sentence(voice, "Super Neigh resolves")[1] >= WORD_S * len(sentence.split()) - 0.01, voice.heard
    assert not any("stopped" in said for _, said in voice.heard), voice.heard  # (never said twice)


def test_llamas_moves_tapped_while_the_table_voice_says_an_instant_or_a_chain_are_heard_within_a_second():
    """What Llamas does differently, each a slow move of the benchmark: an Instant answered by another at once
    (Ben's Llama Stop You Right There 1.1 s after its tap, behind "Dee played Goatsundheit." cut and said whole
    again); a resolve that stops a card and then explains where it goes (Ben's turn's end 2.1 s after its tap,
    behind "Cy's Spit Happens stopped ..." said again); and a chain's link said with its card's text, which repeats
    the duty said after it (Ben's draw 2.3 s after its tap, behind the count and the duty said again)."""
    table, voice = _Phones("llamas", ("llamas-farmed",)), ClockedVoice(WORD_S)
    table.move("Ben", "draw")
    table.move("Ben", "play", card="magical-llamacorn")
    table.move("Cy", "instant", card="spit-happens")
    voice.tap(0.0, resolve := table.move("Ben", "resolve", on="spit-happens"))
    stops = resolve.split()[0]  # ("Ben, from a phone: Cy's Spit Happens resolves and stops Ben's Magical Llamacorn.")
    ended_at = WORD_S * len(stops.split()) - 0.8
    voice.tap(ended_at, table.move("Ben", "end"))
    voice.run_until(20.0)
    assert _first_heard(voice, "ended the turn", ended_at) - ended_at <= 1.0, voice.heard
    assert _sentence(voice, "resolves and stops")[1] >= WORD_S * len(stops.split()) - 0.01, voice.heard

    table.move("Cy", "draw")
    voice.tap(20.0, table.move("Cy", "play", card="mother-goat"))
    voice.tap(30.0, table.move("Dee", "instant", card="goatsundheit"))
    answered_at = 30.1  # (0.6 s of "Dee played Goatsundheit." left)
    voice.tap(answered_at, table.move("Ben", "instant", card="llama-stop-you-right-there"))
    voice.run_until(40.0)
    assert _first_heard(voice, "Ben played Llama Stop", answered_at) - answered_at <= 0.7, voice.heard
    assert [said for _, said in voice.heard].count("Dee played Goatsundheit.") == 1, voice.heard

    voice.tap(40.0, table.move("Cy", "resolve", on="llama-stop-you-right-there"))
    voice.run_until(60.0)
    chain = table.move("Cy", "resolve", on="mother-goat")
    voice.tap(60.0, chain)
    drew_at = 65.0  # (as in the benchmark: 4.4 s after the chain's reply came)
    voice.tap(drew_at, table.move("Ben", "draw"))
    voice.run_until(90.0)
    assert _first_heard(voice, "Ben drew a card", drew_at) - drew_at <= 1.0, voice.heard
    said = [said for at, said in voice.heard if 60.0 <= at < drew_at + 1.0]
    assert said[:3] == ["Added to the chain, in place 2: Mother Goat entering Cy's Field.", "Cy 1 Animal.",
                        "May take a Baby Animal out of the Nursery."], said  # fmt: skip

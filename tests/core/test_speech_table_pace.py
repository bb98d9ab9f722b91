"""The table voice's queue at table pace (assistant/core/speech/queue.py `arrive`): other hands' moves only, on a
fake clock. A move tapped while another is said is heard within about a second; a player's moves in a row wait as
one sentence; a move is never dropped however often it is cut."""

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.segment import Part, Segment
from assistant.core.speech.queue import SpeechQueue, Utterance
from tests.core.clocked_voice import ClockedVoice

#: Seconds a word lasts in the table voice (about 250 words a minute).
WORD_S = 0.24
PLAYERS = ("Ana", "Ben", "Cy", "Dee")


def _told(seat: int, kind: MoveKind, card: str, at: int) -> About:
    player = PLAYERS[seat]
    did = {MoveKind.PLAY: f"played {card}", MoveKind.NEIGH: f"played {card}", MoveKind.DRAW: "drew a card"}[kind]
    return About(Topic.MOVE, f"{player} {did}.", (seat,), player, kind, "" if kind is MoveKind.DRAW else card, at=at)


def _reply(move: About, long: str, question: str = "") -> Utterance:
    """A phone's reply as the app gives it: the move at length, then the table's question, each a segment."""
    asked = About(Topic.QUESTION, question)
    segments = [Segment(f"{move.player}, from a phone: {long}", about=(move,))]
    if question:
        segments.append(Segment(question, about=(asked,), part=Part.SAID))
    text = " ".join(segment.words for segment in segments)
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

"""With one voice every move is heard: what a Neigh stopped (a resolve's reply, whose typed fact has no words of its
own) is said when its reply is dropped by her key or shrunk by the next move, never lost. Replies from a real
session, on the queue."""

from __future__ import annotations

from assistant.core.speech.queue import SpeechQueue
from assistant.core.speech.utterance import Utterance
from tests.core.test_game_scenarios import start, to_action


def utterance(reply) -> Utterance:
    return Utterance.of_reply(reply)


def resolved():
    t = start()
    to_action(t)
    t.handle("play basic unicorn red")
    t.handle("neigh ben")
    return t.handle("resolve")  # Ben's Neigh stops Ana's Basic Unicorn (Red): as a phone would send it


def saying_her_reply() -> SpeechQueue:
    queue = SpeechQueue()
    queue.listener = 0
    queue.add(Utterance("Ana's Stable: 2 Unicorns. Rainbow Aura, Basic Unicorn (Red)."))
    queue.take()
    return queue


def test_what_a_neigh_stopped_is_said_after_her_reply_when_her_key_drops_it():
    queue = saying_her_reply()
    queue.arrive(utterance(resolved()))  # waits behind her reply
    queue.new_input()  # her next key drops it before it began
    queue.done()
    queue.add(Utterance("Your hand: Yay."))
    texts = [u.text for u in queue.waiting]
    assert texts[0] == "Your hand: Yay."  # her own words first
    assert any("Ben's Neigh stopped Ana's Basic Unicorn (Red)." in text for text in texts[1:])


def test_what_a_neigh_stopped_is_said_when_the_next_move_shrinks_its_reply():
    queue = saying_her_reply()
    queue.arrive(utterance(resolved()))
    queue.arrive(Utterance("Cy drew a card."))  # the resolve's reply shrinks to its facts and its move
    assert "Ben's Neigh stopped Ana's Basic Unicorn (Red)." in queue.waiting[0].text

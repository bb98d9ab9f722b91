"""One voice at table pace (assistant/core/speech/queue.py): her key every 1.2 s, other hands' moves between them,
on a fake clock. Every move is heard within 10 s of its tap; her own words stay first for the key just pressed (moves
that waited go right after its reply, and before her next reply only when that one passed them); every reply of hers
is heard."""

from assistant.core.game.about import MoveKind, Topic
from assistant.core.speech.queue import WAIT_S
from assistant.core.speech.utterance import Utterance
from tests.core.clocked_voice import ClockedVoice
from tests.facts import fact

#: Seconds a word lasts (her voice, about 175 words a minute).
WORD_S = 0.34
PLAYERS = ("Ana", "Ben", "Cy", "Dee")


def _move(seat: int, card: str, at: int) -> Utterance:
    player = PLAYERS[seat]
    told = fact(Topic.MOVE, f"{player} discarded {card}.", seat, player=player, move=MoveKind.DISCARD, card=card, at=at)
    return Utterance(f"{player}, from a phone: discarded {card}. It went to the discard pile.", tells=(told,))


def _reply(n: int) -> Utterance:
    return Utterance(f"Reply {n}: Ana's Stable holds three cards. Basic Unicorn, Rainbow Aura and Neigh. Say more.")


def _play(seconds: float = 40.0) -> tuple[ClockedVoice, list[tuple[float, str]], list[float]]:
    """Her key every 1.2 s for `seconds`; a phone's move every 2.5 s, Ben, Cy and Dee in turn."""
    voice, taps, keys = ClockedVoice(WORD_S), [], []
    events = [(1.2 * n, "key", n) for n in range(int(seconds / 1.2))]
    events += [(0.5 + 2.5 * n, "tap", n) for n in range(int(seconds / 2.5))]
    for moment, kind, n in sorted(events):
        if kind == "key":
            keys.append(moment)
            voice.key(moment, _reply(n))
        else:
            card = f"Card{n}"
            taps.append((moment, card))
            voice.tap(moment, _move(1 + n % 3, card, n + 1))
    voice.run_until(10_000.0)
    return voice, taps, keys


def test_in_one_voice_every_move_is_heard_within_10_s_of_its_tap_while_she_keeps_typing():
    voice, taps, keys = _play()
    waits = {}
    for tapped, card in taps:
        heard = [at for at, sentence in voice.heard if card in sentence and at >= tapped]
        waits[card] = (min(heard) - tapped) if heard else None
    assert all(wait is not None and wait <= 10.0 for wait in waits.values()), waits
    assert max(wait for wait in waits.values() if wait is not None) <= WAIT_S + 2 * 1.2 + 3 * 3 * WORD_S, waits
    for n, moment in enumerate(keys):
        until = keys[n + 1] if n + 1 < len(keys) else 10_000.0
        began = [at for at, sentence in voice.heard if moment <= at < until and sentence.startswith(f"Reply {n}:")]
        # every reply of hers is heard: begun before her next key (never passed by for other hands' moves)
        assert began, (n, [(at, sentence) for at, sentence in voice.heard if moment <= at < until])
        # her own words first for the key just pressed: before a reply, only moves that had already waited WAIT_S
        # at her key before (put after that key's reply, not said by this one)
        for sentence in (sentence for at, sentence in voice.heard if moment <= at < began[0]):
            tapped = [at for at, card in taps if f"{card}." in sentence or f"{card} " in sentence]
            assert tapped and n > 0 and min(tapped) <= keys[n - 1] - WAIT_S, (n, sentence, tapped)


def test_in_one_voice_moves_that_waited_go_after_her_reply_then_before_her_next_merged_a_player_a_sentence():
    voice = ClockedVoice(WORD_S)
    voice.key(0.0, _reply(0))
    voice.tap(0.3, _move(1, "Card0", 1))
    voice.tap(0.6, _move(1, "Card1", 2))
    voice.tap(0.9, _move(2, "Card2", 3))
    for n in range(1, 3):  # her keys push them on while they have waited less than WAIT_S
        voice.key(1.2 * n, _reply(n))
    merged = "Ben discarded Card0 and discarded Card1. Cy discarded Card2."
    assert [u.text for u in voice.queue.waiting] == [_reply(2).text, merged]  # her words first, the moves after
    voice.key(3.6, _reply(3))  # Ben's have waited WAIT_S: still her reply first, his moves right after it
    voice.run_until(3.7)
    assert voice.heard[-1] == (3.6, "Reply 3: Ana's Stable holds three cards.")
    assert voice.queue.waiting[0].text == merged  # (the rest of her reply after them: it gave way)
    voice.key(4.8, _reply(4))  # passed once: Ben's said now, before this key's reply; Cy's (not yet waited) after
    voice.run_until(4.9)
    assert voice.heard[-1] == (4.8, "Ben discarded Card0 and discarded Card1.")
    assert [u.text for u in voice.queue.waiting] == [_reply(4).text, "Cy discarded Card2."]


def test_in_one_voice_a_long_reply_of_hers_gives_way_after_its_facts_to_moves_that_waited():
    voice = ClockedVoice(WORD_S)
    stable = " ".join(f"Card {n} of hers is a Basic Unicorn." for n in range(12))  # about 25 s
    voice.key(0.0, Utterance(f"Ana's Stable: 12 Unicorns. {stable}"))
    voice.tap(0.5, _move(1, "Card0", 1))
    voice.tap(4.0, _move(2, "Card1", 2))
    voice.run_until(60.0)
    first = {card: min(at for at, sentence in voice.heard if card in sentence) for card in ("Card0", "Card1")}
    assert first["Card0"] - 0.5 <= WAIT_S + 3 * WORD_S * 8, first  # after the sentence said when it was due
    assert voice.heard[0] == (0.0, "Ana's Stable: 12 Unicorns.")  # her facts first, whole
    rest = [sentence for at, sentence in voice.heard if at > first["Card1"] and sentence.startswith("Card ")]
    assert rest and rest[0] == "Card 1 of hers is a Basic Unicorn.", rest  # and the rest of it after them
    assert rest[-1] == "Card 11 of hers is a Basic Unicorn.", rest


def test_in_one_voice_a_long_sentence_of_moves_that_waited_is_cut_at_her_key_and_said_short_after_her_reply():
    voice = ClockedVoice(WORD_S)
    voice.key(0.0, _reply(0))
    voice.tap(0.3, _move(1, "Card0", 1))
    voice.key(1.2, _reply(1))
    voice.key(2.4, Utterance("Reply 2."))  # short: the moves begin after it, Ben's then Cy's, tapped meanwhile
    long = "discarded Glitter Bomb, a Magic card that would have made him sacrifice a card and destroy another."
    cy = fact(
        Topic.MOVE, "Cy discarded Glitter Bomb.", 2, player="Cy", move=MoveKind.DISCARD, card="Glitter Bomb", at=2
    )
    voice.tap(2.8, Utterance(f"Cy, from a phone: {long}", tells=(cy,)))
    voice.run_until(4.8)
    assert voice.heard[-1][1].startswith("Cy, from a phone:"), voice.heard  # its long sentence being said
    voice.key(4.8, _reply(4))  # Ben's move waited: these are due, but her reply does not wait for the long sentence
    voice.run_until(9.0)
    said = [(at, sentence) for at, sentence in voice.heard if at >= 4.8]
    assert said[0] == (4.8, "Reply 4: Ana's Stable holds three cards."), voice.heard  # her words first, at once
    assert said[1][1] == "Cy discarded Glitter Bomb.", voice.heard  # then the move, short, after its first sentence


def test_in_one_voice_an_instant_said_with_what_it_stopped_keeps_its_wait_and_is_heard_within_10_s():
    from tests.core.test_game_scenarios import start, to_action

    t = start()
    to_action(t)
    t.handle("play basic unicorn red")
    replies = [t.handle("neigh cy"), t.handle("neigh ben"), t.handle("resolve")]  # as three phones send them
    voice = ClockedVoice(WORD_S)
    voice.queue.listener = 0  # Ana's seat, as the speech service sets it: others' facts are said after her words
    for n in range(12):  # her keys every 1.2 s, each reply longer than that
        voice.key(1.2 * n, _reply(n))
        for at, reply in zip((0.6, 0.9, 4.7), replies, strict=True):  # Ben's Neigh said with what it stopped at 4.7
            if 1.2 * n < at < 1.2 * (n + 1):
                voice.tap(at, Utterance.of_reply(reply))
    voice.run_until(1.2 * 12)
    bens = [at for at, sentence in voice.heard if sentence.startswith("Ben") and "Neigh" in sentence]
    assert bens and bens[0] - 0.9 <= 10.0, voice.heard


def test_in_one_voice_a_win_tapped_while_her_long_sentence_is_said_is_heard_within_a_second():
    voice = ClockedVoice(WORD_S)
    voice.key(0.0, Utterance("The pile, from the top: Cy's Basic Goat, played on Dee's Field a moment ago. Say more."))
    won = fact(Topic.WIN, "Cy wins!", 2, player="Cy")
    voice.tap(0.6, Utterance("Cy wins with 3 Animals! The game is over.", facts=(won,)))
    voice.run_until(10.0)
    assert [at for at, sentence in voice.heard if sentence == "Cy wins with 3 Animals!"][0] - 0.6 <= 1.0, voice.heard

"""`missed` is true and short: a move taken back is no news, whose card a move took and what an Instant answered
are said, a win and whose turn it is now come first, then the moves that took her cards; a part says at most
`DIGEST_WORDS` words and the next `missed` says the rest, nothing lost between them. Both editions."""

from __future__ import annotations

import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.language.device import DeviceMove
from assistant.core.words.audience import Audience
from assistant.core.words.pace import (
    DIGEST_GOES_ON,
    DIGEST_HEADING,
    DIGEST_WORDS,
    MORE_MISSED,
    NOTHING_MISSED,
    missed,
    placed,
    standing,
)
from assistant.core.words.worded import words_for
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.facts import fact
from tests.llamas_game import game_lines

CARDS = load_card_set()
NEW_GAME = "new game Ana Ben Cy babies red pink orange"


def game_after(lines: list[str]) -> Session:
    session = Session(CARDS, load_cards=load_card_set)
    for line in lines:
        session.handle(line)
    return session


def record(session: Session, player: str, move: DeviceMove) -> None:
    """A phone's move, recorded: a warned one answered yes (the table is the authority)."""
    outcome = session.phone_desk.device_move(player, move)
    if outcome.status == "warning":
        outcome = session.phone_desk.device_answer(player, outcome.question, True)
    assert outcome.status == "recorded", (player, move, outcome.lines)


def bens_turn() -> Session:
    """Ana has Rainbow Aura in her Stable; her turn ended: Ben's turn (her move: the digest starts here)."""
    return game_after([NEW_GAME, "draw", "play rainbow aura", "resolve", "end turn"])


def test_a_move_a_phone_undid_is_not_told_as_done():
    session = bens_turn()
    record(session, "Ben", DeviceMove("draw"))
    record(session, "Ben", DeviceMove("play", card="basic-unicorn-blue"))
    record(session, "Ben", DeviceMove("undo"))
    said = session.handle("missed").speech
    assert said == f"{DIGEST_HEADING} Ben drew a card.", said


def test_a_turn_a_phone_undid_is_not_told_and_the_turn_before_it_is():
    session = bens_turn()
    record(session, "Ben", DeviceMove("draw"))
    record(session, "Ben", DeviceMove("end"))  # Cy's turn...
    record(session, "Cy", DeviceMove("draw"))
    record(session, "Cy", DeviceMove("end"))  # ... Ana's turn, taken back by Cy
    record(session, "Cy", DeviceMove("undo"))
    said = session.handle("missed").speech
    assert said == f"{DIGEST_HEADING} Cy's turn. Ben drew a card. Cy drew a card.", said


def test_a_move_she_undid_herself_is_no_news_and_one_she_redid_is():
    session = bens_turn()
    record(session, "Ben", DeviceMove("draw"))
    record(session, "Ben", DeviceMove("play", card="basic-unicorn-blue"))
    session.handle("undo")  # at the keyboard: no move of hers, the digest goes on
    assert session.handle("missed").speech == f"{DIGEST_HEADING} Ben drew a card."
    record(session, "Ben", DeviceMove("play", card="basic-unicorn-blue"))
    session.handle("undo")
    session.handle("redo")
    said = session.handle("missed").speech
    assert said == f"{DIGEST_HEADING} Ben played Basic Unicorn (Blue).", said


def test_another_game_starts_the_digest_again():
    session = bens_turn()
    record(session, "Ben", DeviceMove("draw"))
    session.handle(NEW_GAME)
    session.handle("yes")  # (a game in progress: a new one is asked about first)
    assert session.handle("missed").speech == NOTHING_MISSED


def test_whose_card_a_move_took_and_what_a_neigh_answered_are_said_her_cards_first():
    session = bens_turn()
    record(session, "Ben", DeviceMove("play", card="basic-unicorn-blue"))
    record(session, "Cy", DeviceMove("neigh", on="basic-unicorn-blue"))
    record(session, "Cy", DeviceMove("destroy", card="rainbow-aura", target="Ana"))
    said = session.handle("missed").speech
    assert said == (
        f"{DIGEST_HEADING} Cy stopped Ben's Basic Unicorn (Blue) with Neigh and destroyed Ana's Rainbow Aura."
        " Ben played Basic Unicorn (Blue)."
    ), said  # her card taken: first, though Ben's move was recorded before Cy's (the destroy resolved the pile)


def test_what_a_neigh_stopped_is_said_with_its_move_and_not_once_the_resolve_is_undone():
    session = bens_turn()
    record(session, "Ben", DeviceMove("draw"))
    record(session, "Ben", DeviceMove("play", card="basic-unicorn-blue"))
    record(session, "Cy", DeviceMove("neigh", on="basic-unicorn-blue"))
    record(session, "Ana", DeviceMove("resolve"))
    said = session.handle("missed").speech
    assert said == (f"{DIGEST_HEADING} Ben drew a card and played Basic Unicorn (Blue). Cy stopped it with Neigh."), (
        said
    )  # (the card just named said "it": before, "Cy stopped Ben's Basic Unicorn (Blue) with Neigh.")
    record(session, "Cy", DeviceMove("draw"))
    record(session, "Ben", DeviceMove("play", card="basic-unicorn-red"))
    record(session, "Cy", DeviceMove("neigh", on="basic-unicorn-red"))
    record(session, "Ben", DeviceMove("resolve"))
    record(session, "Ben", DeviceMove("undo"))  # the resolve taken back: the Neigh waits on the pile again
    said = session.handle("missed").speech
    assert "played Neigh on Ben's Basic Unicorn (Red)." in said and "stopped" not in said, said


def test_her_cards_come_first_by_the_me_setting():
    session = bens_turn()
    session.me = "ben"  # (any case)
    record(session, "Cy", DeviceMove("draw"))
    record(session, "Ana", DeviceMove("destroy", card="baby-unicorn-pink", target="Ben"))
    said = session.handle("missed").speech
    assert said.startswith(f"{DIGEST_HEADING} Ana destroyed Baby Unicorn (Pink) in Ben's Stable."), said


def test_a_turn_change_is_said_first_and_a_win_before_it():
    session = bens_turn()
    record(session, "Ben", DeviceMove("draw"))
    record(session, "Ben", DeviceMove("end"))
    record(session, "Cy", DeviceMove("draw"))
    said = session.handle("missed").speech
    assert said == f"{DIGEST_HEADING} Cy's turn. Ben drew a card. Cy drew a card.", said
    session = game_after([f"{NEW_GAME} win 2", "draw", "end turn"])
    record(session, "Ben", DeviceMove("draw"))
    record(session, "Ben", DeviceMove("play", card="basic-unicorn-blue"))
    record(session, "Ben", DeviceMove("resolve"))
    digest = session.handle("missed")
    assert digest.speech.startswith(f"{DIGEST_HEADING} Ben wins! "), digest.speech
    assert "Ben drew a card and played Basic Unicorn (Blue)." in digest.speech
    assert [words_for(fact, Audience.TABLE) for fact in digest.facts] == [
        "Ben wins!"
    ]  # typed: held as the reply's decisive fact


def test_the_app_s_session_knows_her_name_from_the_me_setting():
    from argparse import Namespace

    from assistant.commands.app import make_session
    from assistant.core.speech.settings import SpeechSettings

    assert make_session(Namespace(deck="uu-2nd", addon=[]), SpeechSettings(me="Ben")).me == "Ben"


def test_a_win_comes_before_a_turn_and_a_turn_before_a_move_that_took_her_card():
    took = fact(
        Topic.MOVE,
        "Ben destroyed Ana's Yay.",
        1,
        player="Ben",
        move=MoveKind.DESTROY,
        card="Yay",
        owner=0,
        at=3,
    )
    drew = fact(Topic.MOVE, "Cy drew a card.", 2, player="Cy", move=MoveKind.DRAW, at=2)
    turn = fact(Topic.TURN, "Cy's turn.", 2, player="Cy", at=1)
    said = missed([turn, drew, took], me=0).text
    assert said == f"{DIGEST_HEADING} Cy's turn. Ben destroyed Ana's Yay. Cy drew a card."
    taken_back = fact(Topic.WIN, "Win taken back.")  # a win undone: a win's fact, first
    said = missed([turn, drew, took, taken_back], me=0).text
    assert said == (f"{DIGEST_HEADING} Win taken back. Cy's turn. Ben destroyed Ana's Yay. Cy drew a card.")
    won = fact(Topic.WIN, "Ben wins!", 1, player="Ben", at=4)  # a turn before a win is moot: the win alone
    said = missed([turn, drew, took, won], me=0).text
    assert said == f"{DIGEST_HEADING} Ben wins! Ben destroyed Ana's Yay. Cy drew a card."


def test_a_long_digest_is_cut_at_the_bound_and_the_next_missed_says_the_rest_nothing_lost():
    session = bens_turn()
    for player in ("Ben", "Cy"):
        record(session, player, DeviceMove("draw"))
        record(session, player, DeviceMove("play", card="basic-unicorn-blue"))
        record(session, player, DeviceMove("resolve"))
        record(session, player, DeviceMove("end"))
    record(session, "Ana", DeviceMove("draw"))
    news = list(session.news)
    whole = missed(news, me=0, most=1000)  # (the whole digest, had it no bound)
    parts = [session.handle("missed")]
    while parts[-1].lines[-1] == MORE_MISSED:
        parts.append(session.handle("missed"))
    assert len(parts) >= 2 and len(whole.text.split()) > DIGEST_WORDS
    assert parts[0].lines[0].startswith(f"{DIGEST_HEADING} Ana's turn.")  # whose turn it is now, first
    assert all(len(part.speech.split()) <= DIGEST_WORDS for part in parts)
    assert all(part.lines[0].startswith(DIGEST_GOES_ON) for part in parts[1:])
    told: list[About] = []  # the same parts, by value: together they tell every fact of the whole, each once
    for part in parts:
        digest = missed(news, told, me=0)
        assert part.speech == digest.text
        told += digest.told
    assert sorted(told, key=lambda fact: words_for(fact, Audience.TABLE)) == sorted(
        whole.told, key=lambda fact: words_for(fact, Audience.TABLE)
    )
    assert len(told) == len(set(told))
    assert session.handle("missed").speech == NOTHING_MISSED


def test_a_move_made_between_two_parts_is_in_the_next_one_and_one_taken_back_is_not():
    session = bens_turn()
    for move in ("draw", "play", "resolve", "end"):
        record(session, "Ben", DeviceMove(move, card="basic-unicorn-blue" if move == "play" else None))
    record(session, "Cy", DeviceMove("draw"))
    record(session, "Cy", DeviceMove("play", card="basic-unicorn-red"))
    record(session, "Cy", DeviceMove("resolve"))
    first = session.handle("missed")
    assert first.lines[-1] == MORE_MISSED and "Cy 2 Unicorns." not in first.speech, first.speech
    record(session, "Cy", DeviceMove("undo"))  # the resolve: "Cy 2 Unicorns." is no longer so
    record(session, "Ben", DeviceMove("neigh", on="basic-unicorn-red"))
    parts = [session.handle("missed").speech]
    while parts[-1].endswith(MORE_MISSED):
        parts.append(session.handle("missed").speech)
    said = " ".join(parts)
    assert "Ben played Neigh on Cy's Basic Unicorn (Red)." in said and "Cy 2 Unicorns." not in said, said
    assert "Cy has 1 Unicorn." in said  # (what the undo changed: so it is now)


def test_one_players_moves_too_long_for_a_part_are_said_in_two():
    cards = [f"Basic Unicorn ({colour})" for colour in ("Red", "Blue", "Green", "Purple", "Yellow", "Orange")]
    moves = [
        fact(Topic.MOVE, f"Ben played {card}.", 1, player="Ben", move=MoveKind.PLAY, card=card, at=n)
        for n, card in enumerate(cards, 1)
    ]
    first = missed(moves)
    assert len(first.text.split()) <= DIGEST_WORDS and first.more
    second = missed(moves, first.told)
    assert not second.more and set(first.told) | set(second.told) == set(moves)
    assert second.text.startswith(f"{DIGEST_GOES_ON} Ben played Basic Unicorn")


def test_an_undo_takes_back_by_place_in_the_log_never_by_words():
    play = fact(Topic.MOVE, "Ben played Yay.", 1, player="Ben", move=MoveKind.PLAY, card="Yay", at=5)
    # the same words, a second Yay
    again = fact(Topic.MOVE, "Ben played Yay.", 1, player="Ben", move=MoveKind.PLAY, card="Yay", at=6)
    undo = fact(Topic.UNDO, "", move=MoveKind.UNDO, at=6)
    assert standing([play, again, undo]) == [play]
    assert standing([play, again, undo, fact(Topic.UNDO, "", move=MoveKind.REDO, at=6)]) == [play, again]
    turn = placed([fact(Topic.TURN, "Cy's turn.", 2, player="Cy")], 7)
    assert standing([*turn, fact(Topic.UNDO, "", move=MoveKind.UNDO, at=7)]) == []


def test_missed_in_llamas_unleashed_says_what_an_instant_answered_and_leaves_out_an_undone_move():
    lines = game_lines()
    session = game_after(lines[: lines.index("end turn") + 1])
    assert session.game is not None and session.game.table.setup.players == ("Ana", "Ben", "Cy", "Dee")
    record(session, "Ben", DeviceMove("draw"))
    record(session, "Ben", DeviceMove("play", card="basic-llama"))
    record(session, "Cy", DeviceMove("instant", card="spit-happens"))
    record(session, "Cy", DeviceMove("undo"))
    record(session, "Dee", DeviceMove("instant", card="spit-happens"))
    said = session.handle("missed").speech
    assert said == (
        f"{DIGEST_HEADING} Ben drew a card and played Basic Llama. Dee played Spit Happens on Ben's Basic Llama."
    ), said
    record(session, "Ben", DeviceMove("resolve"))  # Dee's Spit Happens stops the Llama (and Dee takes it)
    said = session.handle("missed").speech
    assert said == f"{DIGEST_HEADING} Dee's Spit Happens stopped Ben's Basic Llama.", said


def test_the_digest_keeps_the_newest_news_when_it_has_more_than_it_keeps(monkeypatch):
    """The session keeps a bounded list of other hands' news (a game's worth); over the bound, the oldest go and the
    newest stay: with room for 2 facts, "Cy's turn." and "Cy drew a card." stay, Ben's two moves before them go."""
    monkeypatch.setattr("assistant.session._NEWS_KEPT", 2)
    session = bens_turn()
    record(session, "Ben", DeviceMove("draw"))
    record(session, "Ben", DeviceMove("end"))  # Cy's turn
    record(session, "Cy", DeviceMove("draw"))
    assert session.handle("missed").speech == f"{DIGEST_HEADING} Cy's turn. Cy drew a card."


#: A busy round of four hands (Ana, at the laptop, ends her turn; Ben, Cy and Dee play theirs on their phones):
#: draws, a Neigh and a Super Neigh, Unicorn Poison destroying Ana's Basic Unicorn, its chain resolved, a discard.
BUSY_ROUND = [
    ("Ben", DeviceMove("draw")),
    ("Ben", DeviceMove("play", card="basic-unicorn-blue")),
    ("Cy", DeviceMove("neigh", on="basic-unicorn-blue")),
    ("Dee", DeviceMove("resolve")),
    ("Ben", DeviceMove("play", card="unicorn-poison")),
    ("Ben", DeviceMove("resolve")),
    ("Ben", DeviceMove("destroy", card="basic-unicorn-green", target="Ana")),
    ("Ben", DeviceMove("resolve")),  # "Chain resolved."
    ("Ben", DeviceMove("end")),
    ("Cy", DeviceMove("draw")),
    ("Cy", DeviceMove("play", card="basic-unicorn-red")),
    ("Cy", DeviceMove("resolve")),
    ("Cy", DeviceMove("discard")),
    ("Cy", DeviceMove("end")),
    ("Dee", DeviceMove("draw")),
    ("Dee", DeviceMove("play", card="yay")),
    ("Ben", DeviceMove("neigh", on="yay")),
    ("Dee", DeviceMove("super-neigh")),
    ("Cy", DeviceMove("resolve")),
    ("Dee", DeviceMove("end")),
]
#: The busy round's digest: whose turn, the move that took her card with her count after it, then each player's
#: sentence with that player's count after it; what changed no Stable left out (the draws, the discard, the plays
#: Instants stopped and those Instants), and the chain's end.
BUSY_DIGEST = [
    f"{DIGEST_HEADING} Ana's turn. Ben played Unicorn Poison and destroyed Ana's Basic Unicorn (Green). Ana 1 Unicorn."
    f" {MORE_MISSED}",
    f"{DIGEST_GOES_ON} Cy played Basic Unicorn (Red). Cy 2 Unicorns. Dee played Yay.",
]


#: A busy Llamas Unleashed round: Spit Happens stops (and takes) Ben's Basic Llama, a Goat played, Ben's Spit Happens
#: stops Dee's Basic Ram; draws and a discard. It fits once the draws and the discard are left out: the stops stay.
LLAMAS_ROUND = [
    ("Ben", DeviceMove("draw")),
    ("Ben", DeviceMove("play", card="basic-llama")),
    ("Cy", DeviceMove("instant", card="spit-happens")),
    ("Dee", DeviceMove("resolve")),
    ("Ben", DeviceMove("discard")),
    ("Ben", DeviceMove("end")),
    ("Cy", DeviceMove("draw")),
    ("Cy", DeviceMove("play", card="basic-goat")),
    ("Cy", DeviceMove("resolve")),
    ("Cy", DeviceMove("end")),
    ("Dee", DeviceMove("draw")),
    ("Dee", DeviceMove("play", card="basic-ram")),
    ("Ben", DeviceMove("instant", card="spit-happens")),
    ("Dee", DeviceMove("resolve")),
    ("Dee", DeviceMove("end")),
]
#: Each turn's moves in their own sentences, in the order played (before, issue 107: "Ben played Basic Llama and
#: stopped Dee's Basic Ram with Spit Happens.", his play and his Instant two turns later told as one turn); a card
#: stopped right after the sentence that played it said "it" (before: "Cy stopped Ben's Basic Llama with Spit
#: Happens.", the card named twice in a row).
LLAMAS_DIGEST = [
    f"{DIGEST_HEADING} Ana's turn. Ben played Basic Llama. Cy stopped it with Spit Happens. {MORE_MISSED}",
    f"{DIGEST_GOES_ON} Cy played Basic Goat. Cy 2 Animals. Dee played Basic Ram. Ben stopped it with Spit Happens.",
]


def busy_round(edition: str = "unicorns") -> Session:
    if edition == "llamas":
        lines = game_lines()
        session = game_after(lines[: lines.index("end turn") + 1])
        moves = LLAMAS_ROUND
    else:
        session = game_after(
            ["new game Ana Ben Cy Dee babies red pink orange yellow", "bring basic green into Ana", "draw", "end turn"]
        )
        moves = BUSY_ROUND
    for player, move in moves:
        record(session, player, move)
    return session


@pytest.mark.parametrize(("edition", "digest"), [("unicorns", BUSY_DIGEST), ("llamas", LLAMAS_DIGEST)])
def test_a_busy_round_of_four_hands_is_said_in_two_parts_each_sentence_under_its_player(edition, digest):
    """Before, in Unstable Unicorns: five parts (109 words), "Destroy a Unicorn." and "Chain resolved." said between
    other players' sentences, Ana's count three sentences after the move that took her card."""
    session = busy_round(edition)
    parts = [session.handle("missed").speech, session.handle("missed").speech]
    assert parts == digest, parts
    assert session.handle("missed").speech == NOTHING_MISSED


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize("edition", ["unicorns", "llamas"])
def test_a_busy_rounds_digest_is_heard_in_about_15_seconds_at_her_default_rate(tmp_path, edition):
    """Rendered by espeak-ng at the default settings' rate (175 words a minute): both parts together about 15 s
    (measured 15.3 s and 15.3 s, each turn's moves a sentence of their own that names its player, a card stopped
    right after the sentence that played it said "it": 17.0 s in Llamas when the stop named it again, 16.5 s when
    Ben's Instant of a later turn was merged into his play; before: 30.5 s over four commands, measured in the app)."""
    session = busy_round(edition)
    seconds = [spoken_seconds(session.handle("missed").speech, tmp_path) for _ in range(2)]
    assert sum(seconds) <= 16.0, seconds
    assert session.handle("missed").speech == NOTHING_MISSED  # nothing waited for a third


def spoken_seconds(text: str, folder: Path) -> float:
    """How long espeak-ng takes to say `text` at the default rate (the WAV file's length)."""
    path = folder / "said.wav"
    subprocess.run(["espeak-ng", "-s", "175", "-w", str(path), text], check=True, timeout=60)
    with wave.open(str(path)) as sound:
        return sound.getnframes() / sound.getframerate()


def test_a_duty_still_open_is_said_with_its_players_name_after_that_players_sentence():
    """Before: "Destroy a Unicorn." said with no name, after the sentence of another player (here Cy's)."""
    session = game_after(
        ["new game Ana Ben Cy Dee babies red pink orange yellow", "bring basic green into Ana", "draw", "end turn"]
    )
    for player, move in [
        ("Ben", DeviceMove("draw")),
        ("Cy", DeviceMove("draw")),
        ("Ben", DeviceMove("play", card="unicorn-poison")),
        ("Ben", DeviceMove("resolve")),  # Unicorn Poison's duty: Ben destroys a Unicorn
    ]:
        record(session, player, move)
    said = session.handle("missed").speech
    assert said == (
        f"{DIGEST_HEADING} Ben drew a card and played Unicorn Poison. Ben: Destroy a Unicorn. Cy drew a card."
    ), said

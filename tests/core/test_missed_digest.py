"""`missed` is true and short: a move taken back is no news, whose card a move took and what an Instant answered
are said, a win and whose turn it is now come first, then the moves that took her cards; a part says at most
`DIGEST_WORDS` words and the next `missed` says the rest, nothing lost between them. Both editions."""

from __future__ import annotations

from assistant.core.game.about import About, Topic
from assistant.core.language.device import DeviceMove
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
from assistant.session import Session
from assistant.storage.decks import load_card_set
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
    outcome = session.device_move(player, move)
    if outcome.status == "warning":
        outcome = session.device_answer(player, outcome.question, True)
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


def test_whose_card_a_move_took_and_what_a_neigh_answered_are_said_her_cards_first():
    session = bens_turn()
    record(session, "Ben", DeviceMove("play", card="basic-unicorn-blue"))
    record(session, "Cy", DeviceMove("neigh", on="basic-unicorn-blue"))
    record(session, "Cy", DeviceMove("destroy", card="rainbow-aura", target="Ana"))
    said = session.handle("missed").speech
    assert said == (
        f"{DIGEST_HEADING} Cy played Neigh on Ben's Basic Unicorn (Blue) and destroyed Ana's Rainbow Aura."
        " Ben played Basic Unicorn (Blue)."
    ), said  # her card taken: first, though Ben's move was recorded before Cy's


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
    assert [fact.text for fact in digest.facts] == ["Ben wins!"]  # typed: held as the reply's decisive fact


def test_the_app_s_session_knows_her_name_from_the_me_setting():
    from argparse import Namespace

    from assistant.commands.app import make_session
    from assistant.core.speech.settings import SpeechSettings

    assert make_session(Namespace(deck="uu-2nd", addon=[]), SpeechSettings(me="Ben")).me == "Ben"


def test_a_win_comes_before_a_turn_and_a_turn_before_a_move_that_took_her_card():
    took = About(Topic.MOVE, "Ben destroyed Yay in Ana's Stable.", (1,), "Ben", "destroy", "Yay", owner=0, at=3)
    drew = About(Topic.MOVE, "Cy drew a card.", (2,), "Cy", "draw", at=2)
    turn = About(Topic.TURN, "Cy's turn.", (2,), "Cy", at=1)
    said = missed([turn, drew, took], me=0).text
    assert said == f"{DIGEST_HEADING} Cy's turn. Ben destroyed Yay in Ana's Stable. Cy drew a card."
    taken_back = About(Topic.WIN, "The game's end is taken back.")  # a win, once undone, still comes first
    assert missed([drew, took, taken_back], me=0).text.startswith(f"{DIGEST_HEADING} The game's end is taken back.")


def test_a_long_digest_is_cut_at_the_bound_and_the_next_missed_says_the_rest_nothing_lost():
    session = bens_turn()
    for player in ("Ben", "Cy"):
        record(session, player, DeviceMove("draw"))
        record(session, player, DeviceMove("play", card="basic-unicorn-blue"))
        record(session, player, DeviceMove("resolve"))
        record(session, player, DeviceMove("end"))
    record(session, "Ana", DeviceMove("draw"))
    everything = missed(session.news, me=0)  # (the whole digest, had it no bound)
    whole = missed(session.news, me=0, most=1000)
    first = session.handle("missed")
    assert first.speech == everything.text and first.lines[-1] == MORE_MISSED
    assert len(first.speech.split()) <= DIGEST_WORDS < len(whole.text.split())
    second = session.handle("missed")
    assert second.lines[0].startswith(DIGEST_GOES_ON) and len(second.speech.split()) <= DIGEST_WORDS
    parts = [first.speech, second.speech]
    while parts[-1].endswith(MORE_MISSED):
        parts.append(session.handle("missed").speech)
    told = " ".join(part.removesuffix(MORE_MISSED) for part in parts)
    for fact in whole.told:  # every fact of the whole digest, said in one part or another
        assert fact.text in told or (fact.move and fact.player in told), fact
    assert "Ana's turn." in parts[0]  # whose turn it is now, first
    assert session.handle("missed").speech == NOTHING_MISSED


def test_one_players_moves_too_long_for_a_part_are_said_in_two():
    cards = [f"Basic Unicorn ({colour})" for colour in ("Red", "Blue", "Green", "Purple", "Yellow", "Orange")]
    moves = [
        About(Topic.MOVE, f"Ben played {card}.", (1,), "Ben", "play", card, at=n) for n, card in enumerate(cards, 1)
    ]
    first = missed(moves)
    assert len(first.text.split()) <= DIGEST_WORDS and first.more
    second = missed(moves, first.told)
    assert not second.more and set(first.told) | set(second.told) == set(moves)
    assert second.text.startswith(f"{DIGEST_GOES_ON} Ben played Basic Unicorn")


def test_an_undo_takes_back_by_place_in_the_log_never_by_words():
    play = About(Topic.MOVE, "Ben played Yay.", (1,), "Ben", "play", "Yay", at=5)
    again = About(Topic.MOVE, "Ben played Yay.", (1,), "Ben", "play", "Yay", at=6)  # the same words, a second Yay
    undo = About(Topic.UNDO, "", move="undo", at=6)
    assert standing([play, again, undo]) == [play]
    assert standing([play, again, undo, About(Topic.UNDO, "", move="redo", at=6)]) == [play, again]
    turn = placed([About(Topic.TURN, "Cy's turn.", (2,), "Cy")], 7)
    assert standing([*turn, About(Topic.UNDO, "", move="undo", at=7)]) == []


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

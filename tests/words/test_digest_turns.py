"""A digest says what happened in order (issue 107): a player's moves are merged into one sentence within one turn
only (`words.pace.merge_moves`, the one rule the pause's digest, `missed` and a phone's held words follow), a turn's
end closes its player's sentence, and a player's same move made again in a row is said once with a count ("Ben drew
2 cards.")."""

from __future__ import annotations

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.segment import Segment, Verbatim
from assistant.core.language.device import DeviceMove
from assistant.core.words.audience import Audience
from assistant.core.words.pace import DIGEST_HEADING, merge_moves, merge_said, missed
from assistant.core.words.worded import segment_words, words_for
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.facts import fact, said

NAMES = ("Ana", "Ben", "Cy", "Dee")


def move(seat: int, kind: MoveKind, text: str, at: int, turn: int, card: str = "", **values: object) -> About:
    return fact(Topic.MOVE, text, seat, player=NAMES[seat], move=kind, card=card, at=at, turn=turn, **values)


def drew(seat: int, at: int, turn: int) -> About:
    return move(seat, MoveKind.DRAW, f"{NAMES[seat]} drew a card.", at, turn)


def ended(seat: int, at: int, turn: int) -> About:
    return move(seat, MoveKind.END, f"{NAMES[seat]} ended the turn.", at, turn)


def played(seat: int, card: str, at: int, turn: int) -> About:
    return move(seat, MoveKind.PLAY, f"{NAMES[seat]} played {card}.", at, turn, card)


def texts(facts: list[About]) -> list[str]:
    return [said(one) for one in facts]


#: Dee's turn 4 ends; Ana's turn 5 (her own moves: not in the digest); Dee's turn 8 (Ben's and Cy's between).
TWO_TURNS = [
    played(3, "Basic Unicorn (Yellow)", 10, 4),
    ended(3, 12, 4),
    drew(1, 20, 6),
    ended(1, 21, 6),
    drew(3, 30, 8),
    ended(3, 31, 8),
]


def test_moves_of_two_turns_of_one_player_are_never_one_sentence():
    said = texts(merge_moves(TWO_TURNS))
    assert said == [
        "Dee played Basic Unicorn (Yellow) and ended the turn.",
        "Ben drew a card and ended the turn.",
        "Dee drew a card and ended the turn.",
    ], said


def test_a_turns_end_closes_its_players_sentence_where_the_turn_is_not_known():
    unknown = [ended(3, 12, 0), drew(3, 30, 0), ended(3, 31, 0)]
    assert texts(merge_moves(unknown)) == ["Dee ended the turn.", "Dee drew a card and ended the turn."]


def test_the_same_move_again_in_a_row_is_said_once_with_a_count():
    facts = [drew(1, 3, 2), drew(1, 4, 2), played(1, "Yay", 5, 2), drew(1, 6, 2)]
    (sentence,) = merge_moves(facts)
    assert said(sentence) == "Ben drew 2 cards, played Yay and drew a card.", said(sentence)
    assert sentence.parts == tuple(facts)  # every move still told, each typed
    assert words_for(sentence, Audience.OWN_PHONE) == "You drew 2 cards, played Yay and drew a card."
    neighs = [move(2, MoveKind.NEIGH, "Cy played Neigh.", n, 3, "Neigh") for n in (7, 9)]
    assert texts(merge_moves(neighs)) == ["Cy played Neigh twice."]


def test_missed_never_merges_two_turns_of_a_player():
    digest = missed(TWO_TURNS, me=0, most=60).text
    assert digest == (
        f"{DIGEST_HEADING} Dee played Basic Unicorn (Yellow) and ended the turn. Ben drew a card and ended the turn."
        " Dee drew a card and ended the turn."
    ), digest


def test_a_phones_held_words_obey_the_turn_boundary_too():
    segments = [Segment(Verbatim(said(one)), (one,)) for one in (drew(3, 30, 8), ended(3, 31, 8), drew(3, 40, 12))]
    assert [segment_words(segment, Audience.TABLE) for segment in merge_said(segments)] == [
        "Dee drew a card and ended the turn.",
        "Dee drew a card.",
    ]


def test_in_a_real_game_each_move_knows_its_turn_and_missed_says_each_turn_apart():
    session = Session(load_card_set(), load_cards=load_card_set)
    for line in ("new game Ana Ben Cy babies red pink orange", "draw", "end turn"):
        session.handle(line)
    for player, kind in (("Ben", "draw"), ("Ben", "end"), ("Cy", "draw"), ("Cy", "end")):
        outcome = session.phone_desk.device_move(player, DeviceMove(kind))
        if outcome.status == "warning":
            outcome = session.phone_desk.device_answer(player, outcome.question, True)
        assert outcome.status == "recorded"
    session.handle("draw")  # Ana's turn again: her move; the digest starts after it
    session.handle("end turn")
    for player, kind in (("Ben", "draw"), ("Ben", "end"), ("Cy", "draw")):
        session.phone_desk.device_move(player, DeviceMove(kind))
    moves = [fact for fact in session.news if fact.topic is Topic.MOVE]
    assert [one.turn for one in moves] == [5, 5, 6], [(said(one), one.turn) for one in moves]
    digest = session.handle("missed").speech
    assert digest == f"{DIGEST_HEADING} Cy's turn. Ben drew a card. Cy drew a card.", digest


def test_a_players_sentence_says_the_moves_in_the_order_recorded_though_one_was_folded_first():
    """The benchmark's digest said "Cy destroyed Ben's Basic Unicorn (Orange), drew a card and played Unicorn
    Poison.": the destroy, cut once and folded, came first among the facts."""
    orange = "Basic Unicorn (Orange)"
    destroyed = move(2, MoveKind.DESTROY, f"Cy destroyed Ben's {orange}.", 9, 3, orange, owner=1, whose="Ben")
    facts = [destroyed, drew(2, 6, 3), played(2, "Unicorn Poison", 7, 3)]
    assert texts(merge_moves(facts)) == [f"Cy drew a card, played Unicorn Poison and destroyed Ben's {orange}."]

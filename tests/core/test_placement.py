"""Who without words (assistant/core/speech/placement.py): each seat heard where that player sits, and an earcon
for the moves that matter to the listener, on typed values."""

from __future__ import annotations

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.segment import Segment, Verbatim
from assistant.core.speech.placement import ACROSS, OUTERMOST, Seating, move_earcon, seating, sentence_places
from assistant.core.speech.queue import SpeechQueue
from assistant.core.speech.utterance import Utterance
from tests.facts import fact


def move(seat: int, kind: str, card: str = "", owner: int | None = None, at: int = 0) -> About:
    name = ("Ana", "Ben", "Cy", "Dee")[seat]
    return About(Topic.MOVE, (seat,), name, MoveKind(kind), card, owner=owner, at=at)


def test_each_other_seat_is_heard_where_that_player_sits_around_the_listener_and_none_in_her_middle():
    four = Seating(4, listener=0)
    assert [four.place(seat) for seat in range(4)] == [0.0, -OUTERMOST, ACROSS, OUTERMOST]  # left, across, right
    assert [Seating(4, listener=2).place(seat) for seat in range(4)] == [ACROSS, OUTERMOST, 0.0, -OUTERMOST]
    assert Seating(4, 0, reversed=True).place(1) == OUTERMOST  # turns passing to the right
    assert Seating(4, 0, across=-1).place(2) == -ACROSS  # the player across heard at her left, as she set it
    assert Seating(2).place(1) == ACROSS and Seating(5).place(2) < 0 < Seating(5).place(3)
    assert four.place(None) == four.place(7) == 0.0
    for players in range(2, 9):  # whoever sits across, her own voice's middle is hers alone
        assert all(Seating(players).place(seat) != 0.0 for seat in range(1, players))


def test_the_listener_is_found_by_her_name_in_any_case_and_off_places_nothing():
    assert seating(("Ana", "Ben", "Cy"), "BEN", "seats") == Seating(3, 1)
    assert seating(("Ana", "Ben", "Cy"), "", "seats") == Seating(3, 0)  # no name: the first player
    assert seating(("Ana", "Ben"), "Ben", "off") is None and seating((), "Ana", "seats") is None
    assert seating(("Ana", "Ben", "Cy", "Dee"), "Ana", "seats", across="left") == Seating(4, 0, across=-1)


def test_a_merged_burst_places_each_players_sentence_at_that_players_seat():
    queue = SpeechQueue()
    queue.add(Utterance("Ana's Stable: 2 Unicorns. More."))
    queue.take()
    queue.arrive(Utterance("Ben drew a card.", tells=(move(1, "draw", at=1),)))
    queue.arrive(Utterance("Dee played Neigh.", tells=(move(3, "play", "Neigh", at=2),)))
    queue.arrive(Utterance("Cy: 2 Unicorns. Cy played Yay.", tells=(move(2, "play", "Yay", at=3),)))
    waiting = queue.waiting[0]
    places = sentence_places(waiting, Seating(4))
    assert places == (-OUTERMOST, OUTERMOST, ACROSS, ACROSS)  # Ben at her left, Dee at her right, Cy across
    own = Utterance("Ana drew a card. Action phase.")
    assert sentence_places(own, Seating(4)) == ()  # her own words: in the middle


def test_every_sentence_of_another_hands_reply_is_heard_at_that_hands_seat_its_resolves_counts_and_joins_too():
    four = Seating(4)
    resolved = fact(Topic.CHAIN_DONE, "Chain resolved.")
    count = fact(Topic.COUNT, "Ben 2 Unicorns.", 1, player="Ben")
    resolve = Utterance("Chain resolved. Ben 2 Unicorns. Yay enters Ben's Stable.", facts=(resolved, count), hand=1)
    queue = SpeechQueue()
    queue.arrive(resolve)  # a resolve from Ben's phone: no move of a card, his seat all the same
    assert sentence_places(queue.take(), four) == (-OUTERMOST,) * 3
    joined = Utterance("Cy's phone joined the table. It records for Cy.", other=True, hand=2)
    assert sentence_places(joined, four) == (ACROSS, ACROSS)
    warned = Utterance("Dee's phone is asked whether to record it anyway. Dee can't Neigh now.", other=True, hand=3)
    assert sentence_places(warned, four) == (OUTERMOST, OUTERMOST)
    mine = Utterance("Chain resolved. Ana 2 Unicorns.", facts=(resolved,), hand=None)
    assert sentence_places(mine, four) == ()  # her own key's resolve: the middle


def test_an_earcon_for_a_card_of_hers_taken_a_neigh_and_a_play_to_the_pile_the_one_that_matters_most():
    four = Seating(4, listener=0)

    def heard(*moves: About, other: bool = True) -> str:
        return move_earcon(Utterance("Words.", tells=moves, other=other), four)

    assert heard(move(1, "destroy", "Yay", owner=0)) == "lost-card"
    assert heard(move(1, "destroy", "Yay", owner=2)) == ""  # another's card: no sound of its own
    assert heard(move(2, "neigh", "Neigh")) == heard(move(2, "instant", "Dodge")) == "neigh"
    assert heard(move(3, "play", "Yay")) == "pile"
    assert heard(move(3, "draw")) == heard() == ""
    assert heard(move(3, "play", "Yay"), other=False) == ""  # her own key's words: none
    burst = Utterance(folded=(move(1, "play", "Yay"),), other=True, tells=(move(2, "neigh", "Neigh", at=2),),
                      segments=(Segment(Verbatim("Cy played Neigh. Words.")),))  # fmt: skip
    assert move_earcon(burst, four) == "neigh"  # in a merged burst: the move that matters most

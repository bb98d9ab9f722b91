"""Tests written for the mutants a mutation run of the game engine left alive (docs/mutation.md).

Each asserts a behaviour of the typed core — `Game`, `Table`, records, states, the tally — at the edge the mutant
moved: a boundary (`<` for `<=`), a branch joined with the wrong `and`/`or`, a `continue` turned into `break`, a
save record's exact form. The tally and chain tests use small made-up decks, so each card does one thing.
"""

from __future__ import annotations

import pytest

from assistant.core.cards.card import Card, CardSet, CardType, Deck, DeckInfo, Tag, Vocabulary
from assistant.core.game.chain import (
    PileCard,
    PileStep,
    Trigger,
    TriggerKind,
    answers_animal,
    begin_turn_link,
    counter_drawers,
    is_neigh,
    is_plain_neigh,
    resolve_top,
    takes_stopped,
    variations_of,
)
from assistant.core.game.events import Bring, Draw, EventError, Resolve, Source
from assistant.core.game.history import (
    MAX_UNDO,
    Game,
    NothingToUndoError,
    Record,
    read_record,
    record_to_dict,
    replay,
)
from assistant.core.game.rules import HandLimitRule, Rules
from assistant.core.game.setup import Setup
from assistant.core.game.tally import Ending, Outcome, hand_limit, herd, most_unicorns, name_letters
from assistant.storage.decks import load_card_set

CARDS = load_card_set("uu-2nd")


def new_game() -> Game:
    return Game.new(Setup(("Ana", "Ben"), "uu-current"), CARDS)


# --- history.py: save records -------------------------------------------------------------------------------


def test_undo_and_redo_lines_read_as_records_with_their_count():
    table = new_game().table
    assert read_record({"e": "undo"}, table) == Record("undo", count=1)
    assert read_record({"e": "redo"}, table) == Record("redo", count=1)
    assert read_record({"e": "undo", "n": 3}, table) == Record("undo", count=3)
    assert read_record({"e": "redo", "n": MAX_UNDO}, table) == Record("redo", count=MAX_UNDO)


def test_an_event_whose_line_has_only_its_name_is_an_event_not_an_undo():
    table = new_game().table
    assert read_record({"e": "resolve"}, table) == Record("event", Resolve())


@pytest.mark.parametrize("count", [0, -1, True, "2", 2.0])
def test_an_undo_count_out_of_range_or_not_a_whole_number_is_a_damaged_line_that_names_it(count):
    with pytest.raises(EventError, match=f"^{count!r} is not a number of events$"):
        read_record({"e": "undo", "n": count}, new_game().table)


def test_the_reader_takes_any_count_the_writer_writes_and_replay_refuses_more_than_the_game_holds():
    table = new_game().table
    assert read_record({"e": "undo", "n": MAX_UNDO + 1}, table) == Record("undo", count=MAX_UNDO + 1)
    with pytest.raises(NothingToUndoError):
        replay(new_game(), Record("undo", count=MAX_UNDO + 1))


@pytest.mark.parametrize(
    ("record", "line"),
    [
        (Record("undo"), {"e": "undo"}),
        (Record("redo", count=2), {"e": "redo", "n": 2}),
        (Record("event", Draw(1, 2)), Draw(1, 2).to_dict()),
    ],
)
def test_a_record_is_written_in_its_shortest_form_and_reads_back_the_same(record, line):
    assert record_to_dict(record) == line
    assert read_record(line, new_game().table) == record


# --- history.py: undo and redo -------------------------------------------------------------------------------


def test_undo_and_redo_of_more_events_than_there_are_say_how_many_there_are_and_change_nothing():
    game = new_game()
    game.push(Draw(0, 1))
    game.push(Draw(1, 1))
    with pytest.raises(NothingToUndoError, match="^only 2 events to undo$"):
        game.undo(3)
    assert len(game.log) == 2
    assert len(replay(game, Record("undo", count=2))) == 2
    assert game.log == [] and game.state == game.state_before(0)
    with pytest.raises(NothingToUndoError, match="^only 2 events to redo$"):
        game.redo_many(3)
    assert replay(game, Record("redo", count=2)) and game.log == [Draw(0, 1), Draw(1, 1)]


def test_the_json_form_of_a_game_has_its_setup_rules_position_tally_events_and_what_was_undone():
    game = new_game()
    game.push(Bring(0, "basic-unicorn-red", 0, Source.HAND))
    game.push(Draw(1, 2))
    game.pop()
    data = game.to_dict()
    assert set(data) == {"setup", "rules", "state", "tally", "events", "undone"}
    assert data["setup"] == game.setup.to_dict() and data["state"] == game.state.to_dict()
    profile = game.table.profile
    assert data["rules"] == {"id": "uu-current", "title": profile.title, "rulebook": profile.rulebook}
    assert profile.title and profile.rulebook
    assert data["tally"] == [1, 0]
    assert data["events"] == [Bring(0, "basic-unicorn-red", 0, Source.HAND).to_dict()]
    assert data["undone"] == [Draw(1, 2).to_dict()]


# --- tally.py: a made-up deck where each card does one thing -------------------------------------------------


def _card(card_id: str, name: str, card_type: CardType, *tags: Tag, variation: str | None = None) -> Card:
    return Card(card_id, name, card_type, 1, name, "made-up", frozenset(tags), variation)


def _deck(*cards: Card) -> CardSet:
    info = DeckInfo("made-up", "Made-up deck", "test", "unstable-unicorns", "base", Vocabulary.UNICORN, True)
    return CardSet([Deck(info, cards)])


TALLY_CARDS = _deck(
    _card("basic", "Basic Unicorn", CardType.BASIC),  # 12 letters
    _card("ginny", "Ginny", CardType.MAGICAL),  # 5 letters
    _card("aura", "Rainbow Aura", CardType.UPGRADE),
    _card("mask", "Pandamonium", CardType.DOWNGRADE, Tag.NOT_A_UNICORN_EFFECT),
    _card("blessing", "Blessing", CardType.UPGRADE, Tag.SILENCES_DOWNGRADES),
    _card("shrink", "Shrink", CardType.DOWNGRADE, Tag.HAND_LIMIT_CHANGE),
    _card("famine", "Famine", CardType.DOWNGRADE, Tag.HAND_LIMIT_CHANGE),
    _card("bag", "Bag", CardType.UPGRADE, Tag.HAND_LIMIT_CHANGE),
    _card("weight", "Weight", CardType.DOWNGRADE, Tag.HAND_LIMIT_CHANGE),
    _card("mystery", "Mystery", CardType.UPGRADE, Tag.HAND_LIMIT_CHANGE),
    _card("llama", "Llama", CardType.BASIC, variation="llama"),
)
TALLY_RULES = Rules(
    {},
    (),
    False,
    hand_limits={
        "shrink": HandLimitRule(set=3),
        "famine": HandLimitRule(set=2, everyone=True),
        "bag": HandLimitRule(add=3),
        "weight": HandLimitRule(add=-5),
    },
)


def limit_of(player: int, *stables: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
    found = hand_limit(player, stables, TALLY_CARDS, TALLY_RULES, 7)
    return found.limit, found.unknown


def test_a_silenced_downgrade_leaves_the_hand_limit_alone_and_the_rest_of_its_stable_still_counts():
    assert limit_of(0, ("shrink", "bag")) == (6, ())
    assert limit_of(0, ("blessing", "shrink", "bag")) == (10, ())
    assert limit_of(0, ("blessing", "bag", "shrink")) == (10, ())


def test_another_players_own_limit_card_is_passed_over_and_their_card_for_everyone_still_counts():
    assert limit_of(0, (), ("shrink", "famine")) == (2, ())
    assert limit_of(1, (), ("shrink", "famine")) == (2, ())
    assert limit_of(0, (), ("shrink",)) == (7, ())


def test_a_hand_limit_brought_below_zero_is_zero():
    assert limit_of(0, ("weight",)) == (2, ())
    assert limit_of(0, ("shrink", "weight")) == (0, ())


def test_only_the_players_own_cards_tagged_as_changing_the_limit_without_a_number_are_named_once():
    assert limit_of(0, ("basic", "aura", "mystery", "mystery"), ("mystery",)) == (7, ("mystery",))
    assert limit_of(0, ("basic",), ("mystery",)) == (7, ())
    assert limit_of(0, ("basic", "no-such-card")) == (7, ())


def test_a_herd_counts_the_animals_after_a_card_that_is_not_one():
    assert herd(("aura", "llama", "basic", "llama"), TALLY_CARDS, TALLY_RULES) == {"llama": 2}


def test_name_letters_counts_the_letters_of_the_unicorns_that_count_and_nothing_else():
    assert name_letters(("basic",), TALLY_CARDS) == 12
    assert name_letters(("basic", "aura", "ginny"), TALLY_CARDS) == 17
    assert name_letters(("basic", "mask"), TALLY_CARDS) == 0
    assert name_letters((), TALLY_CARDS) == 0


def test_when_every_player_is_barred_from_winning_the_deck_out_has_no_winner():
    assert most_unicorns((("basic",), ("ginny",)), TALLY_CARDS, frozenset({0, 1})) == Outcome(Ending.NO_WINNER)


def test_a_barred_player_with_the_most_unicorns_loses_to_a_player_with_none():
    assert most_unicorns((("basic", "ginny"), ()), TALLY_CARDS, frozenset({0})) == Outcome(Ending.MOST, 1)


def test_a_deck_out_outcome_is_written_with_its_ending_winner_and_the_tied_players():
    assert Outcome(Ending.LETTERS, 1, (0, 1)).to_dict() == {"ending": "letters", "winner": 1, "tied": [0, 1]}
    assert Outcome(Ending.NO_WINNER).to_dict() == {"ending": "no-winner", "winner": None, "tied": []}


# --- chain.py: the Instant pile and the links of the effect chain --------------------------------------------

CHAIN_CARDS = _deck(
    _card("claw", "Claw", CardType.MAGICAL, Tag.BEGIN_TURN_TRIGGER),
    _card("maybe", "Maybe", CardType.UPGRADE, Tag.BEGIN_TURN_OPTIONAL),
    _card("basic", "Basic Unicorn", CardType.BASIC),
    _card("llama", "Llama", CardType.BASIC, variation="llama"),
    _card("neigh", "Neigh", CardType.INSTANT, Tag.NEIGH),
    _card("super", "Super Neigh", CardType.INSTANT, Tag.NEIGH, Tag.SUPER_NEIGH),
    _card("hard-no", "Hard No", CardType.INSTANT, Tag.SUPER_NEIGH),
    _card("shout", "Shout", CardType.INSTANT),
    _card("emu", "Emu Attack", CardType.INSTANT, Tag.ANSWERS_ANIMAL),
    _card("emu-stop", "Emu Stop", CardType.INSTANT, Tag.ANSWERS_ANIMAL, Tag.NEIGH),
    _card("both", "Both Draw", CardType.INSTANT, Tag.BOTH_DRAW),
    _card("spit", "Spit", CardType.INSTANT, Tag.NEIGH, Tag.TAKES_STOPPED, variation="llama"),
    _card("llama-no", "Llama No", CardType.INSTANT, Tag.NEIGH, variation="llama"),
)


def chain_card(card_id: str) -> Card | None:
    return CHAIN_CARDS.get(card_id)


def test_a_beginning_of_turn_link_is_the_owners_mandatory_then_optional_effects_then_herd_bonuses():
    link = begin_turn_link(("maybe", "basic", "claw"), 1, CHAIN_CARDS, {"llama": 3, "goat": 2}, 3)
    assert link == (
        Trigger("claw", 1, TriggerKind.BEGIN),
        Trigger("maybe", 1, TriggerKind.BEGIN_OPTIONAL),
        Trigger("llama", 1, TriggerKind.HERD),
    )


def test_a_card_tagged_only_super_neigh_stops_a_card_and_a_super_neigh_is_no_plain_neigh():
    assert is_neigh(chain_card("hard-no")) and is_neigh(chain_card("neigh"))
    assert not is_neigh(chain_card("shout")) and not is_neigh(None)
    assert is_plain_neigh(chain_card("neigh"))
    assert not is_plain_neigh(chain_card("super")) and not is_plain_neigh(chain_card("hard-no"))


def test_only_a_card_tagged_to_answer_an_animal_that_does_not_stop_it_answers_one():
    assert answers_animal(chain_card("emu"))
    assert not answers_animal(chain_card("emu-stop"))
    assert not answers_animal(chain_card("shout")) and not answers_animal(None)


def test_a_card_that_stops_nothing_lets_nobody_draw_whatever_its_tags():
    played, answer = PileCard(0, "basic", into=0), PileCard(1, "both")
    assert counter_drawers(chain_card("both"), answer, played, CHAIN_CARDS) == ()
    assert counter_drawers(None, answer, played, CHAIN_CARDS) == ()


def test_only_a_counter_tagged_to_take_what_it_stopped_takes_a_card_of_its_variation():
    assert takes_stopped(chain_card("spit"), chain_card("llama"))
    assert not takes_stopped(chain_card("llama-no"), chain_card("llama"))
    assert not takes_stopped(chain_card("spit"), chain_card("basic"))
    assert not takes_stopped(None, chain_card("llama"))


def test_a_card_with_no_variation_or_no_card_is_of_no_variation():
    assert variations_of(None) == frozenset() and variations_of(chain_card("basic")) == frozenset()
    assert variations_of(chain_card("llama")) == {"llama"}


def test_each_resolution_of_the_pile_says_exactly_what_left_it_and_what_stays():
    played, neigh, shout = PileCard(0, "basic", into=0), PileCard(1, "neigh"), PileCard(1, "shout")
    assert resolve_top((), CHAIN_CARDS) == PileStep(())
    assert resolve_top((played,), CHAIN_CARDS) == PileStep((), resolved=played)
    assert resolve_top((played, neigh), CHAIN_CARDS) == PileStep((), stopped=played, stopper=neigh)
    shielded = resolve_top((played, neigh), CHAIN_CARDS, lambda _: "yay")
    assert shielded == PileStep((played,), stopper=neigh, shield="yay")
    assert resolve_top((played, neigh, shout), CHAIN_CARDS) == PileStep((played, neigh), instant=shout)

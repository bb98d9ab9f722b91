"""Instants as cards, not as one verb (Llamas Unleashed, rulebook 004; the pile as rulebook 000 "Resolving Instant
Cards" describes it), and a deck count that is true.

The Llamas counters stop the card being played like a Neigh, each with a twist of its own: Spit Happens, Alpaca Your
Bags, Baaa'd Move! and Don't Kid Yourself! (`takes_stopped`) send a stopped card of their own variation to their
player's hand; Goatsundheit (`both_draw`) lets both players draw; Llama Stop You Right There (`draws_if_instant`)
lets its own player draw when it stops an Instant; Surprise Emu Attack (`answers_animal`) does not stop the Animal
card played, and destroys an Animal in that player's Field. The deck here is the tests' own
(tests/fixtures/llamas_instants.toml).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.commands.app import table_session
from assistant.core.cards.card import CardSet, CardType
from assistant.core.cards.cardfile import parse_deck
from assistant.core.game import events as ev
from assistant.core.game import facts as ft
from assistant.core.game import objections as ob
from assistant.core.game.chain import PileCard, Trigger, TriggerKind
from assistant.core.game.history import Game
from assistant.core.game.setup import Setup
from assistant.core.language.reply import Choice
from assistant.core.words.errors import instant_asked, which_instant
from assistant.core.words.gameplay import describe_fact
from assistant.core.words.position import DECK_COUNT_UNKNOWN
from assistant.core.words.rulings import describe_objection
from assistant.core.words.verbosity import Verbosity
from assistant.storage.decks import load_card_set
from tests.core.talking import asks

DECK_TEXT = (Path(__file__).resolve().parents[1] / "fixtures" / "llamas_instants.toml").read_text(encoding="utf-8")


def llamas(copies_known: bool = True) -> CardSet:
    """The test deck; with `copies_known = false` its copy counts are placeholders, as in the shipped Llamas file."""
    text = DECK_TEXT if copies_known else DECK_TEXT.replace("complete = true", "complete = true\ncopies_known = false")
    return CardSet([parse_deck(text, "llamas_instants.toml")])


def game(players: int = 3, copies_known: bool = True) -> Game:
    """A game at Ana's Action phase, hands counted from the deal, each player's Baby in their Field."""
    names = ("Ana", "Ben", "Cy", "Dee", "Eve")[:players]
    babies = ("baby-llama", "baby-goat", "baby-ram", "", "")[:players]
    g = Game.new(Setup(names, "llamas", babies=babies, hands=True), llamas(copies_known))
    g.push(ev.Draw(0))
    assert g.state.phase is ev.Phase.ACTION
    return g


def facts_of(step, kind):
    return [f for f in step.facts if isinstance(f, kind)]


# Stopping counters: the card below is stopped, as by a Neigh.


def test_a_counter_of_the_stopped_cards_variation_takes_it_into_its_players_hand():
    g = game()
    g.push(ev.Play(0, "basic-llama"))
    g.push(ev.Respond(1, "spit-happens"))
    hands = [p.hand for p in g.state.players]
    step = g.push(ev.Resolve())
    assert step.after.pile == () and "basic-llama" not in step.after.players[0].stable
    assert step.after.discard == ("spit-happens",), "the stopped Llama is not discarded"
    assert [p.hand for p in step.after.players] == [hands[0], hands[1] + 1, hands[2]]
    stopped = facts_of(step, ft.PileStopped)
    assert stopped == [ft.PileStopped(PileCard(1, "spit-happens"), PileCard(0, "basic-llama", 0), True, True)]
    g.pop()  # undo puts the pile and the hands back exactly
    assert [c.card for c in g.state.pile] == ["basic-llama", "spit-happens"]
    assert [p.hand for p in g.state.players] == hands


def test_a_hybrid_counts_as_each_of_its_variations_for_a_taking_counter():
    g = game()
    g.push(ev.Play(0, "henry-the-huarizo"))
    g.push(ev.Respond(2, "alpaca-your-bags"))
    step = g.push(ev.Resolve())
    assert step.after.discard == ("alpaca-your-bags",)
    assert facts_of(step, ft.PileStopped)[0].taken


def test_a_taking_counter_discards_a_stopped_card_of_another_variation():
    g = game()
    g.push(ev.Play(0, "basic-goat"))
    g.push(ev.Respond(1, "spit-happens"))
    step = g.push(ev.Resolve())
    assert step.after.discard == ("spit-happens", "basic-goat")
    assert not facts_of(step, ft.PileStopped)[0].taken
    assert not facts_of(step, ft.MayDraw) and step.after.chain == ()


def test_both_draw_adds_a_link_in_which_both_players_may_draw_without_using_the_turns_action():
    g = game()
    g.push(ev.Play(0, "basic-goat"))
    g.push(ev.Respond(1, "goatsundheit"))
    step = g.push(ev.Resolve())
    assert step.after.discard == ("goatsundheit", "basic-goat")
    assert facts_of(step, ft.MayDraw) == [ft.MayDraw(PileCard(1, "goatsundheit"), (1, 0))]
    assert step.after.chain == ((Trigger("goatsundheit", 1, TriggerKind.INSTANT),),)
    actions = g.state.actions
    assert g.check(ev.Draw(0)) == (), "a draw the counter allows is not the Action phase's draw"
    g.push(ev.Draw(0))
    g.push(ev.Draw(1))
    assert g.state.actions == actions
    g.push(ev.Resolve())
    assert g.state.chain == ()


def test_a_draw_counter_lets_its_own_player_draw_when_it_stops_an_instant_and_nobody_for_an_animal():
    g = game()
    g.push(ev.Play(0, "basic-goat"))
    g.push(ev.Respond(1, "llama-stop-you-right-there"))
    step = g.push(ev.Resolve())
    assert not facts_of(step, ft.MayDraw) and step.after.chain == (), "an Animal stopped: nobody draws"
    g.pop()
    g.pop()
    g.push(ev.Respond(1, "spit-happens"))
    g.push(ev.Respond(2, "llama-stop-you-right-there"))
    step = g.push(ev.Resolve())
    assert facts_of(step, ft.MayDraw) == [ft.MayDraw(PileCard(2, "llama-stop-you-right-there"), (2,))]
    assert [c.card for c in step.after.pile] == ["basic-goat"], "the Animal waits and can be answered again"
    assert step.after.chain == ((Trigger("llama-stop-you-right-there", 2, TriggerKind.INSTANT),),)


# Surprise Emu Attack: answers an Animal card without stopping it.


def test_an_instant_answering_an_animal_does_not_stop_it_and_its_destroy_is_a_link():
    g = game()
    g.push(ev.Play(0, "basic-llama"))
    assert g.check(ev.Respond(2, "surprise-emu-attack")) == ()
    g.push(ev.Respond(2, "surprise-emu-attack"))
    step = g.push(ev.Resolve())
    assert facts_of(step, ft.AnimalAnswered) == [
        ft.AnimalAnswered(PileCard(2, "surprise-emu-attack"), PileCard(0, "basic-llama", 0))
    ]
    assert [c.card for c in step.after.pile] == ["basic-llama"] and step.after.discard == ("surprise-emu-attack",)
    assert step.after.chain == ((Trigger("surprise-emu-attack", 2, TriggerKind.INSTANT),),)
    step = g.push(ev.Resolve())
    assert "basic-llama" in step.after.players[0].stable, "the played card still resolves"
    g.push(ev.Destroy(2, "baby-llama", 0))
    g.push(ev.Resolve())
    assert g.state.players[0].stable == ("basic-llama",) and g.state.chain == ()


def test_an_instant_answering_an_animal_played_on_anything_else_is_warned_and_can_be_recorded():
    g = game()
    g.push(ev.Play(0, "llama-drama"))
    assert ob.NotAnAnimal(2, "surprise-emu-attack", "llama-drama") in g.check(ev.Respond(2, "surprise-emu-attack"))
    g.pop()
    g.push(ev.Play(0, "basic-llama"))
    g.push(ev.Respond(1, "spit-happens"))
    objections = g.check(ev.Respond(2, "surprise-emu-attack"))
    assert ob.NotAnAnimal(2, "surprise-emu-attack", "spit-happens") in objections
    g.push(ev.Respond(2, "surprise-emu-attack"))  # the table's word wins
    assert g.state.pile[-1] == PileCard(2, "surprise-emu-attack")


def test_a_counter_is_warned_where_its_player_cannot_play_instants_and_recorded_anyway():
    cards = llamas()
    header = DECK_TEXT.split("[[cards]]")[0].replace('id = "ll-test"', 'id = "ll-extra"')
    tranquilizer = parse_deck(
        header.replace('kind = "base"', 'kind = "expansion"')
        + '[[cards]]\nid = "tranquilizer"\nname = "Tranquilizer"\ntype = "downgrade"\ncopies = 1\n'
        'text = "You cannot play Instant cards."\ntags = ["stops_instants"]\n',
        "extra.toml",
    )
    g = Game.new(Setup(("Ana", "Ben"), "llamas", hands=True), CardSet([*cards.decks, tranquilizer]))
    g.push(ev.Bring(0, "tranquilizer", 1))
    g.push(ev.Draw(0))
    g.push(ev.Play(0, "basic-llama"))
    assert ob.CannotPlay(1, "spit-happens", "tranquilizer") in g.check(ev.Respond(1, "spit-happens"))


# The command language: any Instant by name, and "neigh" asks which.


def session(cards: CardSet | None = None):
    s = table_session(cards or llamas(), verbosity=Verbosity.COACHING)
    s.handle("new game Ana Ben Cy babies llama goat ram hands")
    s.handle("draw")
    s.handle("play basic llama")
    return s


def test_any_instant_is_recorded_by_name_against_the_card_on_the_pile():
    s = session()
    reply = s.handle("Ben plays spit happens")
    assert s.game.log[-1] == ev.Respond(1, "spit-happens")
    assert reply.lines[0] == "Ben played Spit Happens."
    assert "Any Instant for Ben's Spit Happens? Say instant and a name, or resolve." in reply.lines


@pytest.mark.parametrize("line", ["neigh Ben", "instant Ben", "Ben neigh"])
def test_neigh_in_a_deck_without_a_neigh_card_asks_which_instant(line):
    s = session()
    assert s.game.table.neigh_card is None
    reply = s.handle(line)
    assert isinstance(reply.pending, Choice)
    assert [c.name for c in reply.choices] == [
        "Spit Happens", "Alpaca Your Bags", "Goatsundheit", "Llama Stop You Right There", "Surprise Emu Attack",
    ]  # fmt: skip
    assert reply.speech.startswith("Which Instant does Ben play? 1 Spit Happens, 2 Alpaca Your Bags, 3 Goatsundheit")
    answer = s.handle("3")
    assert s.game.log[-1] == ev.Respond(1, "goatsundheit")
    assert answer.lines[0] == "Ben played Goatsundheit."


def test_the_instants_offered_leave_out_one_that_answers_only_an_animal_when_the_top_is_an_instant():
    s = session()
    s.handle("Ben plays spit happens")
    reply = s.handle("neigh Cy")
    assert "Surprise Emu Attack" not in [c.name for c in reply.choices]


def test_neigh_without_a_name_in_a_llamas_deck_asks_who():
    s = session()
    reply = s.handle("neigh")
    assert reply.speech == "Who plays it? Say instant and a name, for example instant Ben."


def test_unstable_unicorns_neigh_and_super_neigh_are_unchanged():
    s = table_session(load_card_set("uu-2nd"), verbosity=Verbosity.COACHING)
    for line in ("new game Ana Ben Cy", "draw", "play basic red", "neigh Ben", "super neigh Cy"):
        assert s.pending is None, line
        s.handle(line)
    assert s.game.log[-2:] == [ev.Respond(1, "neigh"), ev.Respond(2, "super-neigh")]


# A deck count that is true.


def test_known_copies_give_the_real_deck_count():
    g = Game.new(Setup(("Ana", "Ben", "Cy"), "llamas"), llamas())
    drawn = sum(c.copies for c in llamas() if c.type is not CardType.BABY)
    assert drawn == 27 and g.state.deck == drawn - 3 * 5


def test_placeholder_copies_leave_the_count_unknown_and_never_declare_the_deck_out():
    g = game(players=5, copies_known=False)
    assert g.state.deck is None and not g.table.deck_counted
    for _ in range(40):  # far more than the placeholder counts hold
        assert not [o for o in g.check(ev.Draw(1)) if isinstance(o, ob.DeckTooSmall)]
        step = g.push(ev.Draw(1))
        assert not facts_of(step, ft.DeckRanOut)
    assert g.state.outcome is None and not g.state.deck_out
    step = g.push(ev.DeckEmpty())  # the table says when it runs out
    assert facts_of(step, ft.DeckRanOut) and g.state.outcome is not None


def test_a_count_the_table_gives_is_counted_down_from_there():
    g = game(copies_known=False)
    g.push(ev.SetDeck(2))
    g.push(ev.Draw(0))
    assert g.state.deck == 1
    assert ob.DeckTooSmall(1) in g.check(ev.Draw(0, 2))


def test_the_shipped_llamas_deck_is_counted_from_its_known_copies():
    """127 cards, the 12 Babies in the Nursery: 115 to draw from, less five hands of five."""
    s = table_session(load_card_set("llamas"))
    start = s.handle("new game Ana Ben Cy Dee Eve")
    assert DECK_COUNT_UNKNOWN not in start.lines
    assert s.game.state.deck == 115 - 5 * 5
    assert not asks(s.handle("draw")), "the first draw is not warned that the deck is empty"
    assert s.game.state.deck == 115 - 5 * 5 - 1


def test_copies_of_a_deck_whose_counts_are_placeholders_are_not_warned():
    g = game(copies_known=False)
    g.push(ev.Play(0, "basic-llama"))
    g.push(ev.Respond(1, "spit-happens"))
    g.push(ev.Respond(2, "spit-happens"))
    assert g.check(ev.Respond(1, "spit-happens")) == ()  # the file says 3; its count is a placeholder


# Sentences.


def test_the_sentences_of_instants_as_cards():
    g = game()
    table, state = g.table, g.state
    taken = ft.PileStopped(PileCard(1, "spit-happens"), PileCard(0, "basic-llama", 0), True, True)
    assert describe_fact(table, taken, state) == (
        "Ben's Spit Happens resolves and stops Ana's Basic Llama. It is a Llama, so Ben takes it into their hand; "
        "Spit Happens goes to the discard pile."
    )
    stopped = ft.PileStopped(PileCard(1, "goatsundheit"), PileCard(0, "basic-goat", 0), True)
    assert describe_fact(table, stopped, state) == (
        "Ben's Goatsundheit resolves: Ana's Basic Goat is stopped and goes to the discard pile."
    )
    both = ft.MayDraw(PileCard(1, "goatsundheit"), (1, 0))
    assert describe_fact(table, both, state) == "Goatsundheit lets Ben and Ana each draw a card."
    one = ft.MayDraw(PileCard(2, "llama-stop-you-right-there"), (1,))
    assert describe_fact(table, one, state) == (
        "Llama Stop You Right There stopped an Instant, so Ben may draw, as the card says."
    )
    emu = ft.AnimalAnswered(PileCard(2, "surprise-emu-attack"), PileCard(0, "basic-llama", 0))
    assert describe_fact(table, emu, state) == (
        "Cy's Surprise Emu Attack resolves: Cy destroys an Animal card in Ana's Field; say destroy and the card. "
        "Ana's Basic Llama still resolves."
    )
    wrong = ob.NotAnAnimal(2, "surprise-emu-attack", "llama-drama")
    assert describe_objection(table, wrong) == (
        "Surprise Emu Attack answers an Animal card being played, and Llama Drama is not one."
    )
    instants = list(enumerate(table.instants[:2], start=1))
    assert which_instant(instant_asked("Ben", instants)) == (
        "Which Instant does Ben play? 1 Spit Happens, 2 Alpaca Your Bags. Type a number to choose."
    )


def test_the_effect_of_an_instant_in_the_chain_is_read_from_after_its_opening():
    s = session()
    s.handle("Ben plays goatsundheit")
    reply = s.handle("resolve")
    assert (
        "Effect chain: the effect of Goatsundheit, played by Ben, which does this: Then you and that player may "
        "each draw a card." in reply.lines
    )


def test_an_instant_counter_with_a_variation_loads():
    card = llamas().get("spit-happens")
    assert card is not None and card.type is CardType.INSTANT and card.variation == "llama"


def test_every_copy_of_a_llamas_baby_waits_in_the_nursery():
    """Llamas Unleashed prints 3 of each of its 4 Babies: the 4 placed at the start leave 8 in the Nursery, and
    a Baby brought in from there leaves the others."""
    s = table_session(load_card_set("llamas"))
    s.handle("new game Ana Ben Cy Dee babies alpaca llama goat ram")
    assert sorted(s.game.state.nursery) == sorted(["baby-llama", "baby-alpaca", "baby-goat", "baby-ram"] * 2)
    assert s.handle("nursery").lines == (
        "The Nursery: 2 copies of Baby Llama, 2 copies of Baby Alpaca, 2 copies of Baby Goat and 2 copies of Baby Ram.",
    )
    s.handle("draw")
    assert not asks(s.handle("bring baby alpaca into Ana from nursery")), "a Baby Alpaca is still there"
    assert s.game.state.nursery.count("baby-alpaca") == 1


def test_an_instants_number_stays_the_same_all_game_and_help_instants_says_it():
    s = session()
    numbers = s.handle("help instants").speech
    assert numbers.startswith("The Instants, by number: 1 Spit Happens, 2 Alpaca Your Bags, 3 Goatsundheit, 4 Llama")
    s.handle("Ben plays goatsundheit")
    s.handle("Cy plays goatsundheit")  # both copies seen: Goatsundheit is no longer offered...
    reply = s.handle("neigh Ana")
    assert "Goatsundheit" not in [c.name for c in reply.choices]
    # ...and no number shifts into its place: Llama Stop You Right There is still 4
    assert "2 Alpaca Your Bags, 4 Llama Stop You Right There." in reply.speech
    s.handle("4")
    assert s.game.log[-1] == ev.Respond(0, "llama-stop-you-right-there")


def test_a_number_no_instant_offered_has_is_refused_and_the_list_kept():
    s = session()
    s.handle("Ben plays goatsundheit")
    s.handle("Cy plays goatsundheit")
    s.handle("neigh Ana")
    refused = s.handle("3")  # Goatsundheit's number: not offered now
    assert refused.speech.startswith("There is no choice 3.") and s.pending is not None
    assert s.handle("1").lines[0] == "Ana played Spit Happens."

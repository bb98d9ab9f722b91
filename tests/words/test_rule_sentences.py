"""The sentences of the rulings and the facts that the rule tests (tests/core/test_card_rules.py,
tests/core/test_game_scenarios.py) check as typed values: each objection and fact, phrased by the words on a game of
its deck, is the sentence the player hears. A reworded sentence fails here, never in a rule test."""

from __future__ import annotations

from functools import cache

import pytest

from assistant.core.game.chain import PileCard, Trigger, TriggerKind
from assistant.core.game.events import Bring, Reshuffle, Source
from assistant.core.game.facts import (
    BabyToNursery,
    BeginningSkipped,
    CardMustGo,
    DeckRanOut,
    Fact,
    GameOver,
    LimitReached,
    LinkAdded,
    LinkResolved,
    MandatoryRemain,
    OverHandLimit,
    PileOpenAgain,
    PileStopped,
    PlayResolved,
    Reshuffled,
    TallyChanged,
    TriggersLost,
    TurnBegan,
    WinBarred,
    WinWaits,
)
from assistant.core.game.history import Game
from assistant.core.game.objections import (
    ActionUsed,
    BabyNotInHand,
    CannotBeAnswered,
    CannotBeNeighed,
    CannotDestroy,
    CannotEnter,
    CannotNeigh,
    CannotPlay,
    CannotSteal,
    ChainOpen,
    DestroyOwn,
    Guarded,
    HandOverLimit,
    Indestructible,
    MagicCannotAffect,
    MagicCannotDestroy,
    NeedsBasic,
    NoReshuffle,
    NothingToAnswer,
    NotInNursery,
    NotYourTurn,
    Objection,
    OthersCannotPlay,
    OwnCard,
    Protected,
    RemovedCard,
    TriggerCannotDestroy,
    VariationKeptOut,
)
from assistant.core.game.setup import Setup
from assistant.core.game.table import Prompt, PromptKind
from assistant.core.game.tally import Ending, HandLimit, Outcome
from assistant.core.words.announce import phrase_prompt
from assistant.core.words.gameplay import describe_fact
from assistant.core.words.kinds import describe_event
from assistant.core.words.rulings import CONFIRM_QUESTION, confirm_question, describe_objection, objection_reasons
from assistant.storage.decks import load_card_set

#: Each deck's base, rule profile and add-ons: the 2nd Edition with the expansions whose cards the rules name.
DECKS = {
    "uu-2nd": ("uu-2nd", "uu-current", ("uu-legends", "uu-adventures", "uu-rainbow-apocalypse", "uu-dragons")),
    "uu-1st": ("uu-1st", "uu-first", ()),
    "uu-nsfw": ("uu-nsfw", "uu-nsfw", ()),
    "llamas": ("llamas", "llamas", ()),
}


@cache
def game(deck: str) -> Game:
    """A new game of Ana, Ben and Cy on the deck."""
    base, profile, addons = DECKS[deck]
    return Game.new(Setup(("Ana", "Ben", "Cy"), profile, base=base, addons=addons), load_card_set(base, list(addons)))


@pytest.mark.parametrize(
    "deck, objection, sentence",
    [
        # Slowdown, Ginormous Unicorn: "you cannot play Neigh cards"; the 1st Edition: "Instant cards".
        (
            "uu-2nd",
            CannotNeigh(0, "neigh", "slowdown"),
            "Ana cannot play Neigh cards while Slowdown is in Ana's Stable.",
        ),
        (
            "uu-2nd",
            CannotNeigh(2, "neigh", "ginormous-unicorn"),
            "Cy cannot play Neigh cards while Ginormous Unicorn is in Cy's Stable.",
        ),
        (
            "uu-1st",
            CannotPlay(0, "neigh", "slowdown"),
            "Ana cannot play Instant cards while Slowdown is in Ana's Stable.",
        ),
        # Broken Stable, Limp Horn, Giant Horned Cock, Total Stud Unicorn, Tranquilizer: a kind of card forbidden.
        (
            "uu-2nd",
            CannotPlay(0, "rainbow-aura", "broken-stable"),
            "Ana cannot play Upgrade cards while Broken Stable is in Ana's Stable.",
        ),
        (
            "uu-nsfw",
            CannotPlay(0, "unicorn-chastity-belt", "limp-horn"),
            "Ana cannot play Upgrade cards while Limp Horn is in Ana's Stable.",
        ),
        (
            "uu-nsfw",
            CannotPlay(0, "unicorn-hangover", "giant-horned-cock"),
            "Ana cannot play Magic cards while Giant Horned Cock is in Ana's Stable.",
        ),
        (
            "uu-nsfw",
            CannotPlay(0, "vanillacorn", "total-stud-unicorn"),
            "Ana cannot play Basic Unicorns while Total Stud Unicorn is in Ana's Stable.",
        ),
        (
            "llamas",
            CannotPlay(0, "spit-happens", "tranquilizer"),
            "Ana cannot play Instant cards while Tranquilizer is in Ana's Field.",
        ),
        # Queen Bee Unicorn, both prints; Eunuchorn.
        (
            "uu-2nd",
            CannotEnter("basic-unicorn-red", 1, "queen-bee-unicorn", 0),
            # 2nd Edition Queen Bee: Basic Unicorns may enter no Stable but its own, not "cannot go there"
            "Basic Unicorn (Red) cannot enter Ben's Stable: while Queen Bee Unicorn is in Ana's Stable, Basic "
            "Unicorns may enter no Stable but that one.",
        ),
        (
            "uu-1st",
            OthersCannotPlay(1, "basic-unicorn-blue", "queen-bee-unicorn", 0),
            "Ben cannot play Basic Unicorns while Queen Bee Unicorn is in Ana's Stable.",
        ),
        (
            "uu-nsfw",
            CannotEnter("tasty-baby-unicorn", 1, "eunuchorn", 0),
            "Tasty Baby Unicorn cannot enter Ben's Stable: Ana's Stable holds Eunuchorn, and Baby Unicorns cannot go "
            "there.",
        ),
        # Paladin Unicorn, Divine Peace, Puppicorn, Rainbow Aura.
        (
            "uu-2nd",
            CannotSteal(0, "paladin-unicorn"),
            "Ana cannot steal cards while Paladin Unicorn is in Ana's Stable.",
        ),
        (
            "uu-2nd",
            CannotDestroy(0, "divine-peace"),
            "Ana's cards cannot destroy any card while Divine Peace is in Ana's Stable.",
        ),
        ("uu-1st", Indestructible("puppicorn"), "Puppicorn cannot be destroyed or sacrificed: its own text says so."),
        (
            "uu-2nd",
            Protected("basic-unicorn-blue", "rainbow-aura", 0),
            "Ana's Stable holds Rainbow Aura, which protects cards there.",
        ),
        (
            "uu-2nd",
            Protected("basic-unicorn-red", "rainbow-aura", 1),
            "Ben's Stable holds Rainbow Aura, which protects cards there.",
        ),
        # Magical Kittencorn (both prints), The Tiniest Unicorn, Dragon Protection, Dragon Slayer Unicorn.
        (
            "uu-2nd",
            MagicCannotDestroy("magical-kittencorn", "unicorn-poison"),
            "Magical Kittencorn cannot be destroyed by a Magic card, and Unicorn Poison is one.",
        ),
        (
            "uu-1st",
            MagicCannotAffect("magical-kittencorn", "unicorn-swap"),
            "Magic cards cannot affect Magical Kittencorn, and Unicorn Swap is one.",
        ),
        (
            "uu-2nd",
            TriggerCannotDestroy("the-tiniest-unicorn", "shark-with-a-horn"),
            "The Tiniest Unicorn cannot be destroyed by a triggered effect, and the effect of Shark With a Horn is "
            "one.",
        ),
        (
            "uu-2nd",
            Guarded("basic-unicorn-red", 1, "dragon-protection", "shark-with-a-horn"),
            "Dragon Protection in Ben's Stable keeps the effect of Shark With a Horn away from Basic Unicorn (Red).",
        ),
        (
            "uu-2nd",
            Guarded("dragon-slayer-unicorn", 1, "dragon-slayer-unicorn", "dragon-s-breath"),
            "Dragon Slayer Unicorn in Ben's Stable keeps the effect of Dragon's Breath away from Dragon Slayer "
            "Unicorn.",
        ),
        # The Bitchiest Unicorn and the cards that need a Basic Unicorn; Velcro Barrier.
        (
            "uu-nsfw",
            NeedsBasic("the-bitchiest-unicorn", 0),
            "The Bitchiest Unicorn can only enter a Stable that holds a Basic Unicorn, and Ana's Stable holds none.",
        ),
        (
            "llamas",
            VariationKeptOut("magical-llamacorn", 0, "velcro-barrier", "llama"),
            "Magical Llamacorn cannot enter Ana's Field: it holds Velcro Barrier, which keeps Llama Animal cards out.",
        ),
        (
            "llamas",
            VariationKeptOut("adorable-alpaca", 0, "velcro-barrier", "alpaca"),
            "Adorable Alpaca cannot enter Ana's Field: it holds Velcro Barrier, which keeps Alpaca Animal cards out.",
        ),
        # Neigh Means Neigh, Super Neigh, Yay; an Instant on one's own card, or on nothing.
        ("uu-nsfw", CannotBeAnswered(1, "neigh-means-neigh"), "Neigh Means Neigh cannot be answered."),
        ("uu-2nd", CannotBeAnswered(1, "super-neigh"), "Super Neigh cannot be answered."),
        (
            "uu-1st",
            CannotBeNeighed(0, "basic-unicorn-red", "yay"),
            "Ana's cards cannot be Neighed while Yay is in Ana's Stable.",
        ),
        (
            "uu-2nd",
            OwnCard(0, "rainbow-aura"),
            "The top card, Rainbow Aura, is Ana's own: Instants answer another player.",
        ),
        (
            "uu-2nd",
            NothingToAnswer(1, "neigh"),
            "No card is being played, so there is nothing to answer. A card brought directly into a Stable cannot be "
            "Neighed.",
        ),
        # The turn, the hand limit, Babies, destroying, the deck.
        ("uu-2nd", ChainOpen(), "Effects in the chain must resolve first: say resolve when each is done."),
        ("uu-2nd", ActionUsed(0, 1), "Ana has already played a card or drawn in this Action phase."),
        ("uu-2nd", NotYourTurn(1, 0), "It is Ana's turn, not Ben's."),
        ("uu-2nd", HandOverLimit(0, 9, 7), "Ana holds 9 cards, over the hand limit of 7: discard 2 first."),
        ("uu-2nd", NotInNursery("baby-unicorn-red"), "Baby Unicorn (Red) is not in the Nursery."),
        (
            "uu-2nd",
            BabyNotInHand(0, "baby-unicorn-red"),
            "Baby Unicorn (Red) is a Baby: Babies only enter a Stable from the Nursery and are never in a hand, the "
            "deck or the discard pile.",
        ),
        (
            "uu-2nd",
            DestroyOwn(0, "basic-unicorn-red"),
            "Destroying is for another player's Stable; from your own it is a sacrifice.",
        ),
        ("uu-2nd", NoReshuffle(), "These rules do not shuffle the discard pile into a new deck."),
        (
            "uu-2nd",
            RemovedCard("ginormous-unicorn"),
            "Ginormous Unicorn was taken out of the deck for the 2-player game.",
        ),
    ],
)
def test_each_objection_a_rule_test_checks_is_said_in_one_sentence(deck, objection: Objection, sentence):
    assert describe_objection(game(deck).table, objection) == sentence


def test_the_warning_asks_with_every_reason_in_order():
    question = confirm_question(objection_reasons(game("uu-2nd").table, (NotYourTurn(1, 0), ChainOpen())))
    assert question == (
        "Record it anyway? It is Ana's turn, not Ben's. Effects in the chain must resolve "
        f"first: say resolve when each is done. {CONFIRM_QUESTION}"
    )


@pytest.mark.parametrize(
    "deck, fact, sentence",
    [
        # The Black Spot, Broken Sundial, Tiny Stable, Unicorn Flatulence, Hex, Extremely Small Backpack.
        (
            "uu-2nd",
            WinBarred(0, 3, "the-black-spot"),
            "Ana has 3 Unicorns but cannot win while The Black Spot is in Ana's Stable with a Basic Unicorn there.",
        ),
        (
            "uu-2nd",
            BeginningSkipped(0, "broken-sundial"),
            "Ana skips the Beginning of Turn phase while Broken Sundial is in Ana's Stable.",
        ),
        (
            "uu-2nd",
            LimitReached(0, "tiny-stable", 6, 5),
            "Ana has 6 Unicorns with Tiny Stable, more than 5: sacrifice a Unicorn card.",
        ),
        (
            "uu-2nd",
            LimitReached(1, "tiny-stable", 6, 5),
            "Ben has 6 Unicorns with Tiny Stable, more than 5: sacrifice a Unicorn card.",
        ),
        (
            "uu-nsfw",
            CardMustGo(0, "unicorn-flatulence", empty_hand=False),
            "Ana has no Unicorn card in Ana's Stable: sacrifice Unicorn Flatulence.",
        ),
        (
            "uu-2nd",
            CardMustGo(0, "hex", empty_hand=True),
            "Ana's hand is empty: Hex must move into another player's Stable.",
        ),
        (
            "uu-2nd",
            CardMustGo(0, "extremely-small-backpack", empty_hand=True),
            "Ana's hand is empty: Extremely Small Backpack must move into another player's Stable.",
        ),
        ("uu-1st", Reshuffled(12), "Shuffle the discard pile to make a new deck: 12 cards."),
    ],
)
def test_each_fact_a_rule_test_checks_is_said_in_one_sentence(deck, fact: Fact, sentence):
    played = game(deck)
    assert describe_fact(played.table, fact, played.state) == sentence


def test_a_reshuffle_is_said_as_the_discard_pile_made_a_new_deck():
    """Llamacorn and Rainbow Shitstorm make the reshuffle their own; the event says what the table did."""
    played = game("uu-1st")
    assert describe_event(played.table, Reshuffle(), played.state) == "The discard pile was shuffled into a new deck"


def _with_stables(*stables: tuple[str, ...]) -> Game:
    """A new 2nd Edition game of Ana, Ben and Cy whose Stables hold these cards (Babies from the Nursery)."""
    played = Game.new(Setup(("Ana", "Ben", "Cy"), "uu-current", base="uu-2nd"), load_card_set("uu-2nd"))
    for seat, cards in enumerate(stables):
        for card in cards:
            source = Source.NURSERY if card.startswith("baby-") else Source.HAND
            played.push(Bring(seat, card, seat, source))
    return played


AURA = PileCard(0, "rainbow-aura", 0)
RITUAL = Trigger("sadistic-ritual", 0, TriggerKind.BEGIN)
CLAW = Trigger("claw-machine", 0, TriggerKind.BEGIN_OPTIONAL)
#: Ana: Baby Unicorn (Red) 14 + Basic Unicorn (Red) 15 letters; Ben: Baby Unicorn (Pink) 15 + Basic Unicorn (Blue) 16.
TIED_BY_LETTERS = (("baby-unicorn-red", "basic-unicorn-red"), ("baby-unicorn-pink", "basic-unicorn-blue"))
#: Ana: 14 + Basic Unicorn (Blue) 16; Ben: 15 + Basic Unicorn (Red) 15: 30 letters each.
TIED_IN_ALL = (("baby-unicorn-red", "basic-unicorn-blue"), ("baby-unicorn-pink", "basic-unicorn-red"))


@pytest.mark.parametrize(
    "stables, fact, sentence",
    [
        # The Instant pile (tests/core/test_game_scenarios.py, the Neigh battles).
        ((), PileStopped(PileCard(1, "neigh"), AURA, played=True),
         "Ben's Neigh resolves: Ana's Rainbow Aura is Neighed and goes to the discard pile."),
        ((), PileStopped(PileCard(1, "super-neigh"), AURA, played=True),
         "Ben's Super Neigh resolves: Ana's Rainbow Aura is Neighed and goes to the discard pile."),
        ((), PileStopped(PileCard(2, "neigh"), PileCard(1, "neigh"), played=False),
         "Cy's Neigh resolves and stops Ben's Neigh. Both go to the discard pile."),
        ((), PileOpenAgain(AURA), "The pile is open again: Ana's Rainbow Aura is on top."),
        ((), PileOpenAgain(PileCard(1, "neigh")), "The pile is open again: Ben's Neigh is on top."),
        ((), PlayResolved(AURA), "Rainbow Aura is played: it enters Ana's Stable."),
        ((), PlayResolved(PileCard(2, "unicorn-poison")),
         "Unicorn Poison is played: it takes effect, then goes to the discard pile."),
        # The turn and the chain.
        ((), TurnBegan(1, 2), "Turn 2: Ben's turn."),
        ((), OverHandLimit(0, 9, 7), "Ana holds 9 cards, over the hand limit of 7: discard 2."),
        ((), TriggersLost((CLAW,)), "Optional effects not used are lost for this turn: Claw Machine."),
        ((), MandatoryRemain((RITUAL,)), "Mandatory, so still to do: Sadistic Ritual."),
        ((), LinkAdded((RITUAL, CLAW), 1), "Effect chain: Sadistic Ritual, must do and Claw Machine, may do."),
        ((), LinkAdded((Trigger("rainbow-unicorn", 0, TriggerKind.ENTER),), 1),
         "Effect chain: Rainbow Unicorn entering Ana's Stable."),
        ((), LinkResolved((Trigger("rainbow-unicorn", 0, TriggerKind.ENTER),), None), "Chain resolved."),
        ((), BabyToNursery("baby-unicorn-pink", 1),
         "Baby Unicorn (Pink) goes back to the Nursery, as Babies always do."),
        # The tally and the end of the game.
        ((), TallyChanged((1, 1, 1), (3, 1, 1)), "Ana has 3 Unicorns."),
        ((), WinWaits(0, 3), "Ana has 3 Unicorns, enough to win once the chain is resolved."),
        ((), DeckRanOut(), "The deck is empty."),
        (TIED_BY_LETTERS, GameOver(Outcome(Ending.GOAL, 0)), "Ana wins with 2 Unicorns! The game is over."),
        ((("baby-unicorn-red",), ("baby-unicorn-pink", "basic-unicorn-red")), GameOver(Outcome(Ending.MOST, 1)),
         "The deck ran out. Ben wins with the most, 2 Unicorns. The game is over."),
        (TIED_BY_LETTERS, GameOver(Outcome(Ending.LETTERS, 1, (0, 1))),
         "The deck ran out. Ana and Ben tie with 2 Unicorns. Letters in the names of their Unicorn cards: Ana 29, "
         "Ben 31. Ben wins. The game is over."),
        (TIED_IN_ALL, GameOver(Outcome(Ending.EVERYONE_LOSES, None, (0, 1))),
         "The deck ran out. Ana and Ben tie with 2 Unicorns and with 30 letters in their names: everyone loses. "
         "The game is over."),
        ((), GameOver(Outcome(Ending.NO_WINNER)), "The deck ran out and by these rules nobody wins. The game is over."),
    ],
)  # fmt: skip
def test_each_fact_a_scenario_checks_is_said_in_one_sentence(stables, fact: Fact, sentence):
    played = _with_stables(*stables)
    assert describe_fact(played.table, fact, played.state) == sentence


@pytest.mark.parametrize(
    "prompt, sentence",
    [
        (Prompt(PromptKind.DRAW, 0), "Ana draws a card: say draw."),
        (Prompt(PromptKind.ACTION, 0),
         "Ana plays a card or draws one more: say play and a card, or draw. Then end turn."),
        (Prompt(PromptKind.NEXT_TURN, 0, limit=HandLimit(7)), "The hand limit is 7. Say next for the next turn."),
        (Prompt(PromptKind.DISCARD, 0, limit=HandLimit(3), excess=2),
         "Ana discards 2, down to the hand limit of 3. Then say next."),
        (Prompt(PromptKind.ANSWER, 0, top=AURA), "Any Neigh for Ana's Rainbow Aura? Say neigh and a name, or resolve."),
        (Prompt(PromptKind.RESOLVE, 0, top=PileCard(1, "super-neigh"), shield="super-neigh"),
         "Super Neigh cannot be answered: say resolve."),
        (Prompt(PromptKind.CHAIN, 0, link=(Trigger("rainbow-unicorn", 0, TriggerKind.ENTER),)),
         "Next in the chain: Rainbow Unicorn entering Ana's Stable. Do it, then say resolve."),
    ],
)  # fmt: skip
def test_each_prompt_a_scenario_checks_is_said_in_one_sentence(prompt: Prompt, sentence):
    assert phrase_prompt(game("uu-2nd").table, prompt) == sentence

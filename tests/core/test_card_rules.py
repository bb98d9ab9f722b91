"""Every "cannot" card is checked the same way, from where its text says it acts, in every shipped deck.

Each case cites the card's text (in our own words, in card_texts/) and plays the forbidden move on the core's own
API (`Game.check`, `Game.push`; tests/core/playing.py): the core objects, and the table can still record it. Each
asserts on the typed objection the core found (`assistant/core/game/objections.py`) or the typed fact a step
reported (`facts.py`) and on the game's state, never on a sentence: the sentences are checked in
tests/words/test_rule_sentences.py, the lines that build each event in tests/core/test_game_commands.py. Data tests
check both ways that a card whose text says such a "cannot" carries the tag the tracker acts on, and that a card
carrying such a tag says so, so a reworded text or a stray tag cannot silently turn a rule off or on; and that every
card whose text forbids or protects anything is either checked or named, with the reason, among those the tracker
leaves to the table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import pytest

from assistant.core.cards.card import Card, CardSet, CardType, Tag
from assistant.core.cards.cardfile import parse_deck
from assistant.core.cards.wording import CHECKED_WORDING, Need, checked_tags, leave_effect, save_of
from assistant.core.game.acting import save_for
from assistant.core.game.events import (
    Bring,
    DeckEmpty,
    Destroy,
    Discard,
    Draw,
    EndTurn,
    Play,
    Reshuffle,
    Resolve,
    Respond,
    Sacrifice,
    SetGoal,
    SetHand,
    Source,
    Steal,
)
from assistant.core.game.facts import (
    BeginningSkipped,
    CardMustGo,
    GameOver,
    LimitReached,
    LinkAdded,
    Reshuffled,
    WinBarred,
)
from assistant.core.game.history import Game
from assistant.core.game.objections import (
    CannotBeAnswered,
    CannotBeNeighed,
    CannotDestroy,
    CannotEnter,
    CannotNeigh,
    CannotPlay,
    CannotSteal,
    Guarded,
    Impossible,
    Indestructible,
    MagicCannotAffect,
    MagicCannotDestroy,
    NeedsBasic,
    NotYourTurn,
    OthersCannotPlay,
    Protected,
    TriggerCannotDestroy,
    VariationKeptOut,
)
from assistant.core.game.rules import load_rules
from assistant.storage.decks import deck_files, load_card_set, load_deck
from tests.core.playing import ANA, BEN, bring, declined, moves, table, warned

#: The tags a card's wording says and the tracker checks (`CHECKED_WORDING`).
CHECKED_TAGS = frozenset(tag for _, tag in CHECKED_WORDING)


def to_bens_turn(played: Game) -> None:
    moves(played, EndTurn(), Draw(BEN))


@pytest.mark.parametrize(
    "base, addons, card_id, event, found",
    [
        # Slowdown, Ginormous Unicorn (2nd Edition): "While this card is in your Stable, you cannot play Neigh cards."
        ("uu-2nd", (), "slowdown", None, (CannotNeigh(0, "neigh", "slowdown"),)),
        ("uu-2nd", (), "ginormous-unicorn", None, (CannotNeigh(0, "neigh", "ginormous-unicorn"),)),
        # The 1st Edition prints say "you cannot play Instant cards": a Neigh is one.
        ("uu-1st", (), "slowdown", None, (CannotPlay(0, "neigh", "slowdown"),)),
        ("uu-1st", (), "ginormous-unicorn", None, (CannotPlay(0, "neigh", "ginormous-unicorn"),)),
        # Broken Stable (and the NSFW base's Limp Horn): "you cannot play Upgrade cards".
        (
            "uu-2nd",
            (),
            "broken-stable",
            Play(ANA, "rainbow-aura", ANA),
            (CannotPlay(0, "rainbow-aura", "broken-stable"),),
        ),
        (
            "uu-1st",
            (),
            "broken-stable",
            Play(ANA, "rainbow-aura", ANA),
            (CannotPlay(0, "rainbow-aura", "broken-stable"),),
        ),
        (
            "uu-nsfw",
            (),
            "limp-horn",
            Play(ANA, "unicorn-chastity-belt", ANA),
            (CannotPlay(0, "unicorn-chastity-belt", "limp-horn"),),
        ),
        # NSFW base: Giant Horned Cock forbids Magic cards, Total Stud Unicorn Basic Unicorn cards.
        (
            "uu-nsfw",
            (),
            "giant-horned-cock",
            Play(ANA, "unicorn-hangover"),
            (CannotPlay(0, "unicorn-hangover", "giant-horned-cock"),),
        ),
        (
            "uu-nsfw",
            (),
            "total-stud-unicorn",
            Play(ANA, "vanillacorn", ANA),
            (CannotPlay(0, "vanillacorn", "total-stud-unicorn"),),
        ),
        # Queen Bee Unicorn: "Basic Unicorn cards cannot enter any Stable except yours" (Ana's; Ben plays one);
        # the 1st Edition: "the other players cannot play Basic Unicorn cards".
        (
            "uu-2nd",
            (),
            "queen-bee-unicorn",
            Play(BEN, "basic-unicorn-red", BEN),
            (NotYourTurn(1, 0), CannotEnter("basic-unicorn-red", 1, "queen-bee-unicorn", 0)),
        ),
        (
            "uu-1st",
            (),
            "queen-bee-unicorn",
            Play(BEN, "basic-unicorn-red", BEN),
            (NotYourTurn(1, 0), OthersCannotPlay(1, "basic-unicorn-red", "queen-bee-unicorn", 0)),
        ),
        # Eunuchorn (NSFW base): "Baby Unicorn cards cannot enter any player's Stable".
        (
            "uu-nsfw",
            (),
            "eunuchorn",
            Bring(ANA, "tasty-baby-unicorn", BEN, Source.NURSERY),
            (CannotEnter("tasty-baby-unicorn", 1, "eunuchorn", 0),),
        ),
        # Extreme Adventurer Unicorn (Adventures): "no Basic Unicorn card can enter your Stable".
        (
            "uu-2nd",
            ("uu-adventures",),
            "extreme-adventurer-unicorn",
            Play(ANA, "basic-unicorn-red", ANA),
            (CannotEnter("basic-unicorn-red", 0, "extreme-adventurer-unicorn", 0),),
        ),
        # Paladin Unicorn (Unicorns of Legend): "you cannot steal cards from other players' Stables".
        (
            "uu-2nd",
            ("uu-legends",),
            "paladin-unicorn",
            Steal(ANA, "basic-unicorn-red", BEN),
            (CannotSteal(0, "paladin-unicorn"),),
        ),
        # Divine Peace (Unicorns of Legend): "the effects of your cards cannot destroy any card".
        (
            "uu-2nd",
            ("uu-legends",),
            "divine-peace",
            Destroy(ANA, "basic-unicorn-red", BEN),
            (CannotDestroy(0, "divine-peace"),),
        ),
        # Puppicorn (1st Edition): "Nothing can sacrifice or destroy this card".
        ("uu-1st", (), "puppicorn", Sacrifice(ANA, "puppicorn"), (Indestructible("puppicorn", sacrificed=True),)),
        # Rainbow Aura (both editions), Unicorn Chastity Belt (NSFW): "your Unicorn cards cannot be destroyed".
        (
            "uu-2nd",
            (),
            "rainbow-aura",
            Destroy(BEN, "basic-unicorn-blue", ANA),
            (Protected("basic-unicorn-blue", "rainbow-aura", 0),),
        ),
        (
            "uu-1st",
            (),
            "rainbow-aura",
            Destroy(BEN, "basic-unicorn-blue", ANA),
            (Protected("basic-unicorn-blue", "rainbow-aura", 0),),
        ),
        (
            "uu-nsfw",
            (),
            "unicorn-chastity-belt",
            Destroy(BEN, "vanillacorn", ANA),
            (Protected("vanillacorn", "unicorn-chastity-belt", 0),),
        ),
    ],
)
def test_a_cannot_card_in_the_stable_warns_the_forbidden_move(base, addons, card_id, event, found):
    g = table(base, addons)
    bring(g, card_id)
    if isinstance(event, Steal | Destroy):  # the card it acts on is there first
        bring(g, event.card, into=event.owner)
    if event is None:  # a Neigh by the Stable's owner against Ben's card
        to_bens_turn(g)
        moves(g, Play(BEN, "basic-unicorn-red", BEN))
        event = Respond(ANA, "neigh")
    assert declined(g, event) == found


def test_the_same_cannot_card_in_hand_forbids_nothing():
    """Slowdown acts only from the Stable (000: Upgrade and Downgrade cards are active only in a Stable)."""
    g = table()
    to_bens_turn(g)
    moves(g, Play(BEN, "basic-unicorn-red", BEN), Respond(ANA, "neigh"))


def test_the_1st_edition_queen_bee_forbids_playing_only():
    """Queen Bee Unicorn (1st Edition first print): "the other players cannot play Basic Unicorn cards": a Basic
    Unicorn brought into another Stable by an effect is not played. (The second print forbids entering too.)"""
    g = table("uu-1st")
    bring(g, "queen-bee-unicorn")
    moves(g, Bring(ANA, "basic-unicorn-red", BEN))
    to_bens_turn(g)
    found = declined(g, Play(BEN, "basic-unicorn-blue", BEN))
    assert found == (OthersCannotPlay(1, "basic-unicorn-blue", "queen-bee-unicorn", 0),)


def test_queen_bee_lets_basics_into_its_owners_stable():
    g = table()
    bring(g, "queen-bee-unicorn")
    moves(g, Play(ANA, "basic-unicorn-red", ANA))


def test_a_1st_edition_slowdown_forbids_every_instant_not_only_neighs():
    """1st Edition Slowdown: "you cannot play Instant cards". Unicorn Net (Adventures, played on the 1st Edition)
    is an Instant that is not a Neigh."""
    g = table("uu-1st", ("uu-adventures",))
    bring(g, "slowdown")
    to_bens_turn(g)
    moves(g, Play(BEN, "basic-unicorn-red", BEN))
    assert declined(g, Respond(ANA, "unicorn-net")) == (CannotPlay(0, "unicorn-net", "slowdown"),)


def test_a_card_that_stops_instants_stops_one_that_answers_the_start_of_a_turn_on_an_empty_pile():
    """1st Edition Slowdown: "you cannot play Instant cards", whatever the Instant answers: Flare Gun (Adventures)
    answers the beginning of another player's turn, with nothing on the pile. The 2nd Edition Slowdown, which
    forbids Neigh cards only, lets it through."""
    g = table("uu-1st", ("uu-adventures",))
    bring(g, "slowdown")
    moves(g, EndTurn())  # Ben's turn begins: the pile is empty
    assert g.state.pile == ()
    assert declined(g, Respond(ANA, "flare-gun")) == (CannotPlay(0, "flare-gun", "slowdown"),)
    second = table("uu-2nd", ("uu-adventures",))
    bring(second, "slowdown")
    moves(second, EndTurn(), Respond(ANA, "flare-gun"))


def test_the_2nd_edition_slowdown_lets_an_instant_that_is_not_a_neigh_through():
    """2nd Edition Slowdown forbids Neigh cards only."""
    g = table("uu-2nd", ("uu-adventures",))
    bring(g, "slowdown")
    to_bens_turn(g)
    moves(g, Play(BEN, "basic-unicorn-red", BEN), Respond(ANA, "unicorn-net"))
    assert g.state.pile[-1].card == "unicorn-net"


def test_tranquilizer_forbids_instants_in_its_field():
    """Tranquilizer (Llamas Unleashed): "While this card is in your Field, you cannot play Instant cards". A plain
    counter added by an owner's reference sheet (an import) is the Instant played, so the check does not depend on
    how the shipped Llamas Instants are recorded."""
    sheet = parse_deck(
        '[deck]\nid = "llamas-mine"\ntitle = "My Llamas"\nedition = "braille"\ngame = "llamas-unleashed"\n'
        'kind = "import"\nvocabulary = "animal"\ncomplete = false\nbase = "llamas"\n\n'
        '[[cards]]\nid = "neigh-llama"\nname = "Neigh Llama"\ntype = "instant"\ncopies = 4\n'
        'text = "Play this card when another player tries to play a card. That card is stopped."\ntags = ["neigh"]\n'
    )
    g = table("llamas", cards=CardSet([load_deck("llamas"), sheet]))
    bring(g, "tranquilizer")
    to_bens_turn(g)
    moves(g, Play(BEN, "magical-llamacorn", BEN))
    assert declined(g, Respond(ANA, "neigh-llama")) == (CannotPlay(0, "neigh-llama", "tranquilizer"),)


def test_magical_kittencorn_cannot_be_destroyed_by_a_magic_card():
    """Magical Kittencorn: "Magic cards cannot destroy this card". Destroying it while a Magic card's effect is
    being done (the chain's first link) is warned; destroying it otherwise is not this card's concern."""
    g = table()
    bring(g, "magical-kittencorn", into=BEN)
    moves(g, Play(ANA, "unicorn-poison"), Resolve())  # the Magic card resolves: its effect is the next link
    found = declined(g, Destroy(ANA, "magical-kittencorn", BEN))
    assert found == (MagicCannotDestroy("magical-kittencorn", "unicorn-poison"),)


def test_the_tiniest_unicorn_cannot_be_destroyed_by_a_triggered_effect():
    """The Tiniest Unicorn (Rainbow Apocalypse): "Triggered card effects cannot destroy this card", for example the
    effect of a Unicorn entering a Stable. A Magic card's effect may."""
    g = table("uu-2nd", ("uu-rainbow-apocalypse",))
    bring(g, "the-tiniest-unicorn", into=BEN)
    bring(g, "shark-with-a-horn")  # its effect on entering: destroy a Unicorn in another player's Stable
    moves(g, Sacrifice(ANA, "shark-with-a-horn"))  # "sacrifice this card, then destroy"
    found = declined(g, Destroy(ANA, "the-tiniest-unicorn", BEN))
    assert found == (TriggerCannotDestroy("the-tiniest-unicorn", "shark-with-a-horn"),)
    moves(g, Resolve(), EndTurn(), Draw(BEN), EndTurn(), Draw(ANA), Play(ANA, "unicorn-poison"), Resolve())
    moves(g, Destroy(ANA, "the-tiniest-unicorn", BEN))


def test_dragon_protection_keeps_other_players_unicorn_effects_away():
    """Dragon Protection (Dragons), its later print: other players' cards' triggered effects can neither destroy
    nor affect your Unicorn cards (a Unicorn's effect on entering is triggered; a Magic card's is not)."""
    g = table("uu-2nd", ("uu-dragons",))
    bring(g, "dragon-protection", into=BEN)
    bring(g, "basic-unicorn-red", into=BEN)
    bring(g, "shark-with-a-horn")
    moves(g, Sacrifice(ANA, "shark-with-a-horn"))  # "sacrifice this card, then destroy"
    guarded = (Guarded("basic-unicorn-red", 1, "dragon-protection", "shark-with-a-horn"),)
    assert declined(g, Destroy(ANA, "basic-unicorn-red", BEN)) == guarded
    assert declined(g, Steal(ANA, "basic-unicorn-red", BEN)) == guarded
    moves(g, Resolve(), EndTurn(), Draw(BEN), EndTurn(), Draw(ANA), Play(ANA, "unicorn-poison"), Resolve())
    moves(g, Destroy(ANA, "basic-unicorn-red", BEN))


def test_dragon_slayer_keeps_cards_named_dragon_away():
    """Dragon Slayer Unicorn (Dragons): "cards with the word Dragon in their name cannot destroy or otherwise
    affect your Unicorn cards"."""
    g = table("uu-2nd", ("uu-dragons",))
    bring(g, "dragon-slayer-unicorn", into=BEN)
    # Ben's Unicorns are the only ones it could destroy: the play itself asks an impossible action (issue 103)
    assert warned(g, Play(ANA, "dragon-s-breath")) == (Impossible(ANA, "dragon-s-breath", Need.OTHERS_UNICORN),)
    moves(g, Resolve())
    assert declined(g, Destroy(ANA, "dragon-slayer-unicorn", BEN)) == (
        Guarded("dragon-slayer-unicorn", 1, "dragon-slayer-unicorn", "dragon-s-breath"),
    )


@pytest.mark.parametrize(
    "base, addons, card_id, entering",
    [
        # The Bitchiest Unicorn (NSFW base): "This card cannot enter a Stable that has no Basic Unicorn card in it";
        # (NSFW expansion): "You can only play this card if there is a Basic Unicorn card in your Stable".
        ("uu-nsfw", (), "the-bitchiest-unicorn", "vanillacorn"),
        ("uu-2nd", ("uu-nsfw-expansion",), "the-bitchiest-unicorn", "basic-unicorn-red"),
        # Unicorn Speed, Unicorn With Benefits (NSFW): "can only enter a Stable that already holds a Basic Unicorn".
        ("uu-nsfw", (), "unicorn-speed", "vanillacorn"),
        ("uu-nsfw", (), "unicorn-with-benefits", "vanillacorn"),
        # Rainbow Mane, Extra Tail (1st Edition): "You can play this card only while your own Stable holds a Basic".
        ("uu-1st", (), "rainbow-mane", "basic-unicorn-red"),
        ("uu-1st", (), "extra-tail", "basic-unicorn-red"),
    ],
)
def test_a_card_that_needs_a_basic_unicorn_is_warned_without_one(base, addons, card_id, entering):
    g = table(base, addons)
    assert declined(g, Play(ANA, card_id, ANA)) == (NeedsBasic(card_id, 0),)
    bring(g, entering)
    moves(g, Play(ANA, card_id, ANA))


def test_velcro_barrier_keeps_llamas_and_alpacas_out_of_its_field():
    """Velcro Barrier (Llamas Unleashed): "Llama and Alpaca Animal cards cannot enter your Field. Other cards are
    not affected"; a hybrid Llama and Alpaca (Henry the Huarizo) is both."""
    g = table("llamas")
    bring(g, "velcro-barrier")
    found = declined(g, Play(ANA, "magical-llamacorn", ANA))
    assert found == (VariationKeptOut("magical-llamacorn", 0, "velcro-barrier", "llama"),)
    found = declined(g, Bring(ANA, "adorable-alpaca", ANA))
    assert found == (VariationKeptOut("adorable-alpaca", 0, "velcro-barrier", "alpaca"),)
    found = declined(g, Bring(ANA, "henry-the-huarizo", ANA))
    assert found == (VariationKeptOut("henry-the-huarizo", 0, "velcro-barrier", "llama"),)
    moves(g, Play(ANA, "magical-goaticorn", ANA), Bring(BEN, "magical-llamacorn", BEN))


def test_the_black_spot_keeps_its_owner_from_winning_with_a_basic_unicorn():
    """The Black Spot (Adventures): "you cannot win the game as long as there is a Basic Unicorn card in your
    Stable". With 2 to win Ana reaches 2 and is told she cannot win; once the Basic Unicorn is gone she wins."""
    g = table("uu-2nd", ("uu-adventures",))
    moves(g, SetGoal(3))
    bring(g, "the-black-spot")
    bring(g, "basic-unicorn-red")
    found = bring(g, "basic-unicorn-blue")
    assert g.state.outcome is None
    assert WinBarred(0, 3, "the-black-spot") in found
    found = bring(g, "rhinocorn")
    assert g.state.outcome is None and WinBarred(0, 4, "the-black-spot") in found
    moves(g, Sacrifice(ANA, "basic-unicorn-red"), Sacrifice(ANA, "basic-unicorn-blue"))
    assert g.state.outcome is None  # 2 Unicorns left: Baby and Rhinocorn
    found = bring(g, "unicorn-phoenix")
    outcome = g.state.outcome
    assert outcome is not None and outcome.winner == 0 and GameOver(outcome) in found


def test_the_black_spot_leaves_its_owner_out_when_the_deck_runs_out():
    """000: when the deck runs out "the player with the most Unicorns wins"; The Black Spot: its owner cannot."""
    g = table("uu-2nd", ("uu-adventures",))
    bring(g, "the-black-spot")
    for colour in ("red", "blue"):
        bring(g, f"basic-unicorn-{colour}")
    bring(g, "basic-unicorn-green", into=BEN)
    moves(g, DeckEmpty())
    assert g.state.outcome is not None and g.state.outcome.winner == 1


def test_broken_sundial_skips_the_beginning_of_turn():
    """Broken Sundial (Adventures): "you skip your Beginning of Turn phase, so none of your beginning of turn
    effects happen"."""
    g = table("uu-2nd", ("uu-adventures",))
    bring(g, "double-dutch")
    bring(g, "broken-sundial")
    found = moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert g.state.current == 0 and BeginningSkipped(0, "broken-sundial") in found
    assert not any(isinstance(fact, LinkAdded) for fact in found) and g.state.chain == ()


@pytest.mark.parametrize(
    "base, addons, silencer, entering",
    [
        # Blinding Light (2nd Edition): "all your Unicorn cards count as Basic Unicorns and their effects do not work";
        # (1st Edition): "none of the effects of your Unicorn cards can be used".
        ("uu-2nd", (), "blinding-light", "greedy-flying-unicorn"),
        ("uu-1st", (), "blinding-light", "greedy-flying-unicorn"),
        # Medieval Sanitation (Legends): "the triggered effects of your Unicorn cards do not happen".
        ("uu-2nd", ("uu-legends",), "medieval-sanitation", "greedy-flying-unicorn"),
        # Mid-Sex Charlie Horse (NSFW): "none of the triggered effects on your Unicorn cards take place".
        ("uu-nsfw", (), "mid-sex-charlie-horse", "flesh-eating-unicorn"),
        # Legal Ramifications (Llamas): "every Animal card in your Field ... has no effect of its own".
        ("llamas", (), "legal-ramifications", "adorable-alpaca"),
    ],
)
def test_a_card_that_silences_unicorns_keeps_their_triggers_out_of_the_chain(base, addons, silencer, entering):
    g = table(base, addons)
    found = bring(g, entering, into=BEN)
    # without the silencer, its effect on entering is a link
    assert [t.card for fact in found if isinstance(fact, LinkAdded) for t in fact.link] == [entering]
    bring(g, silencer)
    found = bring(g, entering)
    assert not any(isinstance(fact, LinkAdded) for fact in found)
    assert all(t.owner != 0 for link in g.state.chain for t in link)


def test_dragons_blessing_silences_the_downgrades_in_its_stable():
    """Dragon's Blessing (Dragons): "the Downgrade cards in your Stable have no effect": Broken Stable forbids
    nothing, Pandamonium no longer hides the Unicorns, and Tiny Stable sets no limit."""
    g = table("uu-2nd", ("uu-dragons",))
    bring(g, "broken-stable")
    bring(g, "pandamonium")
    assert declined(g, Play(ANA, "rainbow-aura", ANA)) == (CannotPlay(0, "rainbow-aura", "broken-stable"),)
    assert g.table.tally(g.state)[0] == 0
    bring(g, "dragon-s-blessing")
    assert g.table.tally(g.state)[0] == 1  # the Baby counts again
    moves(g, Play(ANA, "rainbow-aura", ANA))


def test_protection_that_is_only_an_optional_save_does_not_forbid_the_destroy():
    """Black Knight Unicorn ("you may save it by sacrificing this card"), Blow Up Unicorn, Unicorn Survival Kit
    and Dragon's Blessing carry the descriptive tag `protects` but forbid nothing: destroying is not warned. The
    three saves are offered (the card the table is asked about: `acting.save_for`), and the destroy is recorded as
    said."""
    for base, addons, card_id, offered in [
        ("uu-2nd", (), "black-knight-unicorn", True),
        ("uu-2nd", ("uu-nsfw-expansion",), "blow-up-unicorn", True),
        ("uu-2nd", ("uu-adventures",), "unicorn-survival-kit", True),
        ("uu-2nd", ("uu-dragons",), "dragon-s-blessing", False),
    ]:
        g = table(base, addons)
        bring(g, card_id, into=BEN)
        bring(g, "basic-unicorn-red", into=BEN)
        saver = save_for(g.table.cards, g.state, "basic-unicorn-red", BEN, sacrificed=False)
        assert saver == (card_id if offered else None), card_id
        moves(g, Destroy(ANA, "basic-unicorn-red", BEN))
        assert "basic-unicorn-red" not in g.state.players[1].stable


def test_tiny_stable_says_when_its_limit_bites():
    """Tiny Stable: "If you ever have more than 5 Unicorns in your Stable, you must sacrifice a Unicorn card"."""
    g = table()
    bring(g, "tiny-stable")
    for colour in ("red", "blue", "green", "yellow"):
        assert not any(isinstance(fact, LimitReached) for fact in bring(g, f"basic-unicorn-{colour}"))
    assert LimitReached(0, "tiny-stable", 6, 5) in bring(g, "basic-unicorn-purple")
    found = moves(g, SetHand(ANA, 3))
    assert not any(isinstance(fact, LimitReached) for fact in found)  # not said again while nothing changes


def test_tiny_stable_entering_a_stable_already_over_5_bites_at_once():
    """Tiny Stable's "If you ever have more than 5 Unicorns": it bites the moment it enters a Stable of 6."""
    g = table()
    for colour in ("red", "blue", "green", "yellow", "purple"):
        bring(g, f"basic-unicorn-{colour}", into=BEN)
    assert LimitReached(1, "tiny-stable", 6, 5) in bring(g, "tiny-stable", into=BEN)


def test_neigh_means_neigh_cannot_be_answered():
    """Neigh Means Neigh (NSFW base): "This card is a Super Neigh. It cannot be Neighed."; it acts from the pile.
    The NSFW base's Neigh is The Safeword Is Neigh."""
    g = table("uu-nsfw")
    moves(g, Play(ANA, "vanillacorn", ANA), Respond(BEN, "neigh-means-neigh"))
    assert declined(g, Respond(ANA, "the-safeword-is-neigh")) == (CannotBeAnswered(1, "neigh-means-neigh"),)


#: The rules the tracker leaves to the table: card id, then each rule it leaves (words of that rule's sentence) and
#: why. A card with two rules, one followed, names the other here: each rule of a card is handled, not the card.
LEFT_TO_THE_TABLE: dict[str, dict[str, str]] = {
    "unicorn-phoenix": {
        "comes straight back": "its return from the discard pile is recorded as bring from discard",
        "Should you have no card to discard": "its enter effect's cost unpaid: the table records the destroy",
        "With an empty hand": "its return (second print) needs a discard: the table records it or not",
    },
    "unicorn-phoenix-ra": {
        "Should you have no card to discard": "its enter effect's cost unpaid (1st Edition print): the table "
        "records the destroy"
    },
    "puppicorn": {"Whenever a player begins a turn": "its walk (second print) is recorded as `move`"},
    "nanny-cam": {"face up": "a hand kept face up: nothing the tracker sees"},
    "dominatrix-whip": {"own Stable": "where a moved Unicorn may go while its optional effect is done: the table's"},
    "a-cute-attack": {"none of their effects": "its own removals trigger nothing: the table resolves no link"},
}

#: Sentences that state no rule of their own, each with what it says instead: they explain a rule beside them.
SAYS_NO_RULE: dict[str, dict[str, str]] = {
    "henry-the-huarizo": {"It has no other effect": "says the card has nothing more than its variations"},
    "velcro-barrier": {"Other kinds of card are not affected": "says which cards its rules leave alone"},
    "blinding-light": {"keep their type": "says what its rule (1st Edition, first print) leaves as it is"},
    "mid-sex-charlie-horse": {"continuous effects still work": "says what its rule does not silence"},
    "tiny-stable": {"does not say what happens to a sixth": "says what the print leaves unsaid (`at_most_five`)"},
}

#: Velcro Barrier's and Bridge Troll On Duty's second rule, checked by the tag of the variations they keep out.
HELD_IN = re.compile(r"Those already in it cannot be moved into another player's Field")
KEPT_OUT_TAGS = (Tag.NO_LLAMAS_HERE, Tag.NO_ALPACAS_HERE, Tag.NO_GOATS_HERE, Tag.NO_RAMS_HERE)
#: The opening of a triggered effect (000, 004: "preceded by an 'if' or 'when'"): its sentences are one effect that
#: joins the chain as a link and is read when it happens.
TRIGGER_OPENS = re.compile(
    r"^(When this card (enters|leaves)|If this card is in your (Stable|Field) at the beginning of your turn|"
    r"Should this card be (sacrificed|destroyed)|If this card (is|would be) (sacrificed|destroyed))",
    re.IGNORECASE,
)
#: A sentence after a trigger's opening that is a rule of its own: a delayed effect, a duty, a continuous rule.
OWN_RULE_OPENS = re.compile(
    r"^(When your turn ends|At the end of your turn|Each time|Whenever|While)",
    re.IGNORECASE,
)


def card_rules(text: str) -> list[tuple[str, bool]]:
    """Every sentence of a card's text, each with whether it belongs to a triggered effect (read as a link of the
    chain when it happens). "For example" joins the sentence it explains."""
    sentences: list[str] = []
    for sentence in (s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()):
        if sentence.startswith("For example") and sentences:
            sentences[-1] += " " + sentence
        else:
            sentences.append(sentence)
    out, in_trigger = [], False
    for sentence in sentences:
        if TRIGGER_OPENS.search(sentence):
            in_trigger = True
        elif OWN_RULE_OPENS.search(sentence):
            in_trigger = False
        out.append((sentence, in_trigger))
    return out


#: A sentence that says how a card counts (Ginormous Unicorn: 2 Unicorns; Pandamonium: none), its variation
#: (a hybrid, Legal Ramifications' Rams) or a hand limit: counted by the tally and the rules data.
COUNTED = re.compile(r"\bcounts? (as|toward)\b|\bhand limit\b|stop being Unicorns|\btoward winning\b", re.IGNORECASE)
COUNTING_TAGS = {Tag.COUNTS_AS_TWO, Tag.NOT_A_UNICORN_EFFECT, Tag.HAND_LIMIT_CHANGE, Tag.MAKES_BASIC}
RULES = load_rules()


def counted(card, sentence: str) -> bool:
    """True when a sentence says how the card counts, and the tally or the rules data counts it so."""
    by_data = card.id in RULES.variation_overrides or card.id in RULES.hand_limits or "+" in (card.variation or "")
    return bool(COUNTED.search(sentence)) and (bool(card.tags & COUNTING_TAGS) or by_data)


def how_handled(card, sentence: str, in_trigger: bool) -> str | None:
    """How the tracker handles one rule of a card: checked by its tag, done as a link of the chain when it happens
    (a Magic or Instant card's effect; a triggered effect), offered (a save "instead"), or left to the table; None
    when it is not handled."""
    if any(re.search(pattern, sentence, re.IGNORECASE) and card.has(tag) for pattern, tag in CHECKED_WORDING):
        return "checked"
    if HELD_IN.search(sentence) and card.tags & set(KEPT_OUT_TAGS):
        return "checked"
    triggered = card.tags & {Tag.ENTER_TRIGGER, Tag.LEAVE_TRIGGER, Tag.BEGIN_TURN_TRIGGER, Tag.BEGIN_TURN_OPTIONAL}
    if card.type in (CardType.MAGIC, CardType.INSTANT) or (in_trigger and triggered):
        return "a link"
    if card.has(Tag.LEAVE_TRIGGER) and leave_effect([sentence]) is not None:
        return "a link"  # its own leave effect ("If this card leaves your Stable, ...")
    if card.type in (CardType.BABY, CardType.BASIC):
        return "the card's kind"  # no effect, and a Baby's way back to the Nursery (moves: Babies never discarded)
    if counted(card, sentence):
        return "counted"
    if save_of(sentence) is not None and save_of(card.text) is not None:
        return "offered"  # a save "instead": offered when it applies, recorded with `save`
    left = LEFT_TO_THE_TABLE.get(card.id, {})
    if any(words in sentence for words in left):
        return "left to the table"
    if any(words in sentence for words in SAYS_NO_RULE.get(card.id, {})):
        return "no rule of its own"
    return None


#: Words that mark a prohibition or a protection in a card's text.
FORBIDS = re.compile(
    r"cannot|can't|can neither|\bnever\b|can only|only while|only play|no effect|do not work|do not happen|"
    r"take place|skip your Beginning|nothing can|no one can|none of|would be sacrificed or destroyed|"
    r"about to be destroyed|would be destroyed|face up",
    re.IGNORECASE,
)


#: The base deck an expansion is checked with, where it is not the default one.
EXPANSION_BASE = {"llamas-farmed": "llamas"}


def deck_cards(deck_id: str):
    base = deck_id in ("uu-1st", "uu-2nd", "uu-nsfw", "llamas")
    cards = load_card_set(deck_id) if base else load_card_set(EXPANSION_BASE.get(deck_id, "uu-2nd"), [deck_id])
    return [card for card in cards if card.deck == deck_id]


@pytest.mark.parametrize("deck_id", sorted(deck_files()))
def test_every_cannot_text_carries_its_tag(deck_id):
    """The same rules (`checked_tags`) give an imported card its tags."""
    missing = [(card.id, sorted(checked_tags(card.text) - card.tags)) for card in deck_cards(deck_id)]
    assert [(card_id, tags) for card_id, tags in missing if tags] == []


@pytest.mark.parametrize("deck_id", sorted(deck_files()))
def test_every_checked_tag_is_said_by_its_cards_text(deck_id):
    """The other way: a card carrying a checked tag says so, so no card is checked for a rule it does not have
    (Dragon's Blessing once carried a tag that forbade destroying Unicorns beside it)."""
    stray = [(card.id, sorted(card.tags & CHECKED_TAGS - checked_tags(card.text))) for card in deck_cards(deck_id)]
    assert [(card_id, tags) for card_id, tags in stray if tags] == []


def every_print(deck_id: str) -> Iterator[Card]:
    """Every card of a deck, and each other print of it as a card with that print's text and tags."""
    for card in deck_cards(deck_id):
        yield card
        for other in card.print_variants:
            yield replace(card, text=other.text, tags=other.tags or card.tags)


@pytest.mark.parametrize("deck_id", sorted(deck_files()))
def test_every_sentence_of_every_card_is_handled(deck_id):
    """Every sentence of every card, in every print of every shipped deck, is checked by a tag whose wording it
    says, done as a link of the chain, offered (a save), counted (the tally and the rules data), the card's kind (a
    Basic's or a Baby's), left to the table with the reason, or names no rule of its own (it explains the one
    beside it): a card with two rules, one checked, fails while the other is neither."""
    unhandled = [
        (card.id, sentence)
        for card in every_print(deck_id)
        for sentence, in_trigger in card_rules(card.text)
        if how_handled(card, sentence, in_trigger) is None
    ]
    assert unhandled == []


def test_each_rule_left_to_the_table_is_a_rule_a_card_says():
    """No stale entry: every rule named as left to the table (or as no rule) is in its card's text, and is not one
    the tracker checks."""
    listed = {**LEFT_TO_THE_TABLE, **SAYS_NO_RULE}
    prints = [c for deck_id in deck_files() for c in every_print(deck_id) if c.id in listed]
    for card_id, left in listed.items():
        for words in left:
            sentences = [(c, s) for c in prints if c.id == card_id for s, _ in card_rules(c.text) if words in s]
            assert sentences, (card_id, words)
            assert all(not checked_tags(s) & c.tags for c, s in sentences), (card_id, words)


def test_a_card_with_one_rule_checked_and_one_not_is_caught():
    """The sweep counts rules, not tags: Velcro Barrier without the check of its second rule would fail."""
    from dataclasses import replace

    velcro = next(c for c in deck_cards("llamas") if c.id == "velcro-barrier")
    handled = [how_handled(velcro, s, t) for s, t in card_rules(velcro.text)]
    assert handled == ["checked", "checked", "no rule of its own"]
    unchecked = replace(velcro, text=velcro.text + " Its owner cannot draw on Tuesdays.")
    assert [s for s, t in card_rules(unchecked.text) if how_handled(unchecked, s, t) is None] == [
        "Its owner cannot draw on Tuesdays."
    ]


@pytest.mark.parametrize(
    "base, addons, card_id",
    [
        # Magical Kittencorn (1st Edition): "Magic cards can neither destroy it"; (Rainbow Apocalypse): "Magic cards
        # cannot destroy this card".
        ("uu-1st", (), "magical-kittencorn"),
        ("uu-2nd", ("uu-rainbow-apocalypse",), "magical-kittencorn-ra"),
    ],
)
def test_every_print_of_magical_kittencorn_is_checked(base, addons, card_id):
    g = table(base, addons)
    bring(g, card_id, into=BEN)
    moves(g, Play(ANA, "unicorn-poison"), Resolve())
    assert declined(g, Destroy(ANA, card_id, BEN)) == (MagicCannotDestroy(card_id, "unicorn-poison"),)


def test_the_1st_edition_yay_protects_from_the_stable_only():
    """Yay (1st Edition): "While this card is in your Stable, no one can Neigh the cards you play"."""
    g = table("uu-1st")
    moves(g, Play(ANA, "yay", ANA), Respond(BEN, "neigh"))  # on the pile it protects nothing yet
    moves(g, Resolve())
    bring(g, "yay")
    moves(g, EndTurn(), Draw(BEN), EndTurn(), Draw(ANA), Play(ANA, "basic-unicorn-red", ANA))
    assert declined(g, Respond(BEN, "neigh")) == (CannotBeNeighed(0, "basic-unicorn-red", "yay"),)


def test_the_1st_edition_super_neigh_cannot_be_answered():
    """Super Neigh (1st Edition): "A Super Neigh cannot be Neighed"."""
    g = table("uu-1st")
    moves(g, Play(ANA, "basic-unicorn-red", ANA), Respond(BEN, "super-neigh"))
    assert declined(g, Respond(ANA, "neigh")) == (CannotBeAnswered(1, "super-neigh"),)


def test_the_1st_edition_tiny_stable_bites_above_5():
    """Tiny Stable (1st Edition): "If you ever have more than 5 Unicorns in your Stable, you must sacrifice"."""
    g = table("uu-1st")
    bring(g, "tiny-stable")
    for colour in ("red", "blue", "green", "yellow"):
        bring(g, f"basic-unicorn-{colour}")
    assert LimitReached(0, "tiny-stable", 6, 5) in bring(g, "basic-unicorn-purple")


def test_unicorn_dungeon_gives_a_second_play():
    """Unicorn Dungeon (NSFW): "you may play 2 cards, not just 1, in this turn's Action phase"; used, not let go."""
    g = table("uu-nsfw")
    bring(g, "unicorn-dungeon")
    moves(g, EndTurn(), Draw(BEN), EndTurn(), Resolve())  # Ana does its effect before the Draw phase
    moves(g, Draw(ANA), Play(ANA, "vanillacorn", ANA), Resolve(), Play(ANA, "unicorn-hangover"))


@pytest.mark.parametrize(
    "base, addons, card_id, into",
    [
        # Llamacorn (1st Edition), a Unicorn: "the discard pile is shuffled into the deck".
        ("uu-1st", (), "llamacorn", ANA),
        # Rainbow Shitstorm (NSFW), a Magic card: "The discard pile is shuffled into the deck".
        ("uu-nsfw", (), "rainbow-shitstorm", None),
    ],
)
def test_a_card_that_reshuffles_makes_the_reshuffle_its_own(base, addons, card_id, into):
    g = table(base, addons)
    moves(g, Play(ANA, card_id, into), Resolve())
    assert g.state.chain
    discard, left = len(g.state.discard), g.state.deck
    found = moves(g, Reshuffle())
    assert Reshuffled(discard, left + discard) in found and g.state.discard == ()
    assert g.state.deck == left + discard  # what was left of the deck stays in it


def test_unicorn_flatulence_says_to_sacrifice_it_once_no_unicorn_is_left():
    """Unicorn Flatulence (NSFW): "If you ever have no Unicorn cards in your Stable, sacrifice this card"."""
    g = table("uu-nsfw")
    bring(g, "unicorn-flatulence")
    baby = g.state.players[0].stable[0]
    assert CardMustGo(0, "unicorn-flatulence", empty_hand=False) in moves(g, Sacrifice(ANA, baby))
    assert not any(isinstance(fact, CardMustGo) for fact in moves(g, SetHand(ANA, 2)))  # said once


@pytest.mark.parametrize(
    "addon, card_id",
    [
        # Hex (Legends): "The moment your hand is empty, this card must move to another player's Stable".
        ("uu-legends", "hex"),
        # Extremely Small Backpack (Adventures): "If you ever have no cards in your hand, move this card".
        ("uu-adventures", "extremely-small-backpack"),
    ],
)
def test_a_card_that_moves_on_once_the_hand_is_empty_says_so(addon, card_id):
    g = table("uu-2nd", (addon,))
    bring(g, card_id)
    moves(g, SetHand(ANA, 1))
    found = moves(g, Discard(ANA))
    assert g.state.players[0].hand == 0 and CardMustGo(0, card_id, empty_hand=True) in found


def test_the_1st_edition_kittencorn_cannot_be_affected_by_magic_in_any_way():
    """Magical Kittencorn (1st Edition): "Magic cards can neither destroy it nor affect it in any other way"; the
    2nd Edition print only "cannot destroy", so a Magic card may steal it."""
    g = table("uu-1st")
    bring(g, "magical-kittencorn", into=BEN)
    moves(g, Play(ANA, "unicorn-swap"), Resolve())
    found = declined(g, Steal(ANA, "magical-kittencorn", BEN))
    assert found == (MagicCannotAffect("magical-kittencorn", "unicorn-swap"),)
    second = table("uu-2nd")
    bring(second, "magical-kittencorn", into=BEN)
    moves(second, Play(ANA, "unicorn-swap"), Resolve(), Steal(ANA, "magical-kittencorn", BEN))

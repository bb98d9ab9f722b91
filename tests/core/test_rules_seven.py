"""Rules a real table meets that the tracker got wrong (issue "Rules 7"), each case citing the rulebook line or the
card it follows: cards that go back to a hand rather than the discard pile, what a chain link says first, a second
action a player's own Stable forbids, the defined player phrases, removals with no effect being done, targets
declared at the play, and the 1st Edition first print's texts.

Rulebooks: 000_4cb0751821c6f7f6.txt (current base game: "Player Targeting", "impossible action"), 002 (targeting
"Option 1"). Played on the core's own API (tests/core/playing.py), asserting on the typed objections and facts and on
the state.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from assistant.core.cards.card import Card, CardType, Tag
from assistant.core.cards.wording import Need, UnicornAction, required_actions, wording_tags
from assistant.core.game.chain import TriggerKind
from assistant.core.game.events import (
    Bring,
    Destroy,
    Discard,
    EventError,
    Gathered,
    Play,
    Resolve,
    Sacrifice,
    ToDeck,
    ToDiscard,
    event_from_dict,
)
from assistant.core.game.facts import LinkAdded
from assistant.core.game.history import Game
from assistant.core.game.objections import EffectForbidden, NotInStable, TargetUnfit
from assistant.core.language.device import DeviceMoveError, command_for, read_move
from assistant.core.words.announce import chain_duty
from assistant.core.words.cardtext import LEAVING, card_gist, duty_short, names_deed
from assistant.storage.decks import load_card_set, load_deck
from assistant.storage.paths import card_texts_dir
from tests.core import playing as play
from tests.core.talking import asks, bring
from tests.core.talking import facts as talking_facts
from tests.core.talking import table as talking_table

SHIPPED = sorted(path.stem for path in card_texts_dir().glob("*.toml"))


def every_text(deck_id: str) -> list[tuple[str, str]]:
    """Every text of a shipped deck, each print variant's too, with the card's id."""
    deck = load_deck(deck_id)
    return [(c.id, text) for c in deck.cards for text in (c.text, *(v.text for v in c.print_variants))]


# The defined player phrases (000, "Player Targeting"): "any player" is one player, you included; "any other
# player" and "another player" one player, you excluded; "any number of players" as many as you choose, you
# excluded. A qualifier that says the opposite of the definition misleads the table.

#: Each defined phrase, with the words after it that would say the opposite of its definition.
_SAYS_YOU_TOO = r"^,? (yourself allowed|you included|yourself included|your own included|or yourself)"
DEFINED_PHRASES = {
    r"\bany number of players\b": _SAYS_YOU_TOO,
    r"\bany player\b(?!'s)": r"^,? (but (yourself|themselves)|except (you|yourself)|other than (you|yourself)|not you)",
    r"\b(another player|any other player)\b(?!'s)": _SAYS_YOU_TOO,
}


def misused_phrases(text: str) -> list[str]:
    """The defined phrases of a text followed by words that say the opposite of what 000 defines them as."""
    found = []
    for phrase, opposite in DEFINED_PHRASES.items():
        for match in re.finditer(phrase, text, re.IGNORECASE):
            if re.search(opposite, text[match.end() :], re.IGNORECASE):
                found.append(text[match.start() : match.end() + 24])
    return found


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_the_defined_player_phrases_are_used_as_rulebook_000_defines_them(deck_id):
    wrong = [(card, misused_phrases(text)) for card, text in every_text(deck_id) if misused_phrases(text)]
    assert wrong == []


def test_the_phrase_check_catches_a_phrase_said_against_its_definition():
    assert misused_phrases("Choose any number of players, yourself allowed. Each draws.") != []
    assert misused_phrases("Pick any player but themselves, you included, and destroy.") != []
    assert misused_phrases("Choose any number of players other than yourself.") == []
    assert misused_phrases("Pick any player, yourself allowed.") == []  # says the definition again: no harm


def test_unicorn_rainbow_princess_chooses_players_other_than_yourself():
    """000: "Any number of players refers to as many players as you choose, excluding you"."""
    princess = next(c for c in load_deck("uu-rainbow-apocalypse").cards if c.id == "unicorn-rainbow-princess")
    assert "other than yourself" in princess.text and "yourself allowed" not in princess.text


# What a chain link says first: its deed, at every verbosity (the link's duty is the reply's decisive fact, the one
# line said of it at brief).


def every_print(deck_id: str) -> list[Card]:
    """Every card of a shipped deck and each of its other prints, as a card of its own."""
    deck = load_deck(deck_id)
    return [
        p
        for c in deck.cards
        for p in (c, *(dataclasses.replace(c, text=v.text, tags=v.tags or c.tags) for v in c.print_variants))
    ]


def trigger_kinds(card: Card) -> list[TriggerKind]:
    """The kinds of chain link a card's print can make: its own effect (a Magic or Instant card's, a duty), and its
    enter, leave and beginning-of-turn effects."""
    kinds = [TriggerKind.MAGIC]
    kinds += [TriggerKind.ENTER] if card.has(Tag.ENTER_TRIGGER) else []
    kinds += [TriggerKind.LEAVE] if card.has(Tag.LEAVE_TRIGGER) else []
    begins = card.has(Tag.BEGIN_TURN_TRIGGER) or card.has(Tag.BEGIN_TURN_OPTIONAL)
    return kinds + ([TriggerKind.BEGIN] if begins else [])


def first_line_problems(deck_id: str) -> list[tuple[str, str, str]]:
    """Each card print and link kind whose first line (`chain_duty`'s words for the link) names no deed."""
    wrong = []
    for card in every_print(deck_id):
        for kind in trigger_kinds(card):
            about = {TriggerKind.ENTER: "enters", TriggerKind.LEAVE: LEAVING}.get(kind, "")
            about = "beginning of your turn" if kind is TriggerKind.BEGIN else about
            line = duty_short(card_gist(card, about))
            no_effect = card.type in (CardType.BASIC, CardType.BABY) and "no effect of its own" in card.text
            if not no_effect and not names_deed(line):
                wrong.append((card.id, kind.value, line))
    return wrong


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_the_first_line_of_every_card_prints_chain_link_names_a_deed(deck_id):
    assert first_line_problems(deck_id) == []


def test_a_deed_is_told_from_a_bare_choice_or_subject():
    assert not names_deed("Choose one.") and not names_deed("Every player.") and not names_deed("You.")
    assert not names_deed("Choose any player.") and not names_deed("May pick any player.")
    assert names_deed("Destroy a Unicorn.") and names_deed("Every player must discard a card.")
    assert names_deed("Your Unicorns cannot be destroyed.")


@pytest.mark.parametrize("level", ["brief", "normal", "coaching"])
@pytest.mark.parametrize(
    ("base", "card", "deed"),
    [
        ("uu-2nd", "targeted destruction", "Choose one: destroy an Upgrade, or sacrifice a Downgrade."),
        ("uu-2nd", "mystical vortex", "Every player must discard a card."),
    ],
)
def test_a_magic_cards_link_is_said_first_by_its_deed_at_every_verbosity(level, base, card, deed):
    session = talking_table(base)
    session.handle(f"verbosity {level}")
    bring(session, "rainbow-aura", "Ben")  # an Upgrade in Ben's Stable: Targeted Destruction has its target
    session.handle(f"play {card}")
    said = session.handle("resolve")
    assert said.decisive == deed and deed in said.speech


@pytest.mark.parametrize("level", ["brief", "normal", "coaching"])
def test_a_counters_draw_is_said_first_by_its_deed_at_every_verbosity(level):
    """Goatsundheit: once it stopped a card, its player and that card's player may each draw."""
    session = talking_table("llamas", ("llamas-farmed",))
    session.handle(f"verbosity {level}")
    session.handle("play basic llama")
    session.handle("Ben play goatsundheit")
    said = session.handle("resolve")
    assert said.decisive.startswith("You and the player whose card you stopped may each draw"), said.decisive


# Cards that go back to the hand, not the discard pile.


def flyers(deck_id: str) -> list[Card]:
    """The cards of a deck that go back to their owner's hand when sacrificed or destroyed, by their wording."""
    return [c for c in load_deck(deck_id).cards if Tag.BACK_TO_HAND in wording_tags(c.text, c.type)]


def test_a_destroyed_annoying_flying_unicorn_goes_back_to_its_owners_hand_and_the_hand_count_follows():
    """The 2nd Edition Annoying Flying Unicorn (facts: "comes back to your hand if sacrificed/destroyed", mandatory):
    destroyed by Unicorn Poison in Ben's Stable, it is in Ben's hand, not the discard pile, and no effect waits."""
    g = play.game("uu-2nd", babies=play.RED_PINK, hands=True, drawn=True)
    play.moves(g, Bring(play.BEN, "annoying-flying-unicorn", play.BEN), Resolve())
    ben_hand = g.state.players[play.BEN].hand
    play.moves(g, Play(play.ANA, "unicorn-poison"), Resolve(), Destroy(play.ANA, "annoying-flying-unicorn", play.BEN))
    assert "annoying-flying-unicorn" not in g.state.discard
    assert g.state.players[play.BEN].hand == ben_hand + 1
    assert not any(t.card == "annoying-flying-unicorn" for link in g.state.chain for t in link)
    play.moves(g, Resolve())
    assert g.state.chain == ()
    g.pop()
    g.pop()  # undone: the card is back in Ben's Stable and his hand as it was
    assert "annoying-flying-unicorn" in g.state.players[play.BEN].stable
    assert g.state.players[play.BEN].hand == ben_hand


@pytest.mark.parametrize("deck_id", ["uu-1st", "uu-2nd", "uu-dragons", "uu-nsfw", "llamas"])
def test_every_flyer_sacrificed_goes_back_to_its_owners_hand(deck_id):
    base = "llamas" if deck_id == "llamas" else deck_id if deck_id in ("uu-1st", "uu-2nd", "uu-nsfw") else "uu-2nd"
    addons = () if deck_id == base else (deck_id,)
    found = flyers(deck_id)
    assert found, deck_id
    for card in found:
        g = play.game(base, *addons, hands=True, drawn=True)
        g.push(Bring(play.ANA, card.id, play.ANA))
        hand = g.state.players[play.ANA].hand
        g.push(Sacrifice(play.ANA, card.id))
        assert card.id not in g.state.discard and g.state.players[play.ANA].hand == hand + 1, card.id
        assert card.id not in g.state.players[play.ANA].stable


# A card whose required second action the player's own Stable forbids (000: "If you have a card in your hand that
# requires you to perform an impossible action, you may not play it").


@pytest.mark.parametrize(
    ("card", "forbidder", "action"),
    [
        ("two-for-one", "divine-peace", UnicornAction.DESTROY),  # sacrifice, then destroy 2
        ("unicorn-swap", "paladin-unicorn", UnicornAction.STEAL),  # move one of yours, then steal
        ("unicorn-poison", "divine-peace", UnicornAction.DESTROY),  # a first action, as before
    ],
)
def test_a_card_whose_required_action_her_own_stable_forbids_is_warned_at_the_play(card, forbidder, action):
    g = play.game("uu-2nd", "uu-legends", babies=play.RED_PINK, hands=True, drawn=True)
    play.bring(g, "rhinocorn", play.ANA)
    play.bring(g, "rhinocorn", play.BEN)  # a Unicorn on each side: each card has its target
    assert not any(isinstance(o, EffectForbidden) for o in g.check(Play(play.ANA, card)))
    play.bring(g, forbidder, play.ANA)
    while g.state.chain:
        g.push(Resolve())
    assert EffectForbidden(play.ANA, card, forbidder, action) in g.check(Play(play.ANA, card))


def test_a_required_action_is_read_from_the_cards_tags_not_its_words():
    """The shipped card carries the tag the check reads; the wording gives it (as it does an imported card's), every
    required action counted and none that is optional or one of a choice."""
    cards = load_card_set("uu-2nd", ["uu-legends"])
    poison = cards.get("unicorn-poison")
    assert poison is not None and Tag.MUST_DESTROY in poison.tags
    assert required_actions("Sacrifice a card in your Stable, then destroy 2 cards.", CardType.MAGIC) == {
        Tag.MUST_DESTROY
    }
    assert required_actions("You may sacrifice a card. If you do, destroy a card.", CardType.MAGIC) == frozenset()
    assert required_actions("Choose one. Destroy an Upgrade card, or steal a card.", CardType.MAGIC) == frozenset()


# One rule for removing a card when no effect is being done: never warned for that (docs/commands.md, "Removals").


@pytest.mark.parametrize(
    "removal",
    [
        Destroy(play.ANA, "basic-unicorn-red", play.BEN),
        Sacrifice(play.BEN, "basic-unicorn-red"),
        ToDeck(play.ANA, Gathered.CARD, "basic-unicorn-red", play.BEN),
        ToDiscard(play.ANA, "basic-unicorn-red", play.BEN),
        Discard(play.BEN, "neigh"),
    ],
    ids=["destroy", "sacrifice", "to-deck", "to-discard-pile", "discard"],
)
def test_every_removal_with_no_effect_being_done_is_recorded_by_the_same_rule(removal):
    g = play.game("uu-2nd", babies=play.RED_PINK, hands=True, drawn=True)
    play.bring(g, "basic-unicorn-red", play.BEN)
    assert g.state.chain == () and g.state.pile == ()
    play.moves(g, removal)  # nothing against it: no effect asks for it, and the table is the authority


@pytest.mark.parametrize(
    ("removal", "objection"),
    [
        (Destroy(play.ANA, "basic-unicorn-red", play.BEN), NotInStable("basic-unicorn-red", play.BEN)),
        (Sacrifice(play.BEN, "basic-unicorn-red"), NotInStable("basic-unicorn-red", play.BEN)),
        (ToDeck(play.ANA, Gathered.CARD, "basic-unicorn-red", play.BEN), NotInStable("basic-unicorn-red", play.BEN)),
        (ToDiscard(play.ANA, "basic-unicorn-red", play.BEN), NotInStable("basic-unicorn-red", play.BEN)),
    ],
    ids=["destroy", "sacrifice", "to-deck", "to-discard-pile"],
)
def test_every_removal_is_warned_for_a_card_that_is_not_there(removal, objection):
    g = play.game("uu-2nd", babies=play.RED_PINK, hands=True, drawn=True)
    assert objection in g.check(removal)


# The 1st Edition's first print, where the public lists give it differently: its own print variant, its source named.


@pytest.mark.parametrize(
    ("card_id", "first_print_words"),
    [
        ("good-deal", "then discard"),
        ("back-kick", "then they must discard"),
        ("neigh", "any player, you included"),
        ("super-neigh", "any player, you included"),
        ("annoying-flying-unicorn", "another player"),
    ],
)
def test_each_differing_first_print_text_is_kept_as_its_own_print_variant(card_id, first_print_words):
    deck = load_deck("uu-1st")
    found = next(c for c in deck.cards if c.id == card_id)
    first = [v for v in found.print_variants if "first print" in v.print and first_print_words in v.text]
    assert first and first_print_words not in found.text, [v.text for v in found.print_variants]
    assert found.name in deck.info.notes  # the deck file says which print each text follows, and from where
    assert all(v.sources or v.confidence.value == "unverified" for v in first)


# Targets declared at the play (002, targeting "Option 1: declare which player(s) you are targeting").


def three_at_table() -> Game:
    """Ana, Ben and Cy, no Babies, Ana in her Action phase."""
    return play.game("uu-2nd", players=("Ana", "Ben", "Cy"), hands=True, drawn=True)


def test_a_play_carries_its_declared_target_as_a_seat_and_the_neigh_question_says_it():
    session = talking_table()
    session.handle("verbosity coaching")
    bring(session, "basic-unicorn-red", "Ben")
    said = session.handle("play unicorn poison targeting Ben")
    assert session.game.log[-1] == Play(play.ANA, "unicorn-poison", targets=(play.BEN,))
    assert "Ana played Unicorn Poison, targeting Ben." in said.speech
    assert "Any Neigh for Ana's Unicorn Poison, targeting Ben?" in said.speech


def test_a_target_its_card_cannot_act_on_is_warned_at_the_play():
    """Unicorn Poison "Destroy a Unicorn card in another player's Stable": Ben's Unicorn behind Rainbow Aura, Dee's
    empty Stable and Ana herself are each no target for it, while Cy's Unicorn is (so the play itself is possible,
    and only the target is warned)."""
    g = play.game("uu-2nd", players=("Ana", "Ben", "Cy", "Dee"), hands=True, drawn=True)
    play.bring(g, "rainbow-aura", play.BEN)
    play.bring(g, "basic-unicorn-red", play.BEN)
    play.bring(g, "basic-unicorn-blue", play.CY)
    dee = 3
    for aimed in (play.BEN, dee, play.ANA):
        found = g.check(Play(play.ANA, "unicorn-poison", targets=(aimed,)))
        assert found == (TargetUnfit(play.ANA, "unicorn-poison", aimed, Need.OTHERS_UNICORN),), aimed
    assert g.check(Play(play.ANA, "unicorn-poison", targets=(play.CY,))) == ()


def test_a_declared_target_survives_undo_and_a_save_and_an_old_save_still_loads():
    g = three_at_table()
    play.bring(g, "basic-unicorn-red", play.BEN)
    before = g.state
    event = Play(play.ANA, "unicorn-poison", targets=(play.BEN,))
    g.push(event)
    assert g.state.pile[0].targets == (play.BEN,)
    saved = event.to_dict()
    assert event_from_dict(saved, 3, {"unicorn-poison"}) == event
    old = {"e": "play", "player": 0, "card": "unicorn-poison", "into": None, "source": "hand"}  # before targets
    assert event_from_dict(old, 3, {"unicorn-poison"}) == Play(play.ANA, "unicorn-poison")
    assert "target" not in Play(play.ANA, "unicorn-poison").to_dict()  # an undeclared one is written as before
    with pytest.raises(EventError):
        event_from_dict({**saved, "target": 7}, 3, {"unicorn-poison"})
    g.pop()
    assert g.state == before


def test_a_phones_play_declares_its_target_as_the_typed_line_does():
    session = talking_table()
    bring(session, "basic-unicorn-red", "Ben")
    move = read_move({"verb": "play", "card": "unicorn-poison", "aim": "Ben"})
    command, _ = command_for(move, "Ana", session.game)
    assert command.aims == ("Ben",)
    session.phone_desk.device_move("Ana", move)
    assert session.game.log[-1] == Play(play.ANA, "unicorn-poison", targets=(play.BEN,))
    with pytest.raises(DeviceMoveError):
        read_move({"verb": "draw", "aim": "Ben"})  # only a play aims


@pytest.mark.parametrize("level", ["brief", "normal", "coaching"])
@pytest.mark.parametrize("base", ["uu-2nd", "uu-1st", "llamas"])
def test_every_magic_cards_link_is_said_first_by_a_deed_at_every_verbosity(level, base):
    """Each Magic card of a base deck, played and resolved through the session: the reply leads with its link's
    duty, which names a deed, at brief (where it is the only description said), normal and coaching."""
    cards = load_card_set(base)
    wrong = []
    for card in (c for c in cards if c.type is CardType.MAGIC):
        session = talking_table(base)
        session.handle(f"verbosity {level}")
        if asks(session.handle(f"play {card.id}")):
            session.handle("yes")  # warned (nothing to act on): recorded anyway, as a table may
        said = session.handle("resolve")
        links = [f.link for f in talking_facts(session) if isinstance(f, LinkAdded)]
        duty = chain_duty(session.game.table, links[0]) if links else ""
        if not (duty and duty in said.decisive and duty in said.speech and names_deed(duty)):
            wrong.append((card.id, duty, said.decisive))
    assert wrong == []

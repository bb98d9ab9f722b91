"""From a card's wording to what the tracker knows of it: its tags, its type and its Llamas Unleashed variation.

One set of rules serves twice: the tests check every shipped card's tags against them (so a reworded text or a
stray tag cannot silently turn a rule off or on), and an owner's imported card that the shipped deck lacks gets its
tags from them (so an imported counter is a Neigh and an imported "Magical Goat card" is a Goat, as a shipped
card would be). The rules read our own card texts and the printed wording alike; where the printed wording is
not known (Llamas Unleashed), they read both the way a player would say it.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Literal

from assistant.core.cards.card import VARIATIONS, CardType, Tag, normalize

__all__ = [
    "CHECKED_WORDING",
    "checked_tags",
    "leave_effect",
    "leaves_however",
    "destroyed_only",
    "then_join",
    "needed_variation",
    "Need",
    "needed_target",
    "needed_action",
    "Cost",
    "CostAction",
    "costs",
    "required_actions",
    "SaveCard",
    "save_of",
    "table_rule",
    "UnicornAction",
    "unicorn_actions",
    "wording_tags",
    "read_type_line",
    "taken_variation",
    "variation_from_name",
]

#: What a card's text says, and the tag the tracker checks a move against for it. Both ways on every shipped
#: card: a text saying it needs the tag, and a card with the tag must say it.
CHECKED_WORDING: tuple[tuple[str, Tag], ...] = (
    (r"you cannot play Neigh cards", Tag.STOPS_NEIGHS),
    (r"you cannot play Instant cards", Tag.STOPS_INSTANTS),
    (r"you cannot play Upgrade cards", Tag.STOPS_UPGRADES),
    (r"you cannot play Magic cards", Tag.STOPS_MAGIC),
    (r"you cannot play Basic Unicorn cards", Tag.STOPS_BASICS),
    (
        r"Basic Unicorn cards cannot enter any Stable except yours|no Basic Unicorn card can come into any other "
        r"player's Stable",
        Tag.BASICS_ONLY_HERE,
    ),
    (r"the other players cannot play Basic Unicorn cards", Tag.STOPS_OTHERS_BASICS),
    (r"no Basic Unicorn card can enter your Stable|Basic Unicorn cards cannot enter your Stable", Tag.NO_BASICS_HERE),
    (r"Baby Unicorn cards cannot enter any", Tag.NO_BABIES),
    (r"Magic cards cannot destroy this card|Magic cards can neither destroy it", Tag.MAGIC_PROOF),
    (r"cannot be sacrificed or destroyed|Nothing can sacrifice or destroy this card", Tag.INDESTRUCTIBLE),
    (r"more than 5 (Unicorns|Animals)", Tag.AT_MOST_FIVE),
    (r"you cannot steal", Tag.STOPS_STEALING),
    (
        r"no one can Neigh the cards you play|Super Neigh cannot be Neighed|It cannot be Neighed|"
        r"Instant cards cannot affect the cards you play",
        Tag.CANNOT_BE_NEIGHED,
    ),
    (r"your Unicorn cards cannot be destroyed", Tag.PROTECTS_UNICORNS),
    (
        r"can only enter a Stable that already holds a Basic|cannot enter a Stable that has no Basic|"
        r"only play this card if there is a Basic|play this card only while your own Stable holds a Basic|"
        r"you need a Basic Unicorn card in your own Stable|Only a Stable that already holds a Basic Unicorn card can "
        r"take this card",
        Tag.NEEDS_BASIC,
    ),
    (r"Llama and Alpaca Animal cards cannot enter your Field", Tag.NO_LLAMAS_HERE),
    (r"Llama and Alpaca Animal cards cannot enter your Field", Tag.NO_ALPACAS_HERE),
    (r"you cannot win the game", Tag.NO_WIN_WITH_BASICS),
    (r"you cannot win for as long as this card", Tag.NO_WIN),
    (r"can win with 2 fewer", Tag.GOAL_MINUS_TWO),
    (r"can only enter a Field that holds an Animal card of each of the 4 variations", Tag.NEEDS_ALL_VARIATIONS),
    (r"you can only play this card while your Field holds an? (Llama|Alpaca|Goat|Ram) card", Tag.NEEDS_VARIATION),
    (r"no one can play an Instant card until that turn is over", Tag.BANS_INSTANTS),
    (r"Goat and Ram Animal cards cannot enter your Field", Tag.NO_GOATS_HERE),
    (r"Goat and Ram Animal cards cannot enter your Field", Tag.NO_RAMS_HERE),
    (r"Baby Animal cards cannot enter your Field", Tag.NO_BABIES_HERE),
    (r"you cannot play a card with the word Llama in its name", Tag.STOPS_LLAMA_NAMES),
    (r"when your turn ends, pass it to the player on your left", Tag.TRAVELS),
    (
        r"(when your turn ends|at the end of your turn), (that Unicorn (goes|comes) back|give that Unicorn back)",
        Tag.GIVES_BACK_AT_END,
    ),
    (r"Triggered card effects cannot destroy this card", Tag.TRIGGER_PROOF),
    (r"nor affect it in any other way", Tag.MAGIC_UNTOUCHABLE),
    (r"the effects of your cards cannot destroy", Tag.STOPS_DESTROYING),
    (r"the effects of other players' Unicorn cards cannot destroy", Tag.UNICORN_EFFECT_PROOF),
    (r"triggered effects of cards belonging to other players can neither destroy", Tag.OTHERS_TRIGGER_PROOF),
    (r"word Dragon in their name cannot destroy", Tag.DRAGON_PROOF),
    (r"your Upgrade cards affect every player's Stable", Tag.UPGRADES_EVERYWHERE),
    (r"you skip your Beginning of Turn phase", Tag.SKIPS_BEGINNING),
    (r"your Unicorn cards count as Basic Unicorns", Tag.MAKES_BASIC),
    (r"Cards that affect Unicorn cards have no effect on (your Pandas|them)", Tag.NOT_A_UNICORN_EFFECT),
    (
        r"their effects do not work|none of the effects of your Unicorn cards can be used|counts as a Ram and has no "
        r"effect of its own",
        Tag.UNICORNS_EFFECTLESS,
    ),
    (
        r"skip your Draw phase|skip this turn's Draw phase|give up this turn's Draw phase|skip drawing a card in "
        r"your Draw phase",
        Tag.SKIPS_DRAW,
    ),
    (r"skip your Action phase", Tag.SKIPS_ACTION),
    (r"give up one phase of this turn, your Draw phase or your Action phase", Tag.GIVES_UP_PHASE),
    (r"Put this card, every card in your hand and the whole discard pile back in the deck", Tag.SHUFFLES_ITSELF),
    (
        r"your turn ends at once|your turn then jumps to its end|skip straight to your End of Turn phase|"
        r"jump right to your End of Turn phase",
        Tag.ENDS_TURN,
    ),
    (
        r"their effects do not work|effects of your Unicorn cards can be used|triggered effects of your Unicorn "
        r"cards do not happen|triggered effects never happen|triggered effects on your Unicorn cards take place|"
        r"counts as a Ram and has no effect",
        Tag.SILENCES_UNICORNS,
    ),
    (
        r"the Downgrade cards in your Stable have no effect|any Downgrade card in your Stable does nothing",
        Tag.SILENCES_DOWNGRADES,
    ),
    (
        r"discard pile into the deck|discard pile is shuffled into the deck|discard pile back in the deck and shuffle",
        Tag.RESHUFFLES,
    ),
    (
        r"ever hold no Unicorn cards, sacrifice this card|"
        r"ever have no Unicorn cards in your Stable, sacrifice this card",
        Tag.GONE_WITHOUT_UNICORNS,
    ),
    (r"hand is empty, this card (must )?moves?|no cards in your hand, move this card", Tag.MOVES_ON_EMPTY_HAND),
    (r"If your hand is empty, sacrifice this card", Tag.GONE_ON_EMPTY_HAND),
    (r"the Baby Animal cards in it cannot be sacrificed, destroyed or stolen", Tag.PROTECTS_BABIES),
    (r"you are not affected by the Herd Bonuses of other players", Tag.HERD_BONUS_PROOF),
    (r"Whenever another player aims one of their effects at this card", Tag.EACH_AIMED_AT),
    (r"you may play (2|two) cards|you may play a second card|you may play one extra card", Tag.EXTRA_ACTION),
    (r"\btake another turn\b|\ban extra turn\b", Tag.EXTRA_TURN),
    (r"\bplay it at once\b|\bto be played again right away\b", Tag.PLAYS_CARD),
    (
        r"every card in your hand and the whole discard pile back in the deck|"
        r"put a card from your hand back into the deck|shuffle it into the deck|shuffled back into the deck",
        Tag.TO_DECK,
    ),
    (r"comes to your hand rather than the discard pile", Tag.SAVES_CARD),
    (
        r"(sacrificed or destroyed|leaves your (Stable|Field)), (it (goes|returns) (back )?to your hand|put it back in "
        r"your hand|you take it back into your hand)",
        Tag.BACK_TO_HAND,
    ),
    (r"skip both the Beginning of Turn phase and the Draw phase", Tag.SKIPS_START),
    (r"whenever a Unicorn card comes into your Stable or goes out of it", Tag.EACH_UNICORN_MOVES),
    (r"each time a card comes into your (Stable|Field)", Tag.EACH_CARD_ENTERS),
    (
        r"every time one of your Unicorn cards leaves your Stable by being sacrificed or destroyed",
        Tag.EACH_UNICORN_LOST,
    ),
    (r"each time you draw", Tag.EACH_DRAW),
    (r"each time another player destroys one of your (Unicorn|Animal) cards", Tag.EACH_UNICORN_DESTROYED),
    (r"each time a card in your (Stable|Field) is destroyed", Tag.EACH_CARD_DESTROYED),
    (r"each time you destroy an? (Unicorn|Animal) card", Tag.EACH_DESTROY),
    (r"each time any player, you included, plays a Llama", Tag.EACH_LLAMA_PLAYED),
    (r"each time you play a Magic card", Tag.EACH_MAGIC_PLAYED),
)

_EACH_TIME = re.compile(r"\b(?:each time|whenever|every time)\b", re.IGNORECASE)


def duty_is_mandatory(text: str) -> bool:
    """True when the sentence of a card's duty each time something happens ("Each time ...", "whenever ...", "every
    time ...") says what must be done ("you must discard a card", Barbed Wire; "that player must discard a card",
    Static-Charged Alpaca), not what may be ("you may draw a card", Llamaste)."""
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if _EACH_TIME.search(sentence):
            return bool(re.search(r"\bmust\b", sentence, re.I)) and not re.search(r"\bmay\b", sentence, re.I)
    return False


#: The opening of a card's own leave effect ("If this card leaves your Stable, ...", "Should this card be sacrificed
#: or destroyed, ...", "When this card itself is sacrificed or destroyed, ...", the Phoenix's "Each time it is
#: sacrificed or destroyed, ..."): what follows it is the effect. A save ("would be sacrificed ... instead") is not.
_LEAVE_OPENING = re.compile(
    r"^(?:(?:If|When|Should) this card(?: itself)? (?:is |be )?(?:sacrificed or destroyed|destroyed|leaves your "
    r"(?:Stable|Field))(?:, in any way)?|Each time it is sacrificed or destroyed), (?:then )?",
    re.IGNORECASE,
)
#: A leave effect said after what it does ("... goes back ... as soon as this card leaves yours"): the whole sentence.
_LEAVE_AFTER = re.compile(r"\bas soon as this card leaves\b", re.IGNORECASE)


def leave_effect(sentences: list[str]) -> tuple[int, str] | None:
    """The sentence of a card's text (split into `sentences`) that is its own leave effect, by its index, with the
    effect alone (the opening that says when cut off); None when no sentence is one."""
    for index, sentence in enumerate(sentences):
        opening = _LEAVE_OPENING.match(sentence)
        if opening:
            return index, sentence[opening.end() :]
        if _LEAVE_AFTER.search(sentence):
            return index, sentence
    return None


def leaves_however(text: str) -> bool:
    """True when a card's own leave effect is set off however it leaves its Stable ("If this card leaves your
    Stable", "as soon as this card leaves"); False when only a sacrifice or a destroy sets it off ("Should this card
    be sacrificed or destroyed": a steal, a move, a swap or a card returned sets off nothing), or it has none."""
    opening = _leave_opening(text)
    return opening is not None and bool(re.search(r"\bleaves?\b", opening, re.IGNORECASE))


def destroyed_only(text: str) -> bool:
    """True when a card's own leave effect is set off by a destroy alone ("If this card is destroyed":
    Berserkercorn), never by a sacrifice; False when its opening names a sacrifice or any leaving, or it has none."""
    opening = _leave_opening(text)
    return opening is not None and not re.search(r"\bleaves?\b|\bsacrificed\b", opening, re.IGNORECASE)


def _leave_opening(text: str) -> str | None:
    """The opening of a card's own leave sentence, which says when it is set off ("Should this card be sacrificed
    or destroyed, "), or the whole sentence when it says so after the effect; None when it has none."""
    sentences = re.split(r"(?<=[.!?])\s+", text)
    leave = leave_effect(sentences)
    if leave is None:
        return None
    sentence = sentences[leave[0]]
    return sentence[: len(sentence) - len(leave[1])] or sentence


#: The game's defined actions a "then" may join (docs/card-text-format.md keeps each as the print has it).
DEFINED_ACTIONS = ("draw", "discard", "sacrifice", "destroy", "steal")
_THEN = re.compile(r"\bthen\b", re.IGNORECASE)
_NOT_AN_ACTION = re.compile(r"\b(?:discard pile|draw phase)\b", re.IGNORECASE)


def _actions_in(words: list[str]) -> list[str]:
    return [action for word in words for action in DEFINED_ACTIONS if word in (action, action + "s")]


def then_join(text: str) -> tuple[str, str] | None:
    """The first two defined actions a card's text joins with "then" (Sadistic Ritual: sacrifice, then draw), the
    second of which may be done only once the first was (rulebook 002); None when no "then" joins two of them
    ("then shuffle the deck" joins none)."""
    plain = _NOT_AN_ACTION.sub("", text)
    for join in _THEN.finditer(plain):
        before = _actions_in(re.findall(r"[a-z]+", re.split(r"[.;:]", plain[: join.start()])[-1].lower()))
        after = _actions_in(re.findall(r"[a-z]+", re.split(r"[.;:]", plain[join.end() :].lower(), maxsplit=1)[0])[:6])
        if before and after:
            return before[-1], after[0]
    return None


_NEEDED_VARIATION = re.compile(r"only play this card while your Field holds an? (Llama|Alpaca|Goat|Ram) card", re.I)


def needed_variation(text: str) -> str | None:
    """The variation a card's player must have in their Field to play it (No Probllama: "llama"), or None."""
    found = _NEEDED_VARIATION.search(text)
    return found.group(1).lower() if found else None


class Need(enum.Enum):
    """What a card's effect must have to act on (a Magic card's, or one that must be done as the card enters), without
    which it asks an impossible action (000: "If you have a card in your hand that requires you to perform an
    impossible action, you may not play it")."""

    OTHERS_UNICORN = "others-unicorn"
    """Unicorn Poison: "Destroy a Unicorn card in another player's Stable"."""
    OTHERS_UNICORN_TO_TAKE = "others-unicorn-to-take"
    """Horny Flying Unicorn: "you must steal a Unicorn card" as it enters."""
    OTHERS_BASIC = "others-basic"
    """Naked Narwhal: "you must steal a Basic Unicorn card" as it enters."""
    OTHERS_BABY = "others-baby"
    """Steal a Baby Unicorn card from another player's Stable."""
    UPGRADE_THERE_OR_DOWNGRADE_HERE = "upgrade-there-or-downgrade-here"
    """Targeted Destruction (2nd Edition): destroy an Upgrade elsewhere, or sacrifice a Downgrade of one's own."""
    ANY_UPGRADE_OR_DOWNGRADE = "any-upgrade-or-downgrade"
    """Targeted Destruction (1st Edition), Dragon's Fire: an Upgrade or Downgrade in one's own Stable or another's."""
    UNICORN_IN_DISCARD = "unicorn-in-discard"
    """Kiss of Life: "Put a Unicorn card from the discard pile straight into your Stable"."""


#: The opening of an effect that must be done as the card enters its player's Stable.
_AS_IT_ENTERS = r"^When this card enters your Stable, you must "

#: The opening of a card's text that asks for a target as it is played, with what it needs (a Magic card's whole
#: effect, or what it must do as it enters; "Choose one" with another way out, or "you may", needs nothing).
_NEEDS = (
    (re.compile(r"^Destroy an? Unicorn card in another player's Stable\b"), Need.OTHERS_UNICORN),
    (re.compile(_AS_IT_ENTERS + r"destroy a Unicorn card in another player's Stable\b"), Need.OTHERS_UNICORN),
    (re.compile(_AS_IT_ENTERS + r"(steal|move) a Unicorn card\b"), Need.OTHERS_UNICORN_TO_TAKE),
    (re.compile(_AS_IT_ENTERS + r"(steal|move) a Basic Unicorn card\b"), Need.OTHERS_BASIC),
    (re.compile(_AS_IT_ENTERS + r"(steal|move) a Baby Unicorn card\b"), Need.OTHERS_BABY),
    (re.compile(r"^Steal a Baby Unicorn card from another player's Stable\.$"), Need.OTHERS_BABY),
    (
        re.compile(
            r"^Choose one\. Destroy an Upgrade card in another player's Stable, or sacrifice a Downgrade card in "
            r"your Stable\.$"
        ),
        Need.UPGRADE_THERE_OR_DOWNGRADE_HERE,
    ),
    (re.compile(r"^Pick an Upgrade or Downgrade card in any Stable\. Sacrifice it\b"), Need.ANY_UPGRADE_OR_DOWNGRADE),
    (
        re.compile(
            r"^Choose one\. Sacrifice an Upgrade or Downgrade card in your Stable, or destroy an Upgrade or "
            r"Downgrade card in another player's Stable\.$"
        ),
        Need.ANY_UPGRADE_OR_DOWNGRADE,
    ),
    (re.compile(r"^Put a Unicorn card from the discard pile straight into your Stable\.$"), Need.UNICORN_IN_DISCARD),
)


def needed_target(text: str) -> Need | None:
    """What a card's text needs to act on as it is played (Unicorn Poison: a Unicorn card in another player's
    Stable; Berserkercorn, as it enters, the same), or None when it needs nothing or leaves a way out."""
    return next((need for pattern, need in _NEEDS if pattern.search(text)), None)


@dataclass(frozen=True)
class SaveCard:
    """What a card that saves another "instead" says (Black Knight Unicorn, Unicorn Phoenix, Llama Pinata): which
    of its owner's cards it saves, from what, and what its owner gives up."""

    itself: bool
    """It saves only itself (Unicorn Phoenix); else another of its owner's cards."""
    unicorns_only: bool
    """It saves only Unicorn cards (Black Knight Unicorn), not any card (Llama Pinata)."""
    from_sacrifice: bool
    """It saves from a sacrifice too, not only from being destroyed."""
    discards: int
    """Cards its owner discards from hand to save; 0 when the owner sacrifices the card itself instead."""


#: A save's wording: "you may save it by sacrificing this card", "you may instead discard a card from your hand",
#: "you may pay for it with 2 cards from your hand", "You may sacrifice this card to save one of your cards".
_SAVE = re.compile(
    r"about to be (?P<what>sacrificed or destroyed|destroyed), you may (save it by sacrificing this card|instead "
    r"discard (?P<one>a) card from your hand|pay for it with (?P<two>2) cards from your hand)|You may sacrifice "
    r"this card to save one of your cards that is about to be (?P<any>sacrificed or destroyed)"
)


def save_of(text: str) -> SaveCard | None:
    """What a card's text saves "instead", or None when it saves nothing."""
    found = _SAVE.search(text)
    if found is None:
        return None
    if found["any"]:
        return SaveCard(itself=False, unicorns_only=False, from_sacrifice=True, discards=0)
    itself = bool(re.search(r"When this card is about to be", text))
    discards = 1 if found["one"] else 2 if found["two"] else 0
    return SaveCard(itself, not itself, found["what"] != "destroyed", discards)


class UnicornAction(enum.Enum):
    """What an effect does to a Unicorn card in a Stable, by its wording ("destroy a Unicorn card", "steal one of
    their Unicorn cards"): what a Stable whose Unicorns are no Unicorns (Pandamonium's Pandas) is safe from."""

    DESTROY = "destroy"
    STEAL = "steal"
    MOVE = "move"
    SACRIFICE = "sacrifice"
    RETURN = "return"
    """Back into a hand (Unicorn Flatulence: "take a Unicorn card from your Stable back into your hand")."""
    NURSERY = "nursery"
    """Back to the Nursery (Safe Sex: "send one Baby Unicorn card in their Stable back to the Nursery")."""
    DECK = "deck"
    """Into the deck (Dragon Skies: "take a Unicorn card from your Stable, shuffle it into the deck")."""
    SWAP = "swap"
    """Swapped for a card in another Stable (Unicorn Swap's exchange, `swap`): no wording of an effect on Unicorn
    cards is read as it, so only a protection of the card itself keeps it off (`core/game/protection.py`)."""
    TO_DISCARD = "to-discard"
    """Put from a Stable into the discard pile, neither sacrificed nor destroyed (Unicorn Shrinkray's "goes to the
    discard pile"; not a discard, which is from a hand); as `SWAP`, never read from wording."""


#: A Unicorn card as an effect names its target: "a Unicorn card", "one of that player's Unicorn cards", "all of
#: your own Unicorn cards", "4 Unicorn cards", "a Baby Unicorn card" (a Basic, a Baby or a Magical is a Unicorn too).
_A_UNICORN = (
    r"(?:(?:a|an|one|any|all|\d+)\s+)?"
    r"(?:of\s+(?:your|their|that player's|another player's|any player's)\s+(?:own\s+)?)?"
    r"(?:(?:Basic|Baby|Magical)\s+)?Unicorn cards?\b"
)
#: Each way an effect's wording acts on a Unicorn card in a Stable; never where it only forbids ("cannot destroy").
_UNICORN_ACTIONS = (
    (re.compile(rf"(?<!cannot )\b(destroy|steal|move|sacrifice)\s+{_A_UNICORN}", re.IGNORECASE), None),
    (re.compile(rf"\bgive\s+{_A_UNICORN} to another player,? (?:by )?moving it", re.I), UnicornAction.MOVE),
    (re.compile(rf"\btake\s+{_A_UNICORN} from your Stable back into your hand", re.IGNORECASE), UnicornAction.RETURN),
    (
        re.compile(rf"\btake\s+{_A_UNICORN} from your Stable, shuffle it into the deck", re.IGNORECASE),
        UnicornAction.DECK,
    ),
    (
        re.compile(r"\bsend (?:one|a) Baby Unicorn(?: card)? (?:in|from) their Stable back to the Nursery", re.I),
        UnicornAction.NURSERY,
    ),
)


def unicorn_actions(text: str, leaving: bool = False) -> frozenset[UnicornAction]:
    """What a card's effect does to Unicorn cards in a Stable, by its wording ("Destroy a Unicorn card": destroy;
    Unicorn Swap: move, steal); empty when it names no Unicorn card as its target (a card from the discard pile,
    a hand, one that only protects). A card with a leave effect (`leave_effect`) is read by its effect being done:
    `leaving`, the leave clause alone; else the rest (Berserkercorn destroys as it enters, sacrifices as it
    leaves)."""
    sentences = re.split(r"(?<=[.!?])\s+", text)
    leave = leave_effect(sentences)
    if leave is not None:
        text = leave[1] if leaving else " ".join(s for index, s in enumerate(sentences) if index != leave[0])
    elif leaving:
        text = ""
    found: set[UnicornAction] = set()
    for pattern, action in _UNICORN_ACTIONS:
        for match in pattern.finditer(text):
            found.add(action or UnicornAction(match.group(1).lower()))
    return frozenset(found)


#: A sentence that opens another effect than the one done as a card is played or enters (a leave, a beginning of
#: turn, a duty, a rule while it stays, an Instant's moment).
_OTHER_EFFECT = re.compile(
    r"^(If this card|Should this card|When this card is|Each time|Whenever|At the beginning|While|For as long|"
    r"This card|Play this card|Nothing can|Magic cards|Triggered)",
    re.IGNORECASE,
)
_ENTERING = re.compile(r"^When this card enters your (?:Stable|Field), ", re.IGNORECASE)
#: Words before an action in its sentence that make it not required: a "may", a join to an optional action, a choice
#: of how many (none is a number too), an alternative.
_NOT_REQUIRED_BEFORE = re.compile(
    r"\bmay\b|\bif you do\b|\bshould you do so\b|\bany number\b|\bor\s*$|^In another player's", re.IGNORECASE
)
_REQUIRED_TAGS = {"destroy": Tag.MUST_DESTROY, "steal": Tag.MUST_STEAL}


def required_actions(text: str, card_type: CardType) -> frozenset[Tag]:
    """The defined actions a card's effect requires of its player as the card is played (a Magic card's whole
    effect; a Unicorn's, an Upgrade's or a Downgrade's as it enters), every one of them, the second and later too:
    Two-For-One's destroy after its sacrifice, Unicorn Swap's steal after its move (`must_destroy`, `must_steal`).
    None where the effect lets its player choose ("Choose one", "you may", "either"), for an action joined to an
    optional one ("If you do", "Then" after a "may"), or one of "the same number" as a chosen number."""
    effect = _played_effect(text, card_type)
    if re.search(r"\bchoose one\b|\bpick one of\b|\beither\b|\bthe same number\b", " ".join(effect), re.I):
        return frozenset()
    found: set[Tag] = set()
    optional = False
    for sentence in effect:
        if optional and re.match(r"^(?:If you do|Should you do so|Then)\b", sentence, re.IGNORECASE):
            continue  # joined to the optional action before it
        optional = bool(re.search(r"\bmay\b", sentence, re.IGNORECASE))
        for action in re.finditer(r"(?<!cannot )\b(destroy|steal)s?\b", sentence, re.IGNORECASE):
            if not _NOT_REQUIRED_BEFORE.search(sentence[: action.start()]):
                found.add(_REQUIRED_TAGS[action.group(1).lower()])
    return frozenset(found)


def _played_effect(text: str, card_type: CardType) -> list[str]:
    """The sentences of the effect a card does as it is played: a Magic card's whole effect, a Unicorn's, an
    Upgrade's or a Downgrade's as it enters (the opening "When this card enters your Stable, " cut off); none for an
    Instant or a Baby."""
    if card_type in (CardType.INSTANT, CardType.BABY):
        return []
    effect: list[str] = []
    doing = card_type is CardType.MAGIC
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        entering = _ENTERING.match(sentence)
        if entering and card_type is not CardType.MAGIC:
            doing = True
            effect.append(sentence[entering.end() :])
        elif _OTHER_EFFECT.match(sentence):
            doing = False
        elif doing:
            effect.append(sentence)
    return effect


CostAction = Literal["sacrifice", "discard", "destroy"]
"""An action a card's effect may require of its player on cards they must have (a defined action, 000)."""


@dataclass(frozen=True)
class Cost:
    """An action a card's effect requires of its player as it is played, before anything else it does, on cards that
    must be there for it (000: "If you have a card in your hand that requires you to perform an impossible action,
    you may not play it"): Two-For-One's sacrifice of a card in its player's Stable, then its destroy of 2 cards in
    other players' Stables; The Great Baby Heist's discard of 2 cards."""

    action: CostAction
    """sacrifice: cards in the player's own Stable; discard: cards from their hand; destroy: cards in other players'
    Stables."""
    count: int
    """How many cards it acts on."""
    kind: str = ""
    """The cards it acts on: "" any card, "unicorn" a Unicorn (an Animal) card, "baby" or "basic" such a one, or a
    variation ("llama")."""
    one_player: bool = False
    """A destroy whose cards must all be in one other player's Stable (Llamakaze: "in the Field of one other
    player")."""


_COUNT = r"(?P<count>a|an|one|\d+)"
_COST_KIND = r"(?:of your )?(?P<kind>(?:(?:Baby|Basic) )?(?:Unicorn|Animal)|Llama|Alpaca|Goat|Ram)? ?cards?"
#: Each action a card's effect may require as it is played, as its clause says it.
_COST_CLAUSES: tuple[tuple[CostAction, re.Pattern[str]], ...] = (
    ("sacrifice", re.compile(rf"^(?:you must )?sacrifice {_COUNT} {_COST_KIND}(?: in your (?:Stable|Field))?$", re.I)),
    ("discard", re.compile(rf"^(?:you must )?discard {_COUNT} cards?(?: from your hand)?$", re.I)),
    (
        "destroy",
        re.compile(
            rf"^destroy {_COUNT} {_COST_KIND} in (?:(?:another player's|other players') (?:Stable|Field)s?|"
            r"the (?:Stable|Field) of (?P<one>one other player))$",
            re.I,
        ),
    ),
)
#: Where one clause of an effect ends and the next begins: a sentence's end, "then", "and then".
_CLAUSE_END = re.compile(r"\.\s*|,?\s*\b(?:and\s+)?then\b,?\s*", re.IGNORECASE)
#: A text that says what happens when its player cannot pay (the 1st Edition Unicorn Phoenix): never impossible.
_WAY_OUT = re.compile(r"\bShould you have no card to discard\b", re.IGNORECASE)


def costs(text: str, card_type: CardType) -> tuple[Cost, ...]:
    """The actions a card's effect requires of its player as it is played (`Cost`), in order, read from the opening
    of its effect up to its first clause that is no such action (a draw, a choice, "you may", "up to", "any number",
    "all", "every player"): Two-For-One sacrifices a card in its player's Stable, then destroys 2 cards in other
    players' Stables; Unicorn Poison destroys a Unicorn card in another player's Stable. Empty for a card whose text
    says what happens when its player cannot (the 1st Edition Unicorn Phoenix)."""
    if _WAY_OUT.search(text):
        return ()
    return _costs_of(" ".join(_played_effect(text, card_type)))


#: The opening of a card's beginning-of-turn effect with no other condition; what follows it is the effect.
_TURN_OPENING = re.compile(r"^If this card is in your (?:Stable|Field) at the beginning of your turn, ", re.IGNORECASE)


def turn_costs(text: str) -> tuple[Cost, ...]:
    """The actions a card's beginning-of-turn effect requires of its player, read as `costs` reads a played effect's
    (Sadistic Ritual: sacrifice one of its player's Unicorn cards; Dragon's Curse: discard a card): what must be there
    for the effect to be done at all. Empty for an effect under another condition (Berserk Llama Syndrome: "and your
    Field holds a Llama card"), which the table judges."""
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        opening = _TURN_OPENING.match(sentence)
        if opening:
            return _costs_of(sentence[opening.end() :])
    return ()


def _costs_of(effect: str) -> tuple[Cost, ...]:
    """The costs an effect's words open with, up to its first clause that is none."""
    found: list[Cost] = []
    for clause in _CLAUSE_END.split(effect):
        if not clause.strip():
            continue
        cost = _cost_of(clause.strip())
        if cost is None:
            break
        found.append(cost)
    return tuple(found)


def _cost_of(clause: str) -> Cost | None:
    """The cost one clause of an effect says, or None when it says none."""
    for action, pattern in _COST_CLAUSES:
        said = pattern.match(clause)
        if said is None:
            continue
        count = int(said["count"]) if said["count"].isdigit() else 1
        kind = (said.groupdict().get("kind") or "").lower()
        kind = {"unicorn": "unicorn", "animal": "unicorn", "baby unicorn": "baby", "baby animal": "baby"}.get(
            kind, "basic" if kind.startswith("basic") else kind
        )
        return Cost(action, count, kind, bool(said.groupdict().get("one")))
    return None


def needed_action(text: str) -> UnicornAction | None:
    """The one action a card's effect must do as it is played, when it needs a target (`needed_target`): Unicorn
    Poison must destroy, Horny Flying Unicorn must steal as it enters. None when it needs nothing, or may do one of
    several things (Targeted Destruction: destroy, or else sacrifice)."""
    if needed_target(text) is None:
        return None
    actions = unicorn_actions(text)
    return next(iter(actions)) if len(actions) == 1 else None


#: A rule of a card in a Stable that the tracker leaves to the table (tag `table_keeps`): a hand face up (Nanny
#: Cam).
_TABLE_RULE = re.compile(r"[^.]*\bface up\b[^.]*\.", re.IGNORECASE)


def table_rule(text: str) -> str | None:
    """The sentence of a card's text that the table keeps itself (tag `table_keeps`), or None."""
    found = _TABLE_RULE.search(text)
    return found.group(0).strip() if found else None


#: An Instant that stops the card being played: "That card is stopped", "stop that card", "Neigh a card".
_COUNTER = re.compile(
    r"\b(stop|neigh|cancel)s? (that|the|a|their|any) (played )?card\b|\bcards? (is|are) stopped\b", re.IGNORECASE
)
#: A counter that cannot itself be answered.
_UNANSWERABLE = re.compile(r"\bsuper neigh\b|\bcannot be (neighed|stopped)\b", re.IGNORECASE)
_ENTERS = re.compile(r"\bwhen this card enters\b", re.IGNORECASE)
#: An effect when the card leaves (the tracker makes it a link of the chain); not a save that keeps it in place
#: ("If this card would be sacrificed or destroyed, you may discard a card instead").
_LEAVES = re.compile(
    r"\b(if|when|whenever) this card (itself )?is (sacrificed|destroyed)|\bshould this card be (sacrificed|destroyed)"
    r"|\beach time it is (sacrificed|destroyed)|\b(when|if) this card leaves"
    r"|\bwould be sacrificed or destroyed, (you take it|it goes) back",
    re.IGNORECASE,
)
_HAND_LIMIT = re.compile(r"\bhand limit\b", re.IGNORECASE)
_BEGIN_TURN = re.compile(r"\bbeginning of your turn\b", re.IGNORECASE)
#: What a Llamas Unleashed counter does beyond stopping the card (`assistant/core/game/chain.py` acts on each).
_TAKES = re.compile(r"\bif it is an? (llama|alpaca|goat|ram) card, it goes into your hand\b", re.IGNORECASE)
_BOTH_DRAW = re.compile(r"\byou and (that player|the player whose card you stopped) may each draw\b", re.IGNORECASE)
_DRAWS_IF_INSTANT = re.compile(
    r"\bif the stopped card was an Instant card, you may draw\b|"
    r"\bwhat you stopped was itself an Instant, you may draw\b",
    re.IGNORECASE,
)
_ANSWERS_ANIMAL = re.compile(r"\bright after another player has played an Animal card\b", re.IGNORECASE)
#: The game terms an effect may do, each unless the text only forbids or guards against it ("cannot be
#: destroyed"): these tags are only read from an import's wording, not checked on the shipped decks.
_ACTIONS = {
    Tag.DESTROY: r"destroy",
    Tag.SACRIFICE: r"sacrifice",
    Tag.STEAL: r"steal",
    Tag.DRAW: r"draws?",
    Tag.DISCARD: r"discards?(?! pile)",
}


def checked_tags(text: str) -> frozenset[Tag]:
    """The checked tags (`CHECKED_WORDING`) the card's text says."""
    return frozenset(tag for pattern, tag in CHECKED_WORDING if re.search(pattern, text, re.IGNORECASE))


def wording_tags(text: str, card_type: CardType) -> frozenset[Tag]:
    """Every tag a card's wording gives it: the checked ones, a counter Instant's `neigh` (and `super_neigh` with
    `cannot_be_neighed` when it cannot be answered; a Llamas counter's take, both-draw or draw after an Instant;
    Surprise Emu Attack's answer to an Animal), when it enters or leaves, at the beginning of the turn (optional when
    the effect says "may"), a hand limit change, the game terms it does, and a Baby's `nursery`."""
    tags = set(checked_tags(text))
    if card_type is CardType.INSTANT and _COUNTER.search(text):
        tags.add(Tag.NEIGH)
        if _UNANSWERABLE.search(text):
            tags |= {Tag.SUPER_NEIGH, Tag.CANNOT_BE_NEIGHED}
        if _TAKES.search(text):
            tags.add(Tag.TAKES_STOPPED)
        if _BOTH_DRAW.search(text):
            tags.add(Tag.BOTH_DRAW)
        if _DRAWS_IF_INSTANT.search(text):
            tags.add(Tag.DRAWS_IF_INSTANT)
    if card_type is CardType.INSTANT and _ANSWERS_ANIMAL.search(text):
        tags.add(Tag.ANSWERS_ANIMAL)
    if _ENTERS.search(text):
        tags.add(Tag.ENTER_TRIGGER)
    if _LEAVES.search(text):
        tags.add(Tag.LEAVE_TRIGGER)
    if _HAND_LIMIT.search(text):
        tags.add(Tag.HAND_LIMIT_CHANGE)
    begin = _BEGIN_TURN.search(text)
    if begin:
        sentence = re.split(r"(?<=[.!?])\s", text[begin.end() :], maxsplit=1)[0]
        optional = re.search(r"\bmay\b", sentence, re.IGNORECASE)  # "..., if this card is in your Field, you may"
        tags.add(Tag.BEGIN_TURN_OPTIONAL if optional else Tag.BEGIN_TURN_TRIGGER)
    for tag, verb in _ACTIONS.items():
        if re.search(rf"(?<!cannot )(?<!cannot be )(?<!not )\b{verb}\b", text, re.IGNORECASE):
            tags.add(tag)
    if card_type is CardType.BABY:
        tags.add(Tag.NURSERY)
    return frozenset(tags | required_actions(text, card_type))


#: A sheet's type line, folded: the card type by its word ("Magical Goat card" is Magical).
_TYPE_WORDS = {
    "baby": CardType.BABY,
    "basic": CardType.BASIC,
    "magical": CardType.MAGICAL,
    "upgrade": CardType.UPGRADE,
    "downgrade": CardType.DOWNGRADE,
    "magic": CardType.MAGIC,
    "action": CardType.MAGIC,
    "instant": CardType.INSTANT,
    "neigh": CardType.INSTANT,
}
#: Words of a type line that say nothing more than its type.
_FILLER = {"card", "cards", "unicorn", "unicorns", "animal", "animals", "a", "an"}


def read_type_line(line: str) -> tuple[CardType | None, str | None, bool]:
    """A type line as a sheet or a card prints it ("Magical Goat card", "Baby Llama", "Instant"): the card type,
    the variation it names ("llama+alpaca" for two), and whether every word was understood. A line naming no
    type gives None."""
    words = [normalize(word) for word in re.split(r"[\s,/+&-]+", line)]
    words = [word for word in words if word]
    found: CardType | None = None
    variations: list[str] = []
    understood = bool(words)
    for word in words:
        singular = word[:-1] if word.endswith("s") and word[:-1] in VARIATIONS else word
        if word in _TYPE_WORDS and found is None:
            found = _TYPE_WORDS[word]
        elif singular in VARIATIONS:
            variations.append(singular)
        elif word not in _FILLER:
            understood = False
    variation = "+".join(dict.fromkeys(variations)) or None
    return found, variation, understood and found is not None


def taken_variation(text: str) -> str | None:
    """The variation a Llamas Unleashed counter takes into its player's hand when it stops a card of it ("If it is
    a Llama card, it goes into your hand instead": llama), or None."""
    found = _TAKES.search(text)
    return found.group(1).lower() if found else None


def variation_from_name(name: str) -> str | None:
    """The Llamas Unleashed variation a card's name says, or None: a whole word first ("Dalai Llama", "Mother
    Goat"), then a word that starts with one ("Alpacacopter", "Gin-Rammy", "Woolly Rammoth")."""
    words = [normalize(word) for word in re.split(r"[\s-]+", name)]
    for word in words:
        if word in VARIATIONS:
            return word
    for word in words:
        for variation in VARIATIONS:
            if word.startswith(variation):
                return variation
    return None

"""What a scanned QR payload means: one of our labels, a web address naming a card, a card's text, or unknown.

Payloads are untrusted: anyone can print a QR code. Nothing here executes or interprets them; they are matched
against the cards in play, and whatever is shown or spoken of them goes through `assistant.core.text.clean_untrusted`.

Our own label payload is short so each module of the code can be big on the sticker: `TA2:<DECK>:<CARD>`, where
DECK and CARD are five-character codes (digits and capitals) derived from the deck's and the card's ids, such as
`TA2:L0Q5C:8SJ4N`. Fifteen characters in the QR alphanumeric mode (0-9, A-Z, space and `$%*+-./:`, 5.5 bits a
character) fit the smallest code, version 1 (21 modules), at error correction level Q, so the modules can be
2.1 mm and still fit a card (docs/scanner.md, "Printable stickers"). The first format, `TA1:<DECK ID>:<CARD ID>`
(`TA1:UU-2ND:RAINBOW-AURA`), needed version 3; stickers printed with it are still read. `TA1`/`TA2` name the
format and its version.

A label is checked against the decks in play: the card must come from the label's deck being in play, so a
label of the 1st Edition never announces the 2nd Edition's card of the same name, and a card id the deck does
not have is said as such (not as a deck "not in play").
"""

from __future__ import annotations

import enum
import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit

from assistant.core.cards.card import Card, CardSet, Deck, normalize
from assistant.core.cards.learning import CardText, NewCard, card_text_parts, type_line
from assistant.core.cards.sheet import matching_card
from assistant.core.text import clean_untrusted

#: The first field of our label payload: the format's name and version.
LABEL_FORMAT = "TA2"
#: The first format, with the deck's and the card's ids in full: still read.
OLD_LABEL_FORMAT = "TA1"
#: Characters of a deck's or a card's code in a `TA2` label.
CODE_LENGTH = 5
_CODE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_LABEL = re.compile(r"TA1:([A-Za-z0-9-]+):([A-Za-z0-9-]+)")
_SHORT_LABEL = re.compile(r"TA2:([0-9A-Za-z]{5}):([0-9A-Za-z]{5})")
#: What a print adds in brackets after its card's name: " (Red)".
_BRACKETS = re.compile(r"\s*\([^()]*\)$")
#: A type line opening a text, before the name or the words: "Upgrade: ", "MAGIC CARD. ".
_TYPE_OPENING = re.compile(r"([A-Za-z ]{4,30}?)\s*[.:/\u2013\u2014-]\s+")
#: Query parameters that name a card most directly, tried before any other parameter of a URL.
_CARD_KEYS = ("card", "id", "c", "name", "q")
#: Payloads shorter than this are never taken for a card's text: a stray word is more likely part of some code.
_MIN_TEXT_WORDS = 3
#: The most words a payload may have to be looked up as a typed query (a braille abbreviation, "ug rainbow aura").
_MAX_QUERY_WORDS = 6
#: The most words of a payload that is a card's name alone (a card the deck lacks is offered).
_MAX_NAME_WORDS = 5


class PayloadKind(enum.Enum):
    """What a payload turned out to be."""

    LABEL = "label"
    """Our own label: deck and card id."""
    URL = "url"
    """A web address whose last path segment or a query parameter names a card."""
    NAME = "name"
    """The whole payload is a card's name or id."""
    TEXT = "text"
    """Words, such as a card's text: spoken as they are."""
    UNKNOWN = "unknown"
    """Anything else, including a label or URL naming no card in play."""


@dataclass(frozen=True)
class ScannedPayload:
    """A decoded payload and what it means for the cards in play."""

    kind: PayloadKind
    payload: str
    """The payload as decoded (untrusted: clean it before showing or speaking it)."""
    card: Card | None = None
    """The card it names, when one of the cards in play."""
    deck: str = ""
    """For a label: the deck id it carries (lower case); for a `TA2` label of a deck not in play, its code."""
    card_id: str = ""
    """For a label: the card id it carries (lower case), even when that card is not in play (for a `TA2` label
    whose card is not found, its code)."""
    deck_in_play: bool = False
    """For a label: its deck is one of the decks in play (so a missing card is missing from that deck)."""
    new_card_text: bool = False
    """Words that read like a card's full text (such as the QR codes of an official braille deck) naming no
    card in play: a card the deck in play does not have yet, which the player may want to add."""
    elsewhere: tuple[str, str] = ("", "")
    """A card of an installed deck that is not in play, which the payload names (a label, or a card's name): that
    deck's title and the card's name (the name "" when the deck has no such card); ("", "") for none."""
    told: str = ""
    """For a card's text naming a card in play: the words it tells of that card, without its name and type (to
    compare with the deck's)."""
    new_card: NewCard | None = None
    """The card such a payload describes, read as a player means it (its name, its words, the type a type line or
    braille prefix gives), when it names no card in play: the card to offer. A name alone has no words."""


def short_code(identifier: str) -> str:
    """The five-character code of a deck or card id in a `TA2` label (a hash of the id, digits and capitals)."""
    number = int.from_bytes(hashlib.blake2b(identifier.lower().encode("utf-8"), digest_size=8).digest(), "big")
    out = []
    for _ in range(CODE_LENGTH):
        number, digit = divmod(number, len(_CODE_ALPHABET))
        out.append(_CODE_ALPHABET[digit])
    return "".join(out)


def label_payload(deck_id: str, card_id: str) -> str:
    """Our label payload for a card: `TA2:<deck code>:<card code>`, 15 characters (see the module docstring)."""
    return f"{LABEL_FORMAT}:{short_code(deck_id)}:{short_code(card_id)}"


def long_label_payload(deck_id: str, card_id: str) -> str:
    """The first label format, `TA1:UU-2ND:RAINBOW-AURA`: used for a card whose short code another card of its
    deck shares (the sticker sheet checks), and still read from stickers printed with it."""
    return f"{OLD_LABEL_FORMAT}:{deck_id}:{card_id}".upper()


def payload_text(raw: str | bytes) -> str:
    """A payload as text: bytes that are not UTF-8 become replacement characters instead of an error."""
    if isinstance(raw, bytes):
        return raw.decode("utf-8", errors="replace")
    return raw


def parse_label(text: str) -> tuple[str, str] | None:
    """(deck, card) of one of our label payloads, or None when it is not one: for a `TA1` label the deck and
    card ids (lower case), for a `TA2` label their five-character codes (upper case)."""
    text = text.strip()
    match = _LABEL.fullmatch(text)
    if match is not None:
        return match.group(1).lower(), match.group(2).lower()
    match = _SHORT_LABEL.fullmatch(text)
    if match is not None:
        return match.group(1).upper(), match.group(2).upper()
    return None


def _resolve_label(text: str, cards: CardSet, installed: Iterable[Deck] = ()) -> ScannedPayload | None:
    """A label checked against the decks in play: the card only when its deck is in play and holds it. A label
    of an installed deck not in play names that deck and card (`elsewhere`)."""
    stripped = text.strip()
    label = parse_label(stripped)
    if label is None:
        return None
    deck_key, card_key = label
    short = _SHORT_LABEL.fullmatch(stripped) is not None

    def key(identifier: str) -> str:
        return short_code(identifier) if short else identifier

    deck = next((d for d in cards.decks if key(d.id) == deck_key), None)
    if deck is None:
        other = next((d for d in installed if key(d.id) == deck_key), None)
        found = next((c for c in other.cards if key(c.id) == card_key), None) if other is not None else None
        return ScannedPayload(
            PayloadKind.LABEL,
            text,
            None,
            deck=other.id if other is not None else deck_key,
            card_id=found.id if found is not None else card_key,
            elsewhere=(other.info.title, found.name if found is not None else "") if other is not None else ("", ""),
        )
    found = next((c for c in deck.cards if key(c.id) == card_key), None)
    card = cards.get(found.id) if found is not None else None
    card_id = found.id if found is not None else card_key
    return ScannedPayload(PayloadKind.LABEL, text, card, deck=deck.id, card_id=card_id, deck_in_play=True)


def resolve_payload(
    raw: str | bytes,
    cards: CardSet,
    query: Callable[[str], Card | None] | None = None,
    installed: Iterable[Deck] = (),
) -> ScannedPayload:
    """What a payload means among the cards in play (never raises on any payload).

    Read as a player means it: our label; a web address; a card's name; a card's text in any of the forms
    `learning.card_text_parts` reads (a type line or type prefix before or after the name, a braille prefix on
    it, a colon, slashes or dashes between the parts); a short payload that the player's own look-up resolves
    (`query`: the session's resolver, so a braille abbreviation such as "ug rainbow aura" names its card); words
    starting with a card's name. Words or a name alone naming no card in play carry the card they describe
    (`new_card`), which the app offers to add; `installed`: the other decks installed, so that a label or a name
    of a card not in play says which deck and card it is (`elsewhere`), gone through only for such a payload."""
    text = payload_text(raw)
    label = _resolve_label(text, cards, installed)
    if label is not None:
        return label
    stripped = text.strip()
    if _looks_like_url(stripped):
        card = _card_in_url(stripped, cards)
        return ScannedPayload(PayloadKind.URL if card else PayloadKind.UNKNOWN, text, card)
    if len(stripped) <= 100:  # no card name is this long; find_exact would only waste time on a long payload
        card = cards.find_exact(stripped)
        if card is not None:
            return ScannedPayload(PayloadKind.NAME, text, card)
    parts = card_text_parts(stripped[:2000], lambda name: len(name) <= 100 and cards.find_exact(name) is not None)
    if parts is not None:
        card = cards.find_exact(parts.name) or cards.find_exact(_clean_name(parts.name))
        if card is not None:
            kind = PayloadKind.TEXT if parts.text else PayloadKind.NAME
            return ScannedPayload(kind, text, card, told=parts.text)
    if query is not None and len(stripped) <= 60 and 0 < len(stripped.split()) <= _MAX_QUERY_WORDS:
        card = query(stripped)
        if card is not None and cards.get(card.id) is not None:
            return ScannedPayload(PayloadKind.NAME, text, cards.get(card.id))
    if _reads_as_words(stripped):
        found = _card_named_at_start(stripped, cards)  # "Rainbow Aura. Your Unicorns - all of them - ..."
        if found is not None:
            card, words = found
            return ScannedPayload(PayloadKind.TEXT, text, card, told=words)
        card = _card_by_words(stripped, cards)  # the deck's own words, without the card's name
        if card is not None:
            return ScannedPayload(PayloadKind.TEXT, text, card, told=card.text)
    if parts is not None and parts.fields >= 2 and parts.text and (parts.typed or _reads_as_words(stripped)):
        return ScannedPayload(PayloadKind.TEXT, text, None, new_card_text=True, new_card=_new_card(parts))
    if parts is not None and not parts.text and (parts.fields == 1 or parts.typed) and _is_name_alone(parts.name):
        same = matching_card(parts.name, cards.base)  # a typo of a deck card's name is that card
        if same is not None and cards.get(same.id) is not None:
            return ScannedPayload(PayloadKind.NAME, text, cards.get(same.id))
        elsewhere = _card_elsewhere(parts.name, cards, installed)
        return ScannedPayload(
            PayloadKind.TEXT, text, None, new_card_text=True, new_card=_new_card(parts), elsewhere=elsewhere
        )
    if _reads_as_words(stripped):  # words naming no card, and no card's name to be told from them
        return ScannedPayload(PayloadKind.TEXT, text, None, new_card_text=True)
    return ScannedPayload(PayloadKind.UNKNOWN, text)


def _card_elsewhere(name: str, cards: CardSet, installed: Iterable[Deck]) -> tuple[str, str]:
    """(deck title, card name) of the first installed deck not in play with a card of this exact name, or ("", "")."""
    in_play = {deck.id for deck in cards.decks}
    key = normalize(name)
    for deck in installed:
        found = next((c for c in deck.cards if normalize(c.name) == key), None) if deck.id not in in_play else None
        if found is not None:
            return deck.info.title, found.name
    return "", ""


def _new_card(parts: CardText) -> NewCard:
    """The card a payload describes, its name cleaned (its id is made from it, so an escape or a control character
    in a code never makes a second card of the same spoken name)."""
    return NewCard(_clean_name(parts.name), parts.text, parts.type)


def _clean_name(name: str) -> str:
    """A name as it is said: no escapes, control or format characters, spaces run together."""
    return clean_untrusted(name, 100)


def _is_name_alone(name: str) -> bool:
    """A payload that reads as a card's name on its own: a few words, nearly all letters, no sentence in it, and
    said as a name (two words or more, or one with a capital): "Wool Gathering", not "hello" or "B-1134"."""
    words = name.split()
    visible = [ch for ch in name if not ch.isspace()]
    if not words or len(words) > _MAX_NAME_WORDS or not name[0].isalpha():
        return False
    if any(ch in ".,;!?" for ch in name):
        return False
    letters = sum(ch.isalpha() for ch in visible)
    return letters / len(visible) >= 0.85 and (len(words) >= 2 or name[0].isupper())


def _looks_like_url(text: str) -> bool:
    if any(ch.isspace() for ch in text):
        return False
    parts = urlsplit(text)
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def _card_in_url(url: str, cards: CardSet) -> Card | None:
    """The card named by a URL's card-like query parameters, its last path segment, or any other parameter."""
    parts = urlsplit(url)
    params = parse_qsl(parts.query, keep_blank_values=False)
    preferred = [value for key, value in params if key.lower() in _CARD_KEYS]
    others = [value for key, value in params if key.lower() not in _CARD_KEYS]
    segments = [unquote(s) for s in parts.path.split("/") if s]
    last = [segments[-1], segments[-1].rsplit(".", 1)[0]] if segments else []
    fragment = [unquote(parts.fragment)] if parts.fragment else []
    for candidate in [*preferred, *last, *fragment, *others]:
        card = _card_called(candidate, cards)
        if card is not None:
            return card
    return None


def _card_called(candidate: str, cards: CardSet) -> Card | None:
    candidate = candidate.strip()
    if not candidate or len(candidate) > 100:
        return None
    if parse_label(candidate) is not None:
        return _resolve_label(candidate, cards).card  # type: ignore[union-attr]
    return cards.get(candidate.lower()) or cards.find_exact(candidate.replace("_", " ").replace("+", " "))


def _reads_as_words(text: str) -> bool:
    """True for prose: several words, mostly letters (a card's text), not an opaque token or a number."""
    words = text.split()
    if len(words) < _MIN_TEXT_WORDS:
        return False
    letters = sum(ch.isalpha() for ch in text)
    visible = sum(not ch.isspace() for ch in text)
    return visible > 0 and letters / visible >= 0.6


def _card_named_at_start(text: str, cards: CardSet) -> tuple[Card, str] | None:
    """The card whose name the text starts with, after any type line ("Rainbow Aura. Your Unicorns cannot...",
    "Upgrade: Rainbow Aura. Your Unicorns..."), longest name first, and the words after its name; None when no
    card's name starts it."""
    opening = _TYPE_OPENING.match(text)
    if opening is not None and type_line(opening.group(1)) is not None and cards.find_exact(opening.group(1)) is None:
        text = text[opening.end() :]
    head = normalize(text[:120])
    best = None
    for card in cards:
        key = normalize(card.name)
        if key and head.startswith(key) and (best is None or len(key) > len(normalize(best.name))):
            best = card
    if best is None:
        return None
    return best, _after_name(text, best.name)


def _after_name(text: str, name: str) -> str:
    """The words of a text after a name it starts with (compared as `normalize` does), without the stop, colon or
    dash between them, and without a type line opening them ("Rainbow Aura. Upgrade. Your..." gives "Your...")."""
    wanted, taken = normalize(name), 0
    for end in range(1, min(len(text), 2 * len(name) + 10) + 1):  # the longest start that reads as the name
        if normalize(text[:end]) == wanted:
            taken = end
    rest = text[taken:].lstrip(" .:;/-\u2013\u2014")
    opening = _TYPE_OPENING.match(rest)
    if opening is not None and type_line(opening.group(1)) is not None:
        rest = rest[opening.end() :]
    return rest.strip()


def _card_by_words(text: str, cards: CardSet) -> Card | None:
    """The card whose words the text is, when it names none ("While this card is in your Stable..."): a card of
    its own words, or prints that differ only by their variation ("Basic Unicorn (Red)") and play the same."""
    key = normalize(text)
    same = [card for card in cards if card.text and normalize(card.text) == key]
    if not same or len({_BRACKETS.sub("", card.name) for card in same}) > 1:
        return None
    return same[0]

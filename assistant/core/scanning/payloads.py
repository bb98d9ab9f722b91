"""What a scanned QR payload means: one of our labels, a web address naming a card, a card's text, or unknown.

Payloads are untrusted: anyone can print a QR code. Nothing here executes or interprets them; they are matched
against the cards in play, and whatever is shown or spoken of them goes through `words.clean_untrusted`.

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
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit

from assistant.core.cards.card import Card, CardSet, normalize
from assistant.core.cards.learning import CardText, NewCard, card_text_parts
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


def _resolve_label(text: str, cards: CardSet) -> ScannedPayload | None:
    """A label checked against the decks in play: the card only when its deck is in play and holds it."""
    stripped = text.strip()
    if _SHORT_LABEL.fullmatch(stripped):
        deck_code, card_code = parse_label(stripped) or ("", "")
        deck = next((d for d in cards.decks if short_code(d.id) == deck_code), None)
        if deck is None:
            return ScannedPayload(PayloadKind.LABEL, text, None, deck=deck_code, card_id=card_code)
        card = next((c for c in deck.cards if short_code(c.id) == card_code), None)
        card = cards.get(card.id) if card is not None else None
        card_id = card.id if card is not None else card_code
        return ScannedPayload(PayloadKind.LABEL, text, card, deck=deck.id, card_id=card_id, deck_in_play=True)
    label = parse_label(stripped)
    if label is None:
        return None
    deck_id, card_id = label
    in_play = next((d for d in cards.decks if d.id == deck_id), None)
    card = None
    if in_play is not None and any(c.id == card_id for c in in_play.cards):
        card = cards.get(card_id)
    return ScannedPayload(
        PayloadKind.LABEL, text, card, deck=deck_id, card_id=card_id, deck_in_play=in_play is not None
    )


def resolve_payload(
    raw: str | bytes, cards: CardSet, query: Callable[[str], Card | None] | None = None
) -> ScannedPayload:
    """What a payload means among the cards in play (never raises on any payload).

    Read as a player means it: our label; a web address; a card's name; a card's text in any of the forms
    `learning.card_text_parts` reads (a type line or type prefix before or after the name, a braille prefix on
    it, a colon, slashes or dashes between the parts); a short payload that the player's own look-up resolves
    (`query`: the session's resolver, so a braille abbreviation such as "ug rainbow aura" names its card); words
    starting with a card's name. Words or a name alone naming no card in play carry the card they describe
    (`new_card`), which the app offers to add."""
    text = payload_text(raw)
    label = _resolve_label(text, cards)
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
            return ScannedPayload(PayloadKind.TEXT if parts.text else PayloadKind.NAME, text, card)
    if query is not None and len(stripped) <= 60 and 0 < len(stripped.split()) <= _MAX_QUERY_WORDS:
        card = query(stripped)
        if card is not None and cards.get(card.id) is not None:
            return ScannedPayload(PayloadKind.NAME, text, cards.get(card.id))
    if _reads_as_words(stripped):
        card = _card_named_at_start(stripped, cards)  # "Rainbow Aura. Your Unicorns - all of them - ..."
        if card is not None:
            return ScannedPayload(PayloadKind.TEXT, text, card)
    if parts is not None and parts.fields >= 2 and parts.text and (parts.typed or _reads_as_words(stripped)):
        return ScannedPayload(PayloadKind.TEXT, text, None, new_card_text=True, new_card=_new_card(parts))
    if parts is not None and not parts.text and (parts.fields == 1 or parts.typed) and _is_name_alone(parts.name):
        same = matching_card(parts.name, cards.base)  # a typo of a deck card's name is that card
        if same is not None and cards.get(same.id) is not None:
            return ScannedPayload(PayloadKind.NAME, text, cards.get(same.id))
        return ScannedPayload(PayloadKind.TEXT, text, None, new_card_text=True, new_card=_new_card(parts))
    if _reads_as_words(stripped):  # words naming no card, and no card's name to be told from them
        return ScannedPayload(PayloadKind.TEXT, text, None, new_card_text=True)
    return ScannedPayload(PayloadKind.UNKNOWN, text)


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


def _card_named_at_start(text: str, cards: CardSet) -> Card | None:
    """The card whose name the text starts with ("Rainbow Aura. Your Unicorns cannot..."), longest name first."""
    head = normalize(text[:120])
    best = None
    for card in cards:
        key = normalize(card.name)
        if key and head.startswith(key) and (best is None or len(key) > len(normalize(best.name))):
            best = card
    return best

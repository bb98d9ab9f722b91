"""What a scanned QR payload means: one of our labels, a web address naming a card, a card's text, or unknown.

Payloads are untrusted: anyone can print a QR code. Nothing here executes or interprets them; they are matched
against the cards in play, and whatever is shown or spoken of them goes through `words.clean_untrusted`.

Our own label payload is short so the code stays small on the sticker: `TA1:<DECK>:<CARD>`, upper case, such
as `TA1:UU-2ND:RAINBOW-AURA`. Upper case keeps every character in the QR alphanumeric mode (0-9, A-Z, space and
`$%*+-./:`), which packs 5.5 bits a character instead of 8, so the longest label of the default deck fits a
version 3 code at error correction level Q. `TA1` is the format's name and version: a later format can be told
apart from this one.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit

from assistant.core.cards import Card, CardSet, normalize

#: The first field of our label payload: the format's name and version.
LABEL_FORMAT = "TA1"

_LABEL = re.compile(r"TA1:([A-Za-z0-9-]+):([A-Za-z0-9-]+)")
#: Query parameters that name a card most directly, tried before any other parameter of a URL.
_CARD_KEYS = ("card", "id", "c", "name", "q")
#: Payloads shorter than this are never taken for a card's text: a stray word is more likely part of some code.
_MIN_TEXT_WORDS = 3


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
    """For a label: the deck id it carries (lower case)."""
    card_id: str = ""
    """For a label: the card id it carries (lower case), even when that card is not in play."""


def label_payload(deck_id: str, card_id: str) -> str:
    """Our label payload for a card: `TA1:UU-2ND:RAINBOW-AURA`."""
    return f"{LABEL_FORMAT}:{deck_id}:{card_id}".upper()


def payload_text(raw: str | bytes) -> str:
    """A payload as text: bytes that are not UTF-8 become replacement characters instead of an error."""
    if isinstance(raw, bytes):
        return raw.decode("utf-8", errors="replace")
    return raw


def parse_label(text: str) -> tuple[str, str] | None:
    """(deck id, card id) of one of our label payloads, lower case, or None when it is not one."""
    match = _LABEL.fullmatch(text.strip())
    if match is None:
        return None
    return match.group(1).lower(), match.group(2).lower()


def resolve_payload(raw: str | bytes, cards: CardSet) -> ScannedPayload:
    """What a payload means among the cards in play (never raises on any payload)."""
    text = payload_text(raw)
    label = parse_label(text)
    if label is not None:
        deck, card_id = label
        card = cards.get(card_id)
        return ScannedPayload(PayloadKind.LABEL, text, card, deck=deck, card_id=card_id)
    stripped = text.strip()
    if _looks_like_url(stripped):
        card = _card_in_url(stripped, cards)
        return ScannedPayload(PayloadKind.URL if card else PayloadKind.UNKNOWN, text, card)
    if len(stripped) <= 100:  # no card name is this long; find_exact would only waste time on a long payload
        card = cards.find_exact(stripped)
        if card is not None:
            return ScannedPayload(PayloadKind.NAME, text, card)
    if _reads_as_words(stripped):
        return ScannedPayload(PayloadKind.TEXT, text, _card_named_at_start(stripped, cards))
    return ScannedPayload(PayloadKind.UNKNOWN, text)


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
    label = parse_label(candidate)
    if label is not None:
        return cards.get(label[1])
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

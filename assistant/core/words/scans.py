"""Sentences of the scanner (assistant/scanner, assistant/core/scanning/payloads.py, sightings.py, aiming.py, scan).

Payloads are untrusted: every one is passed through clean_untrusted before it is put in a sentence.
"""

from __future__ import annotations

from assistant.core.text import clean_untrusted

__all__ = [
    "CAMERA_LOST",
    "CAMERA_BACK",
    "CAMERA_FRAMES_UNUSABLE",
    "SCANNER_RESTARTED",
    "NO_DECODER",
    "NEED_OPENCV",
    "STICKERS_NEED_PILLOW",
    "SCANNING_LIVE",
    "SCAN_NOTHING_GIVEN",
    "UNKNOWN_CODE_EMPTY",
    "AIMING_WORDS",
    "aiming_words",
    "OPENCV_IMAGE_TOOLS",
    "decoder_missing",
    "camera_opened",
    "scan_progress",
    "camera_unavailable",
    "camera_failed",
    "scan_not_found",
    "scan_unreadable",
    "scan_folder_empty",
    "unknown_code",
    "label_not_in_play",
    "card_of_deck_not_in_play",
    "label_card_not_in_deck",
    "scanned_text",
    "scan_file_summary",
    "scan_frame_summary",
    "scan_payload_line",
    "sticker_sheet_heading",
    "sticker_sheet_written",
    "sticker_sheet_kind",
    "offer_new_card",
    "SAY_CARD_TYPE_CHOICES",
    "SAY_CARD_TYPE",
    "card_learned",
    "offer_completing_card",
    "card_words_learned",
    "import_full",
    "CARD_REFUSED",
    "card_not_learned",
    "LABELS_NEED_AN_OUTPUT",
]

CAMERA_LOST = "The camera stopped working. Trying again every few seconds; type card names meanwhile."
CAMERA_BACK = "The camera is working again."
CAMERA_FRAMES_UNUSABLE = (
    "The camera is sending pictures that cannot be read. Waiting for good ones; type card names meanwhile."
)
SCANNER_RESTARTED = "Scanning stopped unexpectedly and is starting again. Type card names meanwhile."
NO_DECODER = "No QR decoder is installed, so codes cannot be read. Install zxing-cpp or pyzbar."
NEED_OPENCV = "OpenCV is not installed, so the camera, videos and images cannot be read."
STICKERS_NEED_PILLOW = "QR stickers need the qrcode and Pillow packages, which are not installed."
SCANNING_LIVE = "Scanning. Hold a card's code up to the camera. Press Control C to stop."
SCAN_NOTHING_GIVEN = "Say what to scan: image or video files, a folder, or --camera."
UNKNOWN_CODE_EMPTY = "Unknown code, with nothing in it."

#: The words of each aiming cue (`assistant.core.scanning.aiming.Cue` values); the confirmation is deliberately unlike
#: the others, and short, since the card's name follows it.
AIMING_WORDS = {
    "read": "Got it.",
    "move left": "Move left.",
    "move right": "Move right.",
    "move up": "Move up.",
    "move down": "Move down.",
    "more light": "More light.",
    "closer": "Closer.",
    "further": "Further away.",
    "tilt": "Turn the card to face the camera.",
    "glare": "A reflection hides the code. Tilt the card a little.",
    "finger": "A finger covers the code. Hold the card by its edges.",
    "hold still": "Hold still.",
}


def aiming_words(cue_value: str) -> str:
    """What to say for an aiming cue."""
    return AIMING_WORDS[cue_value]


#: The decoder `decoder_missing` names when OpenCV does not load.
OPENCV_IMAGE_TOOLS = "OpenCV image tools"


def decoder_missing(name: str) -> str:
    """Said once when one decoder library is missing and the others carry on."""
    return f"The {name} decoder is not installed or does not load; codes are read without it."


def camera_opened(index: int) -> str:
    """Said when the camera starts."""
    return f"Camera {index} ready. Hold a card's code up to it."


def camera_unavailable(index: int) -> str:
    """Said when the camera asked for cannot be opened."""
    return f"Camera {index} cannot be opened. Check it is plugged in and not used by another program."


def camera_failed(kind: str) -> str:
    """The camera thread stopped on an error nobody foresaw; the app carries on without it."""
    return f"Scanning stopped after an unexpected error ({kind}). Type card names instead."


def scan_not_found(path: str) -> str:
    """A path given to scan that does not exist."""
    return f"{clean_untrusted(path, 120)}: no such file or folder."


def scan_unreadable(path: str) -> str:
    """A file given to scan that is not an image or a video OpenCV can read."""
    return f"{clean_untrusted(path, 120)}: not an image or video that can be read."


def scan_folder_empty(path: str) -> str:
    """A folder given to scan with no image or video in it."""
    return f"{clean_untrusted(path, 120)}: no images or videos in this folder."


def unknown_code(payload: str) -> str:
    """A code that names no card: say so, then what it holds."""
    shown = clean_untrusted(payload)
    return f"Unknown code: {shown}" if shown else UNKNOWN_CODE_EMPTY


def label_not_in_play(deck_id: str, card_id: str) -> str:
    """One of our labels, for a card of a deck that is not loaded (a short label carries codes, not names)."""
    card, deck = clean_untrusted(card_id, 60), clean_untrusted(deck_id, 30)
    if deck.isupper() or deck.isdigit():  # the code of a short label: no name to say
        return "A card label from a deck that is not in play."
    return f"A label for {card} from the deck {deck}, which is not in play."


def card_of_deck_not_in_play(card: str, deck_title: str) -> str:
    """A code naming a card of an installed deck that is not in play (its label, or its name): which card, which
    deck ("" when the deck has no such card)."""
    deck = clean_untrusted(deck_title, 60)
    if not card:
        return f"A card label of {deck}, which is not in play, for a card it does not have."
    return f"{clean_untrusted(card, 60)} is a card of {deck}, which is not in play."


def label_card_not_in_deck(deck_id: str, card_id: str) -> str:
    """One of our labels whose deck is in play but holds no such card."""
    card, deck = clean_untrusted(card_id, 60), clean_untrusted(deck_id, 30)
    if card.isupper() or card.isdigit():  # the code of a short label: no name to say
        return f"A card label of the deck {deck} for a card it does not have."
    return f"A label for {card}, which the deck {deck} does not have."


def scanned_text(payload: str) -> str:
    """A code holding words, such as a card's text: said as it is, cleaned."""
    return clean_untrusted(payload)


def _codes(count: int) -> str:
    return "no code" if count == 0 else f"{count} {'code' if count == 1 else 'codes'}"


def scan_file_summary(path: str, count: int, cards: list[str], milliseconds: float) -> str:
    """One line per scanned file: how many codes, which cards, how long decoding took."""
    codes = _codes(count)
    named = f": {', '.join(cards)}" if cards else ""
    return f"{clean_untrusted(path, 120)}: {codes}{named} ({milliseconds:.1f} ms)."


def scan_progress(path: str, frames: int, count: int) -> str:
    """While a long video is scanned (on the error stream, every so many frames): frames done, codes found."""
    return f"{clean_untrusted(path, 120)}: {frames} frames read, {_codes(count)} so far."


def scan_frame_summary(frame: int, count: int, cards: list[str], milliseconds: float) -> str:
    """One line per video frame with `--frames`."""
    codes = _codes(count)
    named = f": {', '.join(cards)}" if cards else ""
    return f"  frame {frame}: {codes}{named} ({milliseconds:.1f} ms)."


def scan_payload_line(payload: str) -> str:
    """A payload as listed under its file by the scan command."""
    return f"  payload: {clean_untrusted(payload)}"


def scan_other_deck_line(deck_title: str, deck_id: str, card_name: str) -> str:
    """Under a payload listed by the scan command: the label is of a deck that is not the one in play."""
    card = f"{clean_untrusted(card_name, 60)}, a card of " if card_name else "a card of "
    return f"  {card}{clean_untrusted(deck_title, 80)} ({clean_untrusted(deck_id, 30)}), not the deck in play."


def scan_unknown_deck_line() -> str:
    """Under a payload listed by the scan command: a label of no deck this program knows."""
    return "  a card label of a deck that is not in play, and not one of the decks this program knows."


def sticker_sheet_heading(title: str, page: int, pages: int, width_mm: float, height_mm: float) -> str:
    """The line at the top of every page of QR stickers."""
    return (
        f"{title}: QR stickers, page {page} of {pages}. Each sticker {width_mm:.0f} by {height_mm:.0f} mm: "
        "print at actual size (100 %), no scaling."
    )


def sticker_sheet_written(count: int, pages: int, paths: list[str], width_mm: float, height_mm: float) -> str:
    """Printed after writing a sheet of QR stickers."""
    first, last = clean_untrusted(paths[0], 200), clean_untrusted(paths[-1], 200)
    where = first if len(paths) == 1 else f"{first} to {last}"
    return (
        f"{count} QR stickers of {width_mm:.0f} by {height_mm:.0f} mm on {pages} "
        f"{'page' if pages == 1 else 'pages'}, written to {where}. Print at actual size, on matte label paper: "
        "a glossy one mirrors the lamps into the camera."
    )


def sticker_sheet_kind(path: str) -> str:
    """A sheet asked for in a format we do not write."""
    return f"{clean_untrusted(path, 120)}: QR stickers are written as FILE.pdf or FILE.png."


def offer_new_card(name: str, kind: str, text: str) -> str:
    """A scanned card text naming no card of the deck: offer to add it (rulebook 004: the braille deck's codes
    hold each card's full text)."""
    what = f"{clean_untrusted(name, 60)}, {kind}" if kind else clean_untrusted(name, 60)
    says = f" It says: {clean_untrusted(text)}" if text.strip() else ""  # a code holding the card's name alone
    start = f"A card this deck does not have: {what}.{says}"
    if kind:
        return f"{start} Add it to your deck? Say yes or no, or type its braille prefix to give another type."
    return f"{start} To add it to your deck, type its braille prefix or its type: {SAY_CARD_TYPE_CHOICES}; or say no."


#: The words of a card added from a code that held its name alone (a deck's card needs words of its own).
LEARNT_BY_NAME = "Its text was not scanned: look it up on the card, or scan a code that holds its text."

SAY_CARD_TYPE_CHOICES = "b, m, action, ug, dg, I, or basic"
SAY_CARD_TYPE = f"Which type is it? Type its braille prefix or its type: {SAY_CARD_TYPE_CHOICES}; or say no."


def card_learned(name: str, kind: str, path: str) -> str:
    """A scanned card added to the owner's deck."""
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    saved = clean_untrusted(path, 200)
    return f"{clean_untrusted(name, 60)} is now in your deck, as {article} {kind}. Saved in {saved}."


def offer_completing_card(name: str, text: str) -> str:
    """A code holding the words of a card learnt by its name alone: offer to keep them for it."""
    return (
        f"{clean_untrusted(name, 60)} was learnt by its name alone. This code holds its words: "
        f"{clean_untrusted(text)} Keep them for it? Say yes or no."
    )


def card_words_learned(name: str, path: str) -> str:
    """A deck's card given the words scanned from its code."""
    return f"{clean_untrusted(name, 60)} now has the scanned words. Saved in {clean_untrusted(path, 200)}."


def import_full(limit: int) -> str:
    """Why a scanned card cannot be added: the owner's import holds the most cards a reference sheet may give."""
    return f"your deck's import already holds {limit} cards, the most it may hold"


CARD_REFUSED = "the rules for an imported card refuse it"


def card_not_learned(name: str, reason: str) -> str:
    """A scanned card that could not be added."""
    return f"{clean_untrusted(name, 60)} could not be added to your deck: {clean_untrusted(reason, 200)}."


LABELS_NEED_AN_OUTPUT = (
    "Say what to write: --out FILE.pdf or FILE.png for QR stickers, --braille FILE or --brf FILE.brf."
)

"""Sentences about sharing the table with phones (assistant/share/, the `share` commands, a move from a phone).

What the laptop says when the table is shared, what a phone is told when its request cannot be carried out (every
error the server sends is one of these, never a traceback), and the labels the phone's page shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from assistant.core.game.segment import Channel, Part, Segment, Verbatim
from assistant.core.text import clean_untrusted, name_list

__all__ = [
    "too_many_reads",
    "WAIT_EXPIRED",
    "PHONE_DISPLACED",
    "TOO_MANY_STREAMS",
    "STREAMS_FULL",
    "phone_holds_too_much",
    "LastMove",
    "LastKind",
    "also_at",
    "no_local_name",
    "ACTOR_NOT_YOURS",
    "BODY_NOT_JSON",
    "CARD_NEEDED",
    "NO_NEIGH_CARD",
    "CHOOSE_PLAYER",
    "CODE_GUESSED",
    "CODE_REOPENED",
    "OPEN_MINUTES",
    "code_opened",
    "DEVICE_REMOVED",
    "SAVE_LABELS",
    "NO_DEVICE",
    "NO_DEVICES",
    "NO_GAME_TO_JOIN",
    "ONE_AT_A_TIME",
    "TOO_MANY_AT_ONCE",
    "TOO_MANY_JOINING",
    "NO_LOCAL_ADDRESS",
    "NOT_JSON_TYPE",
    "NOT_SHARING",
    "NO_CSRF",
    "OTHER_HOST",
    "OTHER_ORIGIN",
    "PAGE_LABELS",
    "PHONE_KEPT_OUT",
    "QR_BACK",
    "QR_KEY",
    "QR_ONLY_IN_APP",
    "QR_PUT_AWAY",
    "QR_SHOWN",
    "QUESTION_LAPSED",
    "REMOVE_WHOSE",
    "SHARE_ADDRESS_FORM",
    "SHARE_STOPPED",
    "STALE_PILE",
    "TABLE_FULL",
    "TOO_SLOW",
    "TOO_LARGE",
    "UNDO_NOT_YOURS",
    "UNEXPECTED",
    "UNKNOWN_CARD",
    "UNKNOWN_PATH",
    "UNKNOWN_VERB",
    "WRONG_CODE",
    "bad_field",
    "cannot_listen",
    "code_renewed",
    "CODE_READY",
    "private_code",
    "device_list",
    "TAG_COLOURS",
    "TAG_DIGITS",
    "phone_tag",
    "phone_waits_named",
    "device_removed",
    "by_player",
    "from_phone",
    "host_asked",
    "save_waits",
    "move_withdrawn",
    "move_already_waits",
    "save_first",
    "waiting_move_withdrawn",
    "host_decided",
    "joined_from_phone",
    "no_device_for",
    "no_phone_named",
    "every_address",
    "not_own_address",
    "no_phone_waits",
    "phones_kept_out",
    "phones_wait_for",
    "not_a_player",
    "not_your_turn_to_end",
    "phone_asks",
    "phone_answered_no",
    "phone_kept_out",
    "phone_let_in",
    "phone_name",
    "phone_removed",
    "share_form",
    "phone_waits",
    "public_address",
    "qr_too_small",
    "recorded_from",
    "new_phone_asks",
    "new_phone_waits",
    "code_shown",
    "sharing_at",
    "spoken_code",
    "stale_nowhere",
    "stale_stable",
    "too_many_guesses",
    "OLD_LINK",
    "code_closed",
    "too_many_moves",
    "too_many_phones",
]

WRONG_CODE = "That join code is not right. Look at the laptop's screen for the code."
NO_DEVICE = "This phone has not joined the table yet. Enter the join code shown on the laptop."
DEVICE_REMOVED = "The host took this phone off the table. Enter the join code to join again."
OTHER_ORIGIN = "This request came from another page, so it was refused."
OTHER_HOST = "This address is not the table's, so the request was refused."
NO_CSRF = "This page is out of date. Reload it and try again."
NOT_JSON_TYPE = "The request must be sent as JSON."
BODY_NOT_JSON = "The request could not be read."
TOO_LARGE = "The request is too large, so it was refused."
TOO_SLOW = "The request came too slowly, so it was refused. Try again."
UNKNOWN_PATH = "There is nothing at this address."
UNEXPECTED = "The laptop could not answer that request. Try again."
ACTOR_NOT_YOURS = "A phone records moves for its own player only."
UNKNOWN_VERB = "That move is not one a phone can make."
CARD_NEEDED = "Choose a card first."
#: A phone's Neigh in a deck with no Neigh card (Llamas Unleashed): its own buttons, never the laptop's numbered list
#: of Instants ("Type a number to choose.").
NO_NEIGH_CARD = "This deck has no Neigh card: tap Play an Instant, then choose the card."
UNKNOWN_CARD = "That card is not in this game's decks."
STALE_PILE = "That card has left the pile. Your screen now shows the table as it is."
QUESTION_LAPSED = "The table changed before you answered, so nothing was recorded. Make the move again."
UNDO_NOT_YOURS = "From a phone you can undo only your own last move, and the last move recorded is not yours."
NO_GAME_TO_JOIN = "No game has started yet. Start one on the laptop, then enter the code again."
CHOOSE_PLAYER = "Choose who you are."
NO_DEVICES = "No phone has joined the table."
NOT_SHARING = "The table is not shared. Say share to share it."
SHARE_STOPPED = "The table is no longer shared. Phones cannot record moves until you share it again."
NO_LOCAL_ADDRESS = (
    "This computer has no local-network address, so the table cannot be shared. Join a Wi-Fi network, or say "
    "share 127.0.0.1 to try it on this computer alone."
)
REMOVE_WHOSE = "Say whose phone to take off the table, like share remove Ben, or share remove Ben 2 for one phone."
ONE_AT_A_TIME = "This phone waits for the host to let it in, and asks one thing at a time. Wait here."
#: A phone with more requests unanswered at once than a phone's page sends (its event streams apart).
TOO_MANY_AT_ONCE = "This phone is waiting for too many answers at once. Wait a moment, then try again."
#: More phones asking at once with the QR code than a table's players would.
TOO_MANY_JOINING = "Too many phones are asking to join at once. Wait a moment, then try again."
CODE_GUESSED = "Someone is guessing the join code: a new code is shown."
#: Told to the host when joining, closed to every phone by guessing, opens again (the closure's end).
CODE_REOPENED = "Phones can join with the code again."
PHONE_KEPT_OUT = "The host did not let this phone join the table."
TABLE_FULL = (
    "The table has as many phones as it can take, so this one cannot join. Ask the host to take a phone off with "
    "share remove, then join again."
)
QR_KEY = "F10 shows the QR code for the phones to scan."
QR_SHOWN = "The QR code is on the screen for the phones to scan. Press F10 or type a line to go back to the table."
QR_BACK = "F10 or a line typed goes back to the table."
QR_PUT_AWAY = "The QR code is put away: the table is back."
QR_ONLY_IN_APP = (
    "The QR code is drawn only in the app, not in plain mode. The phones can open the address and type the join code."
)
SHARE_ADDRESS_FORM = "Say an address and a port, like share 127.0.0.1:8123, or share alone."

#: The labels of the question a player's phone is asked when a card of theirs may save the card their move destroys
#: or sacrifices "instead" (Black Knight Unicorn): yes records the save, no the move as made.
SAVE_LABELS = {"heading": "A card may save it", "yes": "Save it", "no": "Do not save it"}

#: The page's own labels, sent to it as text (the page shows them with textContent, never as markup).
PAGE_LABELS = {
    "title": "Table assistant",
    "join_heading": "Join the table",
    "code_label": "Join code",
    "join": "Join",
    "choose_player": CHOOSE_PLAYER,
    "taken": "has a phone",
    "reconnecting": "Connecting again…",
    "you_label": "You:",
    "warning_heading": "Check this move",
    "yes": "Record it anyway",
    "no": "Do not record it",
    "moves_heading": "Your moves",
    "no_moves": "Nothing to do until it is your turn or a card is played.",
    "draw": "Draw",
    "play": "Play a card",
    "super_neigh": "Super Neigh",
    "instant": "Play an Instant",
    "resolve": "Resolve",
    "end": "End turn",
    "destroy": "Destroy",
    "sacrifice": "Sacrifice",
    "steal": "Steal",
    "return": "Return to hand",
    "discard": "Discard",
    "bring": "Bring a Baby",
    "undo": "Undo my last move",
    "read": "Read a card",
    "play_it": "Play it",
    "back": "Back to the table",
    "waiting": "Waiting for the network. Your move is kept and is sent when the network is back.",
    "sent": "Your move went through.",
    "search_label": "Card name or braille label",
    "no_cards": "No card like that.",
    "search_offline": "No network: the cards are found on this phone, and your move is kept until the network is back.",
    "any_card": "A card, not named",
    "aim_label": "Targeting",
    "aim_none": "No one declared",
    "cancel": "Cancel",
    "pile_heading": "The pile",
    "chain_heading": "The chain",
    "last_heading": "Last moves",
}


def spoken_code(code: str) -> str:
    """A join code as it is said: digit by digit ("4 0 7 1 1 9")."""
    return " ".join(code)


def sharing_at(address: str, code: str, named: str = "") -> str:
    """The address phones open and the join code (said when sharing starts, and by `share`); `named`: the same page
    at the table's short local name, once it is published (`also_at`)."""
    said = f"The table is shared at {address}. The join code is {spoken_code(code)}."
    return f"{said} {also_at(named)}" if named else said


def also_at(named: str) -> str:
    """The page's address at the table's short local name (mDNS), easier to say aloud."""
    return f"Phones on this network may also open {named}."


def no_local_name(reason: str) -> str:
    """Said once when the table's short local name cannot be published: the address still works."""
    return f"The table has no short name on this network ({reason}): phones open its address."


CODE_READY = "A new join code is ready: say share to hear it."


def private_code(code: str) -> Segment:
    """A new join code, shown on the app's screen and a braille display and never said: a screen reader (plain
    mode's lines) is given `CODE_READY` in its place (`words.worded.reader_lines`), and `share` says the code when
    asked."""
    return Segment(Verbatim(code_shown(code)), part=Part.PRIVATE, channel=Channel.SCREEN)


def code_renewed(code: str) -> tuple[Segment, ...]:
    """A new join code, made when the last one grew old: shown (never said, never printed to a screen reader), and
    said to be ready."""
    return private_code(code), Segment(Verbatim(CODE_READY), channel=Channel.SPEECH)


def qr_too_small(columns: int, rows: int, width: int, height: int) -> str:
    """The terminal is too small to draw the QR code whole (`columns` by `rows` needed, `width` by `height` had)."""
    return (
        f"The QR code cannot be drawn: it needs {columns} columns by {rows} rows, and this terminal has {width} by "
        f"{height}. Make the terminal larger, or let the phones open the address and type the join code."
    )


def public_address(address: str) -> str:
    """Why the server will not listen on an address reachable from the internet."""
    return (
        f"{address} is a public internet address, so the table was not shared: it is shared only on a local "
        f"network. Say share 127.0.0.1 to try it on this computer alone."
    )


def cannot_listen(address: str, reason: str) -> str:
    """The server could not listen on an address (in use, not this computer's)."""
    return f"The table could not be shared at {address}: {reason}."


OLD_LINK = "This QR code is no longer the table's. Scan the one on the laptop's screen now, or enter the join code."


def code_closed(minutes: int, qr: bool) -> str:
    """So many wrong join codes from so many addresses that the code is closed to every phone for `minutes` (the
    table-wide cap), said once to the host with what to do: the QR code still lets a phone ask to join (`qr`: the
    app, which draws it), or, with no QR code here (plain mode), when phones may join again."""
    unit = "minute" if minutes == 1 else "minutes"
    closed = (
        f"Wrong join codes keep coming from many addresses, so the code is closed to every phone for {minutes} {unit}."
    )
    if qr:
        return f"{closed} A phone that scans the QR code still asks to join: F10 shows it, and you still let it in."
    opening = (
        f"To let a phone in now, type share allow and its player's name: the code works for {_minutes(OPEN_MINUTES)}."
    )
    return f"{closed} You are told when it reopens. {opening}"


#: Whole minutes the host's opening lasts (`share allow NAME` while no phone of NAME waits; the server's `OPEN_FOR`).
OPEN_MINUTES = 2


def _minutes(minutes: int) -> str:
    return f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"


def code_opened(player: str, minutes: int = OPEN_MINUTES) -> str:
    """`share allow NAME` while no phone waits to join as NAME: the host opens joining with the code for `minutes`,
    whatever the guessing (no closure keeps a right code out meanwhile, no wrong one renews it); what to do next."""
    return (
        f"The join code works for {_minutes(minutes)}, whatever the guessing. Tell {player} the code (share says it); "
        f"you still let the phone in when it asks."
    )


def too_many_guesses(seconds: int) -> str:
    """Too many wrong join codes from one address: how long to wait."""
    unit = "second" if seconds == 1 else "seconds"
    return f"Too many wrong codes. Wait {seconds} {unit}, then try again."


def too_many_moves(seconds: int) -> str:
    """A phone sent moves faster than the table takes them: how long to wait."""
    unit = "second" if seconds == 1 else "seconds"
    return f"Too many moves at once. Wait {seconds} {unit}, then make the move again."


def not_a_player(name: str, players: list[str]) -> str:
    """A phone chose a name that is not a player of the game (the name as the phone sent it, cleaned)."""
    return f"{clean_untrusted(name, 40)} is not a player in this game. The players are {', '.join(players)}."


def bad_field(field: str) -> str:
    """A field of a request that is missing or not of the right kind."""
    return f"The request's {field} could not be read."


def stale_stable(card: str, player: str, area: str) -> str:
    """A move on a card that has left the Stable the page showed it in."""
    return f"{card} is no longer in {player}'s {area}. Your screen now shows the table as it is."


def stale_nowhere(card: str, area: str) -> str:
    """A move on a card that is in no Stable any more."""
    return f"{card} is no longer in any {area}. Your screen now shows the table as it is."


def not_your_turn_to_end(player: str) -> str:
    """A phone tried to end another player's turn."""
    return f"It is {player}'s turn: only {player} ends it."


def from_phone(player: str, first: str, ended_turn: bool = False) -> str:
    """The first line of a move from a phone whose announcement does not say who made it, attributed first and
    whole on one line (never a line that is only a name): "Ben, from a phone: ended the turn. Turn 3: Cy's turn."
    (`ended_turn`: the move ended the turn, which the next turn's words do not say); "Cy, from a phone: Ben's Neigh
    resolves: ...". No pronoun: the app does not know the players'."""
    done = " ended the turn." if ended_turn else ""
    return f"{player}, from a phone:{done} {first}".rstrip()


def by_player(player: str, first: str, ended_turn: bool = False) -> str:
    """The same move on the other phones, in the phones' own words: who made it, never "from a phone" (every move on
    a phone is from a phone): "Ben ended the turn. Turn 3: Cy's turn.", "Cy: Ben's Neigh resolves: ..."."""
    if ended_turn:
        return f"{player} ended the turn. {first}".rstrip()
    return f"{player}: {first}" if first else f"{player}."


def phone_asks(phone: str, saving: bool = False) -> str:
    """Said on the laptop when a phone's move was warned (or a save is offered): the question is that phone's to
    answer, so the laptop asks nothing ("Ben's phone is asked whether to record it anyway.")."""
    return f"{phone} is asked whether to {'save it' if saving else 'record it anyway'}."


def host_asked(player: str, saving: bool = False, later: bool = False) -> str:
    """Shown on the phone whose move asks a player who has no phone (the host, at the laptop) a question: a save of
    their card (`later`: once she has answered the question the laptop asks now)."""
    asked = f"{player} is asked on the laptop whether to {'save it' if saving else 'record it anyway'}"
    return f"{asked}, once the laptop's open question is answered." if later else f"{asked}."


def save_waits(owner: str, mover: str) -> str:
    """Said on the laptop when a phone's move would destroy a card of a player at the laptop that a card of theirs
    may save "instead", while the laptop asks something else: her question stays open, and the save is asked of
    her after it (never on another phone)."""
    return f"{mover}'s move waits: {owner} is asked whether to save a card once this question is answered."


def move_withdrawn(owner: str) -> str:
    """Shown on the phone whose undo took back its own move while that move waited on another player's answer (a save
    asked of the host): nothing of the game is undone."""
    return f"Your move is taken back before {owner} answered: nothing was recorded."


def move_already_waits(owner: str) -> str:
    """Shown on a phone whose move would wait on the host's answer while a move of its own already does: one at a time
    (a tap repeated in a hurry put a line a tap into her speech)."""
    return f"Your move already waits on {owner}'s answer: make this one once it is answered."


def save_first(mover: str) -> str:
    """Shown on a phone asked whether to save its player's card when it makes a move of its own first: the question
    stays, and the move of the other player that waits on it is not lost."""
    return f"First answer whether to save your card: {mover}'s move waits on your answer."


def waiting_move_withdrawn(mover: str, owner: str) -> str:
    """Said on the laptop when a phone's move that waited on the host's answer (a save of her card) is taken back by
    its player: the question it asked is closed."""
    return f"{mover} took the move back: {owner} is no longer asked whether to save a card."


def phone_answered_no(player: str) -> str:
    """Said on the laptop when the player declined to record a warned move."""
    return f"{player} did not record it."


def device_list(joined: Sequence[tuple[str, str]], waiting: Sequence[tuple[str, str]] = ()) -> str:
    """The phones let in, each by its name and the short name its screen showed ("Ben's phone (blue 7)"), and the
    phones that wait, by player and short name (`share devices`); `joined`: (phone name, short name) pairs,
    `waiting`: (player, short name) pairs."""
    names = ", ".join(f"{player} ({tag})" if tag else player for player, tag in waiting)
    asking = f"A new phone waits to join as {names}." if waiting else ""
    if not joined:
        return f"{NO_DEVICES} {asking}".strip()
    parts = [f"{phone} ({tag})" if tag else phone for phone, tag in joined]
    return f"Phones joined: {', '.join(parts)}. {asking}".strip()


#: What a phone's short name is made of: a colour and a digit ("blue 7"), two short words easy to hear and to read
#: on its screen; 64 of them, one for each device the table keeps.
TAG_COLOURS = ("blue", "green", "red", "gold", "pink", "white", "black", "grey")
TAG_DIGITS = ("2", "3", "4", "5", "6", "7", "8", "9")


def phone_tag(colour: str, digit: str) -> str:
    """A phone's short name, shown on its screen while it waits and said in the host's question ("blue 7")."""
    return f"{colour} {digit}"


def phone_waits_named(player: str, tag: str) -> str:
    """Shown on a phone that waits for the host: its short name, which the host hears in the question."""
    return f"This phone is {tag}. {phone_waits(player)}"


def device_removed(player: str, count: int) -> str:
    """`share remove NAME` took that player's phones off the table."""
    player = clean_untrusted(player, 40)
    return f"{player}'s phone was taken off the table." if count == 1 else f"{player}'s {count} phones were taken off."


def phone_removed(phone: str, tag: str = "") -> str:
    """`share remove NAME PHONE` (or `share remove blue 7`) took that one phone off the table ("Ben's phone 2 was
    taken off the table.", "Ben's phone 2, blue 7, was taken off the table.")."""
    return f"{phone}, {tag}, was taken off the table." if tag else f"{phone} was taken off the table."


def share_form(word: str) -> str:
    """A `share` line with more words than its form takes (`share off now`): refused, and its form said."""
    forms = {"allow": "share allow, or share allow and a name", "refuse": "share refuse, or share refuse and a name"}
    return f"That was not done. Say {forms.get(word, f'share {word}')}, with nothing after it."


def no_device_for(player: str, number: int | None = None) -> str:
    """`share remove NAME` when that player has no phone (the name as typed, cleaned); `share remove NAME PHONE` when
    they have no phone of that number ("Ben has no phone 2 on the table.")."""
    phone = "phone" if number is None else f"phone {number}"
    return f"{clean_untrusted(player, 40)} has no {phone} on the table."


def no_phone_named(tag: str) -> str:
    """`share remove blue 7` when no phone on the table shows that short name."""
    return f"No phone on the table is {tag}. share devices names each phone."


def every_address(address: str) -> str:
    """Why the server never listens on an address that is every address of this computer (0.0.0.0, ::)."""
    return (
        f"{address} means every network this computer is on, so the table was not shared: it is shared on one "
        "local network only. Say share alone for this computer's local-network address, or share 127.0.0.1 to try "
        "it on this computer alone."
    )


def not_own_address(address: str) -> str:
    """Why the server never listens on a multicast address (no computer's own)."""
    return (
        f"{address} is a multicast address, not this computer's own, so the table was not shared. Say share alone "
        "for this computer's local-network address."
    )


def phone_name(player: str, number: int = 1) -> str:
    """A phone on the table, by its player and which of their phones it is ("Ben's phone", "Ben's phone 2")."""
    return f"{player}'s phone" if number == 1 else f"{player}'s phone {number}"


#: A phone that opens event streams faster than a phone's pages do: this one is refused.
TOO_MANY_STREAMS = "This phone has too many pages of the table open. Close the others, then reload this one."
#: Every place for an event stream is taken (a share of the connections is kept for phones asking something else).
STREAMS_FULL = "The table is too busy to send this page its changes now. Reload it in a minute."


def too_many_reads(seconds: int) -> str:
    """A phone asked for cards' texts faster than the table answers them: how long to wait."""
    unit = "second" if seconds == 1 else "seconds"
    return f"Too many cards looked at at once. Wait {seconds} {unit}, then look again."


#: A phone that waited to be let in for 5 minutes, unanswered: taken off, told so.
WAIT_EXPIRED = "Nobody let this phone in within 5 minutes, so it stopped waiting. Ask to join again."
#: A phone that waited to be let in, taken off to make room for a newer phone asking for its player (the player's
#: places all taken, or too many phones waiting on the table): told so.
PHONE_DISPLACED = (
    "Another phone asked to record for this player after this one, so this one stopped waiting. If this is your "
    "phone, ask to join again and tell the host the name it shows."
)


def phone_holds_too_much(player: str, number: int = 1) -> str:
    """Told to the host, once per phone, when a phone let in is refused for holding too many event streams."""
    return (
        f"{phone_name(player, number)} opens more pages of the table than a phone needs; the extra ones are "
        "refused. If it is not theirs, take it off with share remove."
    )


def joined_from_phone(player: str) -> str:
    """Said on the laptop when a phone joins the table."""
    return f"{player} joined from a phone."


def new_phone_asks(player: str, tag: str = "", rivals: Sequence[str] = ()) -> str:
    """Said on the laptop when a phone asks to join as a player: the question the host answers, the only one the
    keyboard's yes or no answers now; `tag`: the short name the phone shows, so the host knows which phone asks;
    `rivals`: the short names of the other phones that wait to join as the same player (one is an impostor's: the
    player tells her which name their own phone shows)."""
    return f"{_asks(player, tag)}{_rivals(player, rivals)} Let it in?"


def new_phone_waits(player: str, tag: str = "", rivals: Sequence[str] = ()) -> str:
    """As `new_phone_asks`, when the laptop already waits for another answer: how to answer this one (by its short
    name when other phones wait for the same player)."""
    name = tag if rivals and tag else player
    return (
        f"{_asks(player, tag)}{_rivals(player, rivals)} Say share allow {name} to let it in, or share refuse {name} "
        "to keep it out."
    )


def _asks(player: str, tag: str) -> str:
    showing = f": the one showing {tag}" if tag else ""
    return f"A new phone asks to record for {player}{showing}."


def _rivals(player: str, rivals: Sequence[str]) -> str:
    if not rivals:
        return ""
    asks, names = "asks" if len(rivals) == 1 else "ask", name_list(list(rivals))
    return f" {names[:1].upper()}{names[1:]} also {asks} for {player}: ask {player} which name their phone shows."


def phones_wait_for(player: str, tags: Sequence[str]) -> str:
    """`share allow NAME` (or `share refuse NAME`, or alone) when several phones wait to join as the player: which
    one is not for the host to guess, so she is told to answer by the short name the player's own phone shows."""
    return (
        f"{len(tags)} phones wait to join as {player}: {name_list(list(tags))}. Ask {player} which name their phone "
        "shows, then say share allow and that name; share refuse and a name keeps that one out."
    )


def too_many_phones(player: str, most: int) -> str:
    """A phone's join refused: the player has as many phones as a player may."""
    return (
        f"{player} has {most} phones on the table, the most a player may have. Ask the host to take one off, like "
        f"share remove {player} 2."
    )


def code_shown(code: str) -> str:
    """The new join code on the screen after a phone was kept out or taken off (shown, never said: whoever the host
    kept out must not hear it)."""
    return f"New join code on the screen: {' '.join(code)}."


def phone_let_in(player: str, number: int) -> str:
    """The host let a second phone join."""
    return f"{phone_name(player, number)} joined the table."


def phone_kept_out(player: str) -> str:
    """The host kept a new phone out."""
    return f"The new phone for {player} was kept out."


def host_decided(player: str, number: int, allow: bool) -> str:
    """The host's answer to a new phone (its yes or no, or `share allow` or `share refuse`)."""
    return phone_let_in(player, number) if allow else phone_kept_out(player)


def phones_kept_out(players: Sequence[str]) -> str:
    """`share refuse all`: every phone that waited to join kept out at once, by the players they asked for."""
    count = len(players)
    return f"{count} waiting {'phone' if count == 1 else 'phones'} kept out, asking for {name_list(list(players))}."


def no_phone_waits(player: str = "") -> str:
    """`share allow NAME` or `share refuse NAME` (or a late yes or no) when no phone waits to join as that player
    (`share allow` alone: when none waits at all)."""
    return f"No phone waits to join as {player}." if player else "No phone waits to join."


def phone_waits(player: str) -> str:
    """Shown on a phone that waits for the host to let it join as a player."""
    return f"The host is asked to let this phone record for {player}: wait here."


def recorded_from(phone: str) -> str:
    """Kept with a move recorded from a phone, for `history`."""
    return f"From {phone}."


#: What one of the last moves tells: what a move recorded led to ("move": the move, and the facts it led to), or the
#: words of an undo or a redo.
LastKind = Literal["move", "undo", "redo"]


@dataclass(frozen=True)
class LastMove:
    """One of the last moves the phones show, with its place in the game's log: two moves alike at two places are two
    moves, and an undo takes back the moves at the places it names, never by their words."""

    text: str
    """Its words on the phones (`words_for`, `Audience.OTHER_PHONE`)."""
    at: int = 0
    """Its place in the game's log, the log's length after the move it tells (`About.at`): a fact a move led to has
    that move's place; the words of an undo or a redo have the first place it took back or put back; 0: none known."""
    player: str = ""
    """The player who made the move ("" for none)."""
    own: str = ""
    """Its words on that player's own phone ("You drew a card.", `words_for` with `Audience.OWN_PHONE`; "": none of
    their own, `text` serves)."""
    kind: LastKind = "move"
    """A move and what it led to, or the words of an undo or a redo."""
    back: tuple[int, ...] = ()
    """For the words of an undo or a redo, every place it took back or put back: the moves kept at those places are
    no longer listed."""

"""Rule profiles, one per rulebook, as data: `assistant/core/rules.toml`, validated on load.

A profile gives what differs between rulebooks: the words (Stable or Field, Unicorn or Animal), how many
Unicorns win for each number of players, the hand limit, what happens when the deck runs out, whether the
2-player variant exists, and the Llamas Unleashed Herd Bonus. The same file holds the small tables the card tags
cannot give (how much a card changes the hand limit, which card turns every Animal into one variation).
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from assistant.core.cards.card import VARIATIONS, Vocabulary
from assistant.core.datatext import DataTextError, load_toml

Report = Callable[[str, str, str], None]
"""Notes one problem of the rules file: where, which key, what is wrong."""

MIN_PLAYERS = 2
MAX_PLAYERS = 8
RULES_FILE = "rules.toml"
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")
# Packed (fmt: skip): a set of short words reads better as a block than one word a line.
PROFILE_KEYS = {
    "id", "title", "rulebook", "game", "vocabulary", "to_win", "hand_limit", "deck_out", "two_player", "herd_bonus",
}  # fmt: skip
PROFILE_REQUIRED = PROFILE_KEYS - {"herd_bonus"}
TOP_KEYS = {"profile", "two_player", "hand_limits", "variation_overrides"}


class DeckOut(enum.Enum):
    """What happens when the deck runs out before anyone has won."""

    MOST_WINS = "most-wins"
    """Most Unicorns wins; a tie goes to most letters in their Unicorns' names; still tied, everyone loses."""
    NO_WINNER = "no-winner"
    """The game ends and nobody wins (the first edition's "stickler")."""
    RESHUFFLE = "reshuffle"
    """The discard pile is shuffled into a new deck."""


#: The first edition's names for its two choices.
DECK_OUT_ALIASES = {"stickler": DeckOut.NO_WINNER, "rule-breaker": DeckOut.RESHUFFLE, "rulebreaker": DeckOut.RESHUFFLE}


@dataclass(frozen=True)
class Profile:
    """The rules of one rulebook."""

    id: str
    """Short name used in commands and saves, such as "uu-current"."""
    title: str
    """Spoken when the game starts."""
    rulebook: str
    """The rulebook file the profile follows."""
    game: str
    """"unstable-unicorns" or "llamas-unleashed"."""
    vocabulary: Vocabulary
    """Stable and Unicorn, or Field and Animal."""
    to_win: tuple[int, ...]
    """Unicorns needed to win, for 2, 3, ... 8 players."""
    hand_limit: int
    """The hand limit before cards change it."""
    deck_out: tuple[DeckOut, ...]
    """What the table may choose when the deck runs out; the first is the default."""
    two_player: bool
    """True when the 2-player variant applies to this rulebook."""
    herd_bonus: int = 0
    """Animals of one variation needed for a Herd Bonus; 0 when the game has none."""

    def goal(self, players: int) -> int:
        """Unicorns needed to win with this many players."""
        return self.to_win[players - MIN_PLAYERS]


@dataclass(frozen=True)
class HandLimitRule:
    """How one card changes the hand limit while it is in a Stable."""

    set: int | None = None
    """The limit becomes this number (the lowest wins when several cards set it)."""
    add: int = 0
    """Added to the limit after any `set`."""
    everyone: bool = False
    """True when the card changes every player's limit, not just its Stable owner's."""


@dataclass(frozen=True)
class Rules:
    """Everything in the rules file."""

    profiles: dict[str, Profile]
    two_player_removed: tuple[str, ...]
    """Card ids taken out of the deck in the 2-player variant."""
    two_player_neigh_each: bool
    """True when each player is handed a Neigh in the 2-player variant."""
    hand_limits: dict[str, HandLimitRule] = field(default_factory=dict)
    variation_overrides: dict[str, str] = field(default_factory=dict)

    def profile(self, profile_id: str) -> Profile:
        """The profile with this id; `UnknownProfileError` naming the known ones otherwise."""
        try:
            return self.profiles[profile_id]
        except KeyError:
            raise UnknownProfileError(profile_id, tuple(self.profiles)) from None

    def default_profile(self, deck_rules: str, game: str) -> Profile:
        """The profile a deck asks for, or the first profile of its game."""
        if deck_rules in self.profiles:
            return self.profiles[deck_rules]
        return next((p for p in self.profiles.values() if p.game == game), next(iter(self.profiles.values())))


class UnknownProfileError(LookupError):
    """A rule profile id that is not in the rules file."""

    def __init__(self, profile_id: str, known: tuple[str, ...]):
        self.profile_id = profile_id
        self.known = known
        super().__init__(f"No rules called {profile_id!r}. Known rules: {', '.join(known)}.")


class RulesDataError(ValueError):
    """The rules file is broken; `problems` lists every problem as `file: where: field: problem`."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def parse_rules(text: str, path: str = RULES_FILE) -> Rules:
    """Parse and validate the rules file's text; raise `RulesDataError` listing every problem."""
    try:
        data = load_toml(text)
    except DataTextError as exc:
        raise RulesDataError([f"{path}:{exc.line}: toml: {exc.message}"]) from None
    problems: list[str] = []

    def report(where: str, key: str, message: str) -> None:
        problems.append(f"{path}: {where}: {key}: {message}")

    for key in sorted(set(data) - TOP_KEYS):
        report("-", key, "unknown top-level key")
    profiles: dict[str, Profile] = {}
    entries = data.get("profile", [])
    if not isinstance(entries, list) or not entries:
        report("-", "profile", "no [[profile]] entries")
        entries = []
    for number, entry in enumerate(entries, start=1):
        where = entry.get("id", f"profile {number}") if isinstance(entry, dict) else f"profile {number}"
        profile = _parse_profile(entry, str(where), report)
        if profile is None:
            continue
        if profile.id in profiles:
            report(profile.id, "id", "duplicate profile id")
        profiles[profile.id] = profile

    variant = _table(data, "two_player", report)
    removed: tuple[str, ...] = ()
    for key in sorted(set(variant) - {"remove", "neigh_each"}):
        report("two_player", key, "unknown key")
    raw = variant.get("remove", [])
    if not isinstance(raw, list) or not all(isinstance(c, str) and _ID.match(c) for c in raw):
        report("two_player", "remove", "must be a list of card ids")
    else:
        removed = tuple(raw)
    neigh_each = variant.get("neigh_each", False)
    if not isinstance(neigh_each, bool):
        report("two_player", "neigh_each", "must be true or false")
        neigh_each = False

    hand_limits: dict[str, HandLimitRule] = {}
    for card_id, rule in _table(data, "hand_limits", report).items():
        parsed = _parse_hand_limit(card_id, rule, report)
        if parsed is not None:
            hand_limits[card_id] = parsed

    overrides: dict[str, str] = {}
    for card_id, variation in _table(data, "variation_overrides", report).items():
        if not _ID.match(card_id):
            report("variation_overrides", card_id, "is not a card id")
        elif variation not in VARIATIONS:
            report("variation_overrides", card_id, f"{variation!r} is not one of {', '.join(VARIATIONS)}")
        else:
            overrides[card_id] = variation

    if problems:
        raise RulesDataError(problems)
    return Rules(profiles, removed, neigh_each, hand_limits, overrides)


def _table(data: dict[str, Any], key: str, report: Report) -> dict[str, Any]:
    """The file's table `key`: empty when it is not there, and when it is not a table (that reported)."""
    value = data.get(key, {})
    if isinstance(value, dict):
        return value
    report(key, key, "must be a table")
    return {}


def _parse_profile(entry: object, where: str, report: Report) -> Profile | None:
    if not isinstance(entry, dict):
        report(where, "profile", "must be a table")
        return None
    for key in sorted(set(entry) - PROFILE_KEYS):
        report(where, key, "unknown key")
    missing = sorted(PROFILE_REQUIRED - set(entry))
    for key in missing:
        report(where, key, "missing")
    if missing:
        return None
    ok = True
    for key in ("id", "title", "rulebook", "game", "vocabulary"):
        if not isinstance(entry[key], str) or not entry[key].strip():
            report(where, key, "must be non-empty text")
            ok = False
    if ok and not _ID.match(entry["id"]):
        report(where, "id", "must be lower-case letters, digits and dashes")
        ok = False
    if ok and entry["game"] not in ("unstable-unicorns", "llamas-unleashed"):
        report(where, "game", f"{entry['game']!r} is not unstable-unicorns or llamas-unleashed")
        ok = False
    vocabulary = None
    if ok:
        try:
            vocabulary = Vocabulary(entry["vocabulary"])
        except ValueError:
            report(where, "vocabulary", f"{entry['vocabulary']!r} is not unicorn or animal")
            ok = False
    to_win = _parse_to_win(entry["to_win"], where, report)
    limit = entry["hand_limit"]
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        report(where, "hand_limit", "must be a positive whole number")
        ok = False
    deck_out: list[DeckOut] = []
    raw = entry["deck_out"]
    if not isinstance(raw, list) or not raw:
        report(where, "deck_out", "must be a non-empty list")
        ok = False
    else:
        for value in raw:
            try:
                deck_out.append(DeckOut(value))
            except ValueError:
                choices = ", ".join(d.value for d in DeckOut)
                report(where, "deck_out", f"{value!r} is not one of {choices}")
                ok = False
    if not isinstance(entry["two_player"], bool):
        report(where, "two_player", "must be true or false")
        ok = False
    herd = entry.get("herd_bonus", 0)
    if not isinstance(herd, int) or isinstance(herd, bool) or herd < 0:
        report(where, "herd_bonus", "must be a whole number, 0 for none")
        ok = False
    if not ok or to_win is None or vocabulary is None:
        return None
    return Profile(
        id=entry["id"],
        title=entry["title"].strip(),
        rulebook=entry["rulebook"].strip(),
        game=entry["game"],
        vocabulary=vocabulary,
        to_win=to_win,
        hand_limit=limit,
        deck_out=tuple(deck_out),
        two_player=entry["two_player"],
        herd_bonus=herd,
    )


def _parse_to_win(raw: object, where: str, report: Report) -> tuple[int, ...] | None:
    """Player-count ranges ("2-5" = 7) to one number per count, each of 2..8 covered exactly once."""
    if not isinstance(raw, dict) or not raw:
        report(where, "to_win", 'must be a table of player-count ranges, such as { "2-5" = 7 }')
        return None
    goals: dict[int, int] = {}
    ok = True
    for key, value in raw.items():
        match = _RANGE.match(key)
        if not match:
            report(where, "to_win", f"{key!r} is not a player count or range such as 2-5")
            ok = False
            continue
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if not (MIN_PLAYERS <= low <= high <= MAX_PLAYERS):
            report(where, "to_win", f"{key!r} is outside {MIN_PLAYERS} to {MAX_PLAYERS} players")
            ok = False
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            report(where, "to_win", f"{key!r}: must be a positive whole number")
            ok = False
            continue
        for count in range(low, high + 1):
            if count in goals:
                report(where, "to_win", f"{count} players is in two ranges")
                ok = False
            goals[count] = value
    missing = [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if n not in goals]
    if missing:
        report(where, "to_win", f"no number for {', '.join(map(str, missing))} players")
        ok = False
    if not ok:
        return None
    return tuple(goals[n] for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))


def _parse_hand_limit(card_id: str, rule: object, report: Report) -> HandLimitRule | None:
    where = "hand_limits"
    if not _ID.match(card_id):
        report(where, card_id, "is not a card id")
        return None
    if not isinstance(rule, dict):
        report(where, card_id, "must be a table such as { set = 3 } or { add = 1 }")
        return None
    for key in sorted(set(rule) - {"set", "add", "everyone"}):
        report(where, card_id, f"unknown key {key!r}")
        return None
    if "set" not in rule and "add" not in rule:
        report(where, card_id, "needs set or add")
        return None
    value_set = rule.get("set")
    add = rule.get("add", 0)
    everyone = rule.get("everyone", False)
    if value_set is not None and (not isinstance(value_set, int) or isinstance(value_set, bool) or value_set < 0):
        report(where, card_id, "set must be a whole number")
        return None
    if not isinstance(add, int) or isinstance(add, bool):
        report(where, card_id, "add must be a whole number")
        return None
    if not isinstance(everyone, bool):
        report(where, card_id, "everyone must be true or false")
        return None
    return HandLimitRule(value_set, add, everyone)


@functools.cache
def load_rules() -> Rules:
    """The shipped rules file, parsed once (it sits beside this module, so the core reads it without storage)."""
    text = resources.files("assistant.core.game").joinpath(RULES_FILE).read_text(encoding="utf-8")
    return parse_rules(text)


def parse_deck_out(word: str) -> DeckOut | None:
    """A deck-out choice from a word: "reshuffle", "no-winner", "most-wins", "stickler", "rule-breaker"."""
    key = word.strip().lower().replace(" ", "-")
    if key in DECK_OUT_ALIASES:
        return DECK_OUT_ALIASES[key]
    try:
        return DeckOut(key)
    except ValueError:
        return None

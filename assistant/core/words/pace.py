"""What is said to keep pace with the table: a cut fact folded into the next reply, other hands' moves merged a
player a sentence, a digest of what was missed, a reply led by its facts. Each decides by the typed facts
(`game.about.About`) and the states each line tells, never by reading a sentence back.
"""

from __future__ import annotations

import re

from assistant.core.game.about import About, State, Topic, unique
from assistant.core.text import name_list, sentences

__all__ = [
    "fold",
    "catch_up",
    "merge_moves",
    "missed",
    "NOTHING_MISSED",
    "lead_with",
    "restating",
    "advice_once",
]


def fold(facts: list[str] | tuple[str, ...], text: str) -> str:
    """A reply with the decisive facts cut before it said first, each a short clause: "Ben's turn. Ben drew a
    card."."""
    return " ".join([*(f.strip() for f in facts if f.strip()), text.strip()]).strip()


def catch_up(facts: list[About] | tuple[About, ...], text: str) -> str:
    """Facts cut or missed, each short (a state in its short form: "Ben's turn."), said before `text` ("" for a
    catch-up said after the player's own reply)."""
    return fold([fact.folded_text for fact in facts], text)


#: What a move's player did, said after their name in a merged sentence ("{card}": the card's name).
_DID = {
    "draw": "drew a card",
    "play": "played {card}",
    "instant": "played {card}",
    "neigh": "played {card}",
    "discard": "discarded {card}",
    "destroy": "destroyed {card}",
    "steal": "stole {card}",
    "sacrifice": "sacrificed {card}",
    "return": "returned {card} to a hand",
    "bring": "brought {card} into a Stable",
    "take": "took {card}",
    "end": "ended the turn",
}


def _did(move: About) -> str:
    if move.move == "discard" and not move.card:
        return "discarded a card"
    return _DID[move.move].format(card=move.card)


def merge_moves(facts: list[About] | tuple[About, ...]) -> list[About]:
    """The facts with each player's moves said as one sentence, where that player's first move was, in the order
    recorded: "Ben drew a card and played Rainbow Aura." (a move of a kind with no short form stays as it is)."""
    moves: dict[int, list[About]] = {}
    for fact in facts:
        for move in fact.parts or (fact,):
            if move.topic is Topic.MOVE and move.seats and move.move in _DID:
                moves.setdefault(move.seats[0], []).append(move)
    merged: list[About] = []
    for fact in facts:
        own = [m for m in fact.parts or (fact,) if m.topic is Topic.MOVE and m.seats and m.move in _DID]
        if not own:
            merged.append(fact)
            continue
        seat = own[0].seats[0]
        group = moves.pop(seat, [])
        if len(group) == 1:
            merged.append(group[0])
        elif group:
            text = f"{group[0].player} {name_list([_did(move) for move in group])}."
            merged.append(About(Topic.MOVE, text, (seat,), group[0].player, "moves", parts=tuple(group)))
    return merged


#: The most facts a digest says (`missed`), the newest: each player's moves merged count as one.
DIGEST_MOST = 12
NOTHING_MISSED = "Nothing new from the other players since your last move."


def missed(facts: list[About] | tuple[About, ...]) -> str:
    """The digest of what other hands did since the player's last move (or since she last asked), in the order
    recorded, a superseded state left out and each player's moves in one sentence: "Since your last move: Ben drew a
    card and played Rainbow Aura. Cy played Neigh. Cy's turn."."""
    said = merge_moves(unique(facts))[-DIGEST_MOST:]
    if not said:
        return NOTHING_MISSED
    return "Since your last move: " + " ".join(fact.text.strip() for fact in said)


def lead_with(facts: tuple[About, ...], lines: list[tuple[str, frozenset[State]]]) -> list[str]:
    """A reply's lines with its decisive facts said first, so the next key or move cannot cut them before they are
    heard: unchanged when the first line tells every state they tell ("Turn 2: Ben's turn." for "Ben's turn.");
    else the facts first, and a later line that tells only states the facts tell is left out ("Ana has 1 Unicorn."
    after "Ana 1 Unicorn."), as is a sentence that is one of the facts word for word: "Destroy a Unicorn. Unicorn
    Poison is played: ...", "Ana 1 Unicorn. Ben destroyed ..."."""
    texts = [text for text, _ in lines]
    if not facts or not lines:
        return texts
    states = frozenset().union(*(fact.states for fact in facts))
    if all(fact.states and fact.states <= lines[0][1] for fact in facts):
        return texts
    words = {sentence for fact in facts for sentence in sentences(fact.text)}
    kept = []
    for text, says in lines:
        rest = [sentence for sentence in sentences(text) if sentence not in words]
        if rest and not (says and says <= states):
            kept.append(" ".join(rest))
    return [" ".join(fact.text.strip() for fact in facts), *kept]


def restating(facts: tuple[About, ...], lines: list[tuple[str, frozenset[State]]]) -> frozenset[str]:
    """The lines that tell states and only states the facts tell ("Turn 2: Ben's turn." for "Ben's turn.", "Ana has 2
    Unicorns." for "Ana 2 Unicorns."), by the states each line tells: what a display holding the facts leaves out,
    as `lead_with` leaves them out of speech."""
    states = frozenset().union(*(fact.states for fact in facts))
    return frozenset(text for text, says in lines if says and says <= states)


# Coaching said with a fact, not a fact itself: how to have a Herd Bonus read here (`announce.herd_bonus_said`).
_ADVICE = re.compile(r" ?To hear it here, add the line [^.]*? then import the sheet\.")


def advice_once(lines: list[str], given: set[str]) -> list[str]:
    """The lines with any advice already in `given` left out (it is said once a game, not every turn); the advice
    said now is added to `given`."""
    kept = []
    for line in lines:
        for advice in _ADVICE.findall(line):
            if advice.strip() in given:
                line = line.replace(advice, "")
            given.add(advice.strip())
        if line.strip():
            kept.append(line)
    return kept

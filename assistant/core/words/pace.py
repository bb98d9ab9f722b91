"""What the speech queue needs to know of the game's sentences to keep pace with the table: which decisive facts a
newer reply settles (a turn that has passed, a count said again), and how a cut fact is folded into the next reply.

The sentences themselves come from the other modules of `assistant.core.words`; these functions only read them, so
they live beside them: a change of wording there is a change here.
"""

from __future__ import annotations

import re

from assistant.core.game.about import About, State, Topic, unique
from assistant.core.text import name_list, sentences
from assistant.core.words.gameplay import CHAIN_RESOLVED

__all__ = [
    "fact_topics",
    "settled_by",
    "says_only_its_state",
    "fold",
    "catch_up",
    "merge_moves",
    "missed",
    "NOTHING_MISSED",
    "lead_with",
    "advice_once",
]

# "Turn 5: Ben's turn.", "Ben's turn: must do Sadistic Ritual."
_TURN = re.compile(r"'s turn\b")
# "Ana has 2 Unicorns.", "Ana 2 Unicorns.", "Ana: 2 Unicorns.", "Ana has no Unicorns." (the player's name, then
# the count; with no word between, the count is followed by the creature's name: "Ana 2 Unicorns.")
_COUNT = re.compile(r"(?:^|[.!?;,] )([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)(?:(?::| has| wins with) (?:\d+|no) | \d+ [A-Z])")
# "Ana wins with 3 Unicorns!", "Ana wins!", and its taking back ("Win taken back."): a win said again
# settles both
_WIN = re.compile(r"\bwins(?: with\b|!)|\b[Ww]in taken back\b|\bend of the game is taken back\b")


def fact_topics(text: str) -> frozenset[str]:
    """What a sentence (or a reply) says the state of: "turn" (whose turn it is), "count:Ana" (Ana's count, also in
    "Ana wins with 4 Unicorns!"), "win" (who won, or that a win was taken back); empty for a fact that is an event of
    its own ("Ben destroyed Basic Unicorn (Red).")."""
    topics = {f"count:{match.group(1)}" for match in _COUNT.finditer(text)}
    if _TURN.search(text):
        topics.add("turn")
    if _WIN.search(text):
        topics.add("win")
    return frozenset(topics)


def settled_by(fact: str, newer: str) -> bool:
    """Whether the reply `newer` settles a decisive fact not yet heard, so it is not said: the newer reply says it
    already, or says the state it told of as it is now (a newer turn, a newer count for the same player, a win);
    or the fact tells of no state (a chain's duty, "Destroy a Unicorn.") and the newer reply says the chain is
    resolved (`CHAIN_RESOLVED`): what the chain asked is done or past."""
    fact = fact.strip()
    if not fact or fact in newer:
        return True
    topics = fact_topics(fact)
    if not topics:
        return CHAIN_RESOLVED in newer
    return topics <= fact_topics(newer)


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


_WORD = re.compile(r"[\w']+")
#: At most this many words of a sentence the fact does not have, for a sentence that says the same state (a turn, a
#: count) to count as said again: "Turn 2: Ben's turn." after "Ben's turn.", "Ana has 2 Animals." after "Ana 2
#: Animals.".
_FEW = 2


def _words(text: str) -> set[str]:
    return {word.casefold() for word in _WORD.findall(text)}


def says_only_its_state(sentence: str, fact: str) -> bool:
    """Whether a sentence says nothing but a state the decisive `fact` says, in other words: it tells of a turn, a
    count or a win the fact tells of, and of nothing else (at most `_FEW` words the fact does not have): "Ana has 2
    Unicorns." for "Ana 2 Unicorns.", "Turn 2: Ben's turn." for "Ben's turn."; not "Ana wins with 4 Unicorns!" for
    "Ana wins!" (it adds the count). The one rule for speech leaving out a sentence its fact said first
    (`lead_with`) and for a braille display leaving out what its held fact showed (`repeats.without_fact`)."""
    said = fact_topics(sentence)
    return bool(said) and said <= fact_topics(fact) and len(_words(sentence) - _words(fact)) <= _FEW


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

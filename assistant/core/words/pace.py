"""What the speech queue needs to know of the game's sentences to keep pace with the table: which decisive facts a
newer reply settles (a turn that has passed, a count said again), and how a cut fact is folded into the next reply.

The sentences themselves come from the other modules of `assistant.core.words`; these functions only read them, so
they live beside them: a change of wording there is a change here.
"""

from __future__ import annotations

import re

__all__ = ["fact_topics", "settled_by", "fold", "lead_with", "advice_once"]

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
    already, or says the state it told of as it is now (a newer turn, a newer count for the same player, a win)."""
    fact = fact.strip()
    if not fact or fact in newer:
        return True
    topics = fact_topics(fact)
    return bool(topics) and topics <= fact_topics(newer)


def fold(facts: list[str] | tuple[str, ...], text: str) -> str:
    """A reply with the decisive facts cut before it said first, each a short clause: "Ben's turn. Ben drew a
    card."."""
    return " ".join([*(f.strip() for f in facts if f.strip()), text.strip()]).strip()


def lead_with(decisive: str, lines: list[str]) -> list[str]:
    """A reply's lines with its decisive fact said first, so the next key or move cannot cut it before it is heard:
    unchanged when the first line says it already ("Turn 2: Ben's turn." for "Ben's turn."); else the fact first,
    and a later sentence that only says a state the fact says is left out ("Ana has 1 Unicorn." after "Ana 1
    Unicorn."): "Destroy a Unicorn. Unicorn Poison is played: ...", "Ana 1 Unicorn. Ben destroyed ..."."""
    facts = [f for f in _sentences(decisive) if f]
    if not facts or not lines or all(settled_by(f, _sentences(lines[0])[0]) for f in facts):
        return lines
    said = fact_topics(decisive)
    kept = []
    for line in lines:
        rest = [
            s
            for s in _sentences(line)
            if s not in facts and not (fact_topics(s) and fact_topics(s) <= said and _only_state(s))
        ]
        if rest:
            kept.append(" ".join(rest))
    return [decisive.strip(), *kept]


def _sentences(text: str) -> list[str]:
    """Sentences at ". " (the game's sentences: card names with a full stop inside are not among facts)."""
    return [s.strip() + ("" if s.strip().endswith((".", "!", "?")) else ".") for s in re.split(r"(?<=[.!?]) ", text)]


# A sentence that only says a count: "Ana has 2 Unicorns.", "Ana 2 Unicorns.".
_ONLY_COUNT = re.compile(r"^[A-Z][\w'-]*(?: [A-Z][\w'-]*)?(?: has|:)? (?:\d+|no) [A-Z]\w*\.$")


def _only_state(sentence: str) -> bool:
    """Whether a sentence says nothing but a count (so the decisive fact said first says it all)."""
    return bool(_ONLY_COUNT.match(sentence.strip()))


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

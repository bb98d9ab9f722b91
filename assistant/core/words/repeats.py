"""Which words of a reply repeat its decisive fact word for word, for a braille display: the display shows the fact
first and holds it, then the reply, so the reader never pans through the same words twice ("Destroy a Unicorn card
..." held, then "... which does this: Destroy a Unicorn card ..."). A line that tells the fact's state in other
words ("Turn 2: Ben's turn." for "Ben's turn.") is known by its states (`Reply.restates`), not here.
"""

from __future__ import annotations

import re

from assistant.core.text import PLAIN, SentenceNames, sentences

__all__ = ["without_fact"]

# What is left of a sentence whose end was the fact: "... played by Cy, which does this:" (`announce._trigger_doing`).
_DANGLING = re.compile(r"(?:,? which does this)?[\s,:;.]*$")


def without_fact(fact: str, line: str, names: SentenceNames = PLAIN) -> str:
    """A line of a reply without the words of the decisive `fact`: its sentences the fact says whole left out; a fact's
    sentence inside a longer one cut out of it ("Effect chain: the effect of Unicorn Poison, played by Cy."). ""
    when nothing else is left. `names`: the game's names that change where a sentence ends."""
    if not fact.strip():
        return line
    folded_fact = fact.casefold()
    cores = [part.rstrip(".!?").casefold() for part in sentences(fact, names)]
    kept: list[str] = []
    for sentence in sentences(line, names):
        if sentence.casefold() in folded_fact:
            continue
        for core in cores:
            at = sentence.casefold().find(core) if len(core) > 12 else -1
            if at > 0:  # the fact inside a longer sentence: what comes before and after it stays
                tail = sentence[at + len(core) :].lstrip(".!? ")
                sentence = _DANGLING.sub("", sentence[:at]) + "." + (f" {tail}" if tail else "")
                break
        kept.append(sentence)
    return " ".join(kept)

"""What a reply recorded, undid or redid (`Recorded`, values), in the phones' words: the same typed steps and order as
the laptop's lines, at the normal level, never how to say a move (`Audience.OTHER_PHONE`: the phones' buttons say
how), nor the notes the laptop adds after ("From Ben's phone 2."). The phones word a reply themselves from these
values; the reply keeps no words for them beside its segments.
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.facts import GameOver
from assistant.core.game.history import Recorded
from assistant.core.game.table import Table
from assistant.core.words.announce import announce_said, facts_of_step
from assistant.core.words.audience import Audience
from assistant.core.words.pace import lead_with
from assistant.core.words.position import undone_many
from assistant.core.words.share import LastKind, LastMove, by_player
from assistant.core.words.worded import lines_of, words_for

__all__ = ["recorded_lines", "mover_first", "last_moves"]


def recorded_lines(table: Table, recorded: Sequence[Recorded], attributed: bool = True) -> tuple[str, ...]:
    """The lines of what a reply recorded, undid or redid, in the phones' words, in order (() for nothing recorded:
    the reply's own lines serve). A step recorded: what the laptop says of it, its decisive facts first (a game's
    end keeps its own order); an undo or a redo: what it gave back, the counts now and where the game is.
    `attributed`: a phone's move whose words do not name its player has them first on its first line, as the other
    phones show it ("Ben ended the turn. Turn 3: Cy's turn.", `Recorded.by`); else as its own player's phone shows
    it (never its own name as news)."""
    lines: list[str] = []
    for one in recorded:
        said = _lines(table, one)
        if attributed and one.by and said:
            said = (by_player(one.by, said[0], one.ended_turn), *said[1:])
        elif attributed and one.by:
            said = (by_player(one.by, "", one.ended_turn),)
        lines += said
    return tuple(lines)


def mover_first(table: Table, recorded: Sequence[Recorded]) -> tuple[str, str]:
    """The player of a phone's move attributed in the first line of what a reply recorded, and that line as their own
    phone shows it, not attributed (`words.recorded.last_moves`' `by`); ("", "") when the first is no phone's move
    attributed."""
    if not recorded or not recorded[0].by:
        return ("", "")
    own = _lines(table, recorded[0])
    return (recorded[0].by, own[0] if own else "")


def _lines(table: Table, recorded: Recorded) -> tuple[str, ...]:
    """One record's lines in the phones' words, not attributed."""
    steps = list(recorded.steps)
    if recorded.back:
        return tuple(undone_many(table, steps, recorded.back == "redo", Audience.OTHER_PHONE)) if steps else ()
    lines: list[str] = []
    for step in steps:
        said = announce_said(table, step, audience=Audience.OTHER_PHONE, at=recorded.at)
        if any(isinstance(fact, GameOver) for fact in step.facts):
            lines += lines_of(said, Audience.OTHER_PHONE)
        else:
            led = lead_with(facts_of_step(table, step, recorded.at), said, audience=Audience.OTHER_PHONE)
            lines += lines_of(led, Audience.OTHER_PHONE)
    return tuple(lines)


def last_moves(
    facts: tuple[About, ...],
    tells: tuple[About, ...],
    lines: tuple[str, ...],
    by: tuple[str, str] = ("", ""),
    at: int = 0,
    table: Table | None = None,
) -> tuple[LastMove, ...]:
    """What the phones' "last moves" keep of a reply: its moves and its decisive facts in their own short words, the
    player's name first ("Ben played Rainbow Aura.", "Ben 1 Unicorn.", "Cy's turn."), never the laptop's coaching
    ("say draw"), each move with its words for its own player's phone (`words_for` with `Audience.OWN_PHONE`, in the
    names of `table`, the game it is of); the reply's lines where it has no typed values (an undo, a resolve), the
    first as it was before a phone's move was attributed in it (`by`, `mover_first`) for that player's own phone.
    `lines` are the reply's lines in the phones' words (what it recorded, `recorded_lines`, else its lines). Each is
    kept with its place in the game's log: a move's own (`About.at`), the facts with the move's, else `at` (the
    log's length after the reply); an undo's or a redo's words with the places it took back or put back (its
    `Topic.UNDO` tells)."""
    back = tuple(sorted({fact.at for fact in tells if fact.topic is Topic.UNDO and fact.at}))
    redo = any(fact.topic is Topic.UNDO and fact.move is MoveKind.REDO for fact in tells)
    kind: LastKind = ("redo" if redo else "undo") if back else "move"
    moves = [fact for fact in tells if fact.topic is Topic.MOVE]
    place = back[0] if back else next((fact.at for fact in moves if fact.at), at)

    def mine(fact: About) -> str:  # (its words on its own player's phone)
        return words_for(fact, Audience.OWN_PHONE, table)

    said = [
        LastMove(words_for(fact, Audience.OTHER_PHONE), fact.at or place, fact.player, mine(fact), kind, back)
        for fact in moves
    ]
    said += [LastMove(words_for(fact, Audience.OTHER_PHONE), place, kind=kind, back=back) for fact in facts]
    if said or not lines:
        return tuple(said)
    player, own = by
    first = LastMove(lines[0], place, player, own, kind, back)
    return (first, *(LastMove(line, place, kind=kind, back=back) for line in lines[1:]))

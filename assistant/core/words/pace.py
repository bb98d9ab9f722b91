"""What is said to keep pace with the table: a cut fact folded into the next reply, other hands' moves merged a
player a sentence, a digest of what was missed, a reply led by its facts. Each decides by the typed facts
(`game.about.About`) and the states each line tells, never by reading a sentence back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from assistant.core.game.about import About, Merged, MoveKind, StopAlone, Topic, unique
from assistant.core.game.segment import Channel, Part, Segment, Told, Verbatim
from assistant.core.text import PLAIN, SentenceNames, sentences
from assistant.core.words.audience import Audience
from assistant.core.words.kinds import kind_says
from assistant.core.words.worded import lines_of, segment_words, words_for

__all__ = [
    "fold",
    "catch_up",
    "stops_said",
    "merge_moves",
    "merge_said",
    "missed",
    "placed",
    "standing",
    "Digest",
    "NOTHING_MISSED",
    "MORE_MISSED",
    "lead_with",
    "advice_once",
    "move_point",
]


def fold(facts: list[str] | tuple[str, ...], text: str) -> str:
    """A reply with the decisive facts cut before it said first, each a short clause: "Ben's turn. Ben drew a
    card."."""
    return " ".join([*(f.strip() for f in facts if f.strip()), text.strip()]).strip()


def catch_up(facts: list[About] | tuple[About, ...], text: str) -> str:
    """Facts cut or missed, each short (a state in its short form: "Ben's turn."), said before `text` ("" for a
    catch-up said after the player's own reply)."""
    return fold([words_for(fact, Audience.BRIEF) for fact in facts], text)


def _short(move: About) -> bool:
    """A move of a kind with a short form, said merged with its player's other moves."""
    return move.topic is Topic.MOVE and bool(move.seats) and move.move is not None and bool(kind_says(move.move).did)


def merge_moves(facts: list[About] | tuple[About, ...], answered: bool = False) -> list[About]:
    """The facts with each player's moves of one turn said as one sentence, where that player's first move of the turn
    was, in the order recorded: "Ben drew a card and played Rainbow Aura." (a move of a kind with no short form stays as
    it is), its moves in the order recorded (by their place in the log, where known). Moves of two turns are never one
    sentence (`About.turn`; where it is not known, a turn's end closes its player's sentence): "Dee ended the turn and
    ended the turn" would tell two turns as one. The one rule of merging that the pause's digest (`speech.queue`),
    `missed` and a phone's held words (`merge_said`) follow.
    `answered`: an Instant with the card it answered (in a digest, where the move it answered may be far before)."""
    moves: dict[tuple[int, int, int], list[About]] = {}
    key: dict[int, tuple[int, int, int]] = {}  # each move (by id) with its sentence's key
    ends: dict[tuple[int, int], int] = {}  # (seat, turn): the sentences closed by a turn's end so far
    for fact in facts:
        for move in fact.parts or (fact,):
            if _short(move):
                seat = move.seats[0]
                key[id(move)] = (seat, move.turn, ends.get((seat, move.turn), 0))
                moves.setdefault(key[id(move)], []).append(move)
                if move.move is MoveKind.END:
                    ends[seat, move.turn] = ends.get((seat, move.turn), 0) + 1
    merged: list[About] = []
    for fact in facts:
        own = [m for m in fact.parts or (fact,) if _short(m)]
        if not own:
            merged.append(fact)
            continue
        group = moves.pop(key[id(own[0])], [])
        if all(move.at for move in group):  # in the order recorded, though a move cut and folded came first
            group.sort(key=lambda move: move.at)
        if len(group) == 1:
            merged.append(group[0])
        elif group:
            merged.append(_merged(group, answered))
    return merged


def merge_said(segments: Iterable[Segment]) -> tuple[Segment, ...]:
    """The spoken words of several replies of one player's phones as one line, said only (they were shown each in its
    time): the moves they say merged a player a sentence of one turn (`merge_moves`: "Ben drew a card and played Rainbow
    Aura."; never moves of two turns), in the order recorded, each where its player's first was; a line that tells only
    states a later one tells again (Ben's count after his first play, told anew after his second) left out; the rest as
    it was, each in its place (an undo's words each time: nothing told twice is the same move twice)."""
    spoken = [segment for segment in segments if segment.channel.spoken]
    moves = [segment.about[0] for segment in spoken if _says_a_move(segment)]
    into = {id(part): fact for fact in merge_moves(moves) for part in fact.parts}
    merged: list[Segment] = []
    said: set[int] = set()
    for n, segment in enumerate(spoken):
        later = frozenset().union(*(other.states for other in spoken[n + 1 :]))
        if segment.states and segment.states <= later and not _says_a_move(segment):
            continue  # a newer line tells it again
        fact = into.get(id(segment.about[0])) if _says_a_move(segment) else None
        if fact is None:
            merged.append(replace(segment, channel=Channel.SPEECH))
        elif id(fact) not in said:
            said.add(id(fact))
            merged.append(Segment(fact, (fact,), channel=Channel.SPEECH))
    return tuple(merged)


def _says_a_move(segment: Segment) -> bool:
    """The segment's words say one move and nothing else (`merge_said` may say it merged with others)."""
    return len(segment.about) == 1 and segment.about[0].topic is Topic.MOVE


def _merged(group: list[About], answered: bool = False, it: bool = False) -> About:
    """One player's moves as one sentence: "Ben drew a card and played Rainbow Aura." (`words.worded.deeds`); `it`:
    the card its first move stopped said "it" (`Merged.it`)."""
    merged = Merged(answered, it)
    return About(Topic.MOVE, group[0].seats, group[0].player, MoveKind.MOVES, parts=tuple(group), source=merged)


#: The most words a part of the digest says (`missed`), its heading and `MORE_MISSED` counted: about 10 seconds
#: at espeak-ng's default rate (175 words a minute; digests measured 2.4 to 2.8 words a second, a card's colour in
#: brackets and "wins!" said slower than plain words: 25 words with three colours took 10.6 s). The rest waits for
#: the next `missed`.
DIGEST_WORDS = 24
NOTHING_MISSED = "Nothing new from the other players since your last move."
DIGEST_HEADING = "Since your last move:"
#: The heading of a part after the first (the rest of a digest cut at `DIGEST_WORDS`).
DIGEST_GOES_ON = "Also missed:"
MORE_MISSED = "More: say missed again."
#: The most words a digest's sentences say whole before a busy round is said in its newest state (`_compact`):
#: what two parts hold, their headings and `MORE_MISSED` counted, about 15 seconds at her default rate.
ROUND_WORDS = 2 * DIGEST_WORDS - 4 - 2 - 4


@dataclass(frozen=True)
class Digest:
    """A part of the digest of what other hands did (`missed`): its heading and the facts it says, typed; its
    sentences are made from them (`segments`, worded at the edge; `lines`, the table's)."""

    heading: str
    """Said before the first fact: `DIGEST_HEADING`, `DIGEST_GOES_ON`, or `NOTHING_MISSED` alone."""
    said: tuple[About, ...]
    """The facts said, as said (a player's moves merged into one), the most decisive first."""
    more: bool = False
    """More waits for the next `missed`: the facts not in `told`; `MORE_MISSED` is said last."""

    @property
    def lines(self) -> tuple[str, ...]:
        """Its sentences in the table's words, one a line: the heading before the first, `MORE_MISSED` last when more
        waits."""
        return lines_of(self.segments, Audience.TABLE)

    @property
    def text(self) -> str:
        """What is said: its lines, joined."""
        return " ".join(self.lines)

    @property
    def told(self) -> tuple[About, ...]:
        """The facts it said, each move on its own (a merged sentence taken apart)."""
        return tuple(part for fact in self.said for part in fact.flat())

    @property
    def states(self) -> tuple[About, ...]:
        """The decisive states it said, a win and whose turn it is (held as a reply's facts)."""
        return tuple(fact for fact in self.said if fact.topic in (Topic.WIN, Topic.TURN))

    @property
    def segments(self) -> tuple[Segment, ...]:
        """Its sentences as a reply's segments, each a value (the heading and `MORE_MISSED` alike for everyone; each
        fact as said, `_said_as`), each with the state it says (`states`), where it says one; the first fact on the
        heading's line."""
        states = self.states
        facts = tuple(
            Segment(_said_as(fact, self.said[n - 1] if n else None), (fact,) if fact in states else (), joined=n == 0)
            for n, fact in enumerate(self.said)
        )
        more = (Segment(Verbatim(MORE_MISSED)),) if self.more else ()
        return (Segment(Verbatim(self.heading)), *facts, *more)


def placed(facts: list[About] | tuple[About, ...], at: int) -> list[About]:
    """The facts told by the event recorded at place `at` of the game's log, each kept with that place (a move, an
    undo keeps its own), so that an undo of that event takes back what it led to as well ("Dee's turn.")."""
    return [fact if fact.at or fact.topic is Topic.UNDO else replace(fact, at=at) for fact in facts]


def standing(news: list[About] | tuple[About, ...]) -> list[About]:
    """The facts that still hold: what an undo took back left out (by its place in the log, never by its words),
    put back in order by a redo of that place; the undos themselves said by no digest."""
    kept: list[About] = []
    taken: dict[int, list[About]] = {}
    for fact in news:
        if fact.topic is not Topic.UNDO:
            kept.append(fact)
        elif fact.move is MoveKind.REDO:
            kept += taken.pop(fact.at, [])
        else:
            taken[fact.at] = [old for old in kept if old.at == fact.at]
            kept = [old for old in kept if old.at != fact.at]
    return kept


def stops_said(facts: list[About] | tuple[About, ...]) -> list[About]:
    """The facts with what each Instant stopped given words (`_stops`): a resolve's reply cut or dropped before it
    was heard is folded as "Ben's Neigh stopped Ana's Basic Unicorn (Red).", or with the Instant's move when that
    is folded too; a move is never lost for having no words of its own."""
    return _stops(list(facts))


def _stops(facts: list[About]) -> list[About]:
    """The facts with what each Instant stopped said with its move, found by its player, card and the card it
    answered ("Cy stopped Ben's Basic Unicorn (Blue) with Neigh."), or on its own when that move is not among them
    ("Cy's Neigh stopped Ben's Basic Unicorn (Blue).")."""
    out: list[About] = []
    for fact in facts:
        if fact.topic is not Topic.STOPPED:
            out.append(fact)
            continue
        played = [
            n
            for n, move in enumerate(out)
            if kind_says(move.move).answers and (move.seats, move.card, move.on) == (fact.seats, fact.card, fact.on)
        ]
        if played:
            out[played[-1]] = replace(out[played[-1]], move=MoveKind.STOP, stopped=fact.stopped)
        else:
            out.append(replace(fact, source=StopAlone()))  # ("Cy's Neigh stopped Ben's Basic Unicorn (Blue).")
    return out


def _news(facts: list[About]) -> list[About]:
    """The facts each once, a superseded state left out (`unique`); whose turn it is now kept though its player's
    draw says it (news to a player who was not listening), unless someone won since."""
    kept = unique(facts)
    turns = [n for n, fact in enumerate(facts) if fact.topic is Topic.TURN]
    if turns and facts[turns[-1]] not in kept:
        turn, since = facts[turns[-1]], facts[turns[-1] + 1 :]
        if not any(fact.topic is Topic.WIN and fact.seats for fact in since):
            kept.append(turn)
    return kept


def _took_hers(fact: About, me: int | None) -> bool:
    """The fact tells a move of another hand that took a card of the player's (seat `me`) from her Stable."""
    return me is not None and any(
        move.topic is Topic.MOVE and kind_says(move.move).takes_away and move.owner == me and me not in move.seats
        for move in fact.flat()
    )


def _digest_rank(fact: About, me: int | None) -> int:
    """Where a digest says a fact (lower first): a win, whose turn it is now, a move that took her card, the rest."""
    if fact.topic is Topic.WIN:
        return 0
    if fact.topic is Topic.TURN:
        return 1
    return 2 if _took_hers(fact, me) else 3


def _compact(facts: list[About]) -> list[About]:
    """What a digest says of a round: the newest state, not every step. A chain's end and a duty done or passed (a
    move of its player recorded after it) are left out: the moves and counts say what became of them. When the round
    is busy (more than `ROUND_WORDS` words said whole), what changed no Stable is left out too, step by step until
    it fits: first a card drawn and a card discarded unnamed, then a card an Instant stopped with the Instant that
    stopped it (`_stops_left_out`). The digest
    keeps what changed on the table (the Stables, her cards, whose turn, a win), so that a round of four hands is
    said in two parts, in about 15 seconds."""
    kept = [
        fact
        for n, fact in enumerate(facts)
        if fact.topic is not Topic.CHAIN_DONE and not any(fact.done_by(later) for later in facts[n + 1 :])
    ]
    for compact in (lambda facts: [fact for fact in facts if not _routine(fact)], _stops_left_out):
        if sum(_words(_sentence(fact)) for fact in merge_moves(kept)) <= ROUND_WORDS:
            return kept
        kept = compact(kept)
    return kept


def _stops_left_out(facts: list[About]) -> list[About]:
    """The facts without the cards Instants stopped: a card stopped changed no Stable, so a busy round's digest says
    neither the stop nor the play of the card it stopped (found by its player's seat and its card, `About.stopped`);
    a Super Neigh on a Neigh leaves the card they answered said as it ended."""
    out: list[About | None] = list(facts)
    for n, fact in enumerate(facts):
        if fact.stopped is None:
            continue
        seat, card = fact.stopped
        played = [
            m
            for m, move in enumerate(out[:n])
            if move is not None
            and move.topic is Topic.MOVE
            and (move.move is MoveKind.PLAY or kind_says(move.move).answers)
            and move.seats[:1] == (seat,)
            and move.card == card
        ]
        if played:
            out[played[-1]] = None
        out[n] = None
    return [fact for fact in out if fact is not None]


def _routine(fact: About) -> bool:
    """A move that changes no Stable and no turn: a card drawn, a card discarded without its name."""
    return fact.topic is Topic.MOVE and (
        fact.move is MoveKind.DRAW or (fact.move is MoveKind.DISCARD and not fact.card)
    )


def _by_player(said: list[About], me: int | None) -> list[About]:
    """The digest's facts with each player's count and duty said right after that player's sentence, never after
    another player's ("Cy played Basic Unicorn (Red). Cy 2 Unicorns."); her own count (seat `me`) right after the
    first sentence that took a card of hers. A fact with no sentence of its player stays where it was."""

    def owner(fact: About) -> int | None:
        if fact.topic not in (Topic.COUNT, Topic.DUTY) or not fact.seats:
            return None
        return fact.seats[0]

    attached = [fact for fact in said if owner(fact) is not None]
    out: list[About] = []
    for fact in said:
        if owner(fact) is not None and _anchor(said, owner(fact), me) is not None:
            continue  # said after its player's sentence
        out.append(fact)
        if fact.topic is Topic.MOVE:
            out += [extra for extra in attached if _anchor(said, owner(extra), me) is fact and extra not in out]
    return out


def _anchor(said: list[About], seat: int | None, me: int | None) -> About | None:
    """The sentence a seat's count or duty follows: its player's own moves, or, for her own seat, the first move that
    took a card of hers; None when there is none."""
    if seat is None:
        return None
    if seat == me:
        return next((fact for fact in said if _took_hers(fact, me)), None)
    return next((fact for fact in said if fact.topic is Topic.MOVE and fact.seats[:1] == (seat,)), None)


def _said_as(fact: About, before: About | None = None) -> About:
    """A fact as a digest says it: a move as it is, or, merged or an Instant with the card it answered, its player's
    name and what they did: "Cy played Neigh on Ben's Basic Unicorn (Blue)."; a duty with the name of the player
    whose card it is ("Dee: Destroy one Animal.", `named`). `before`: the fact said just before it, whose last move,
    where it played the card this one's first move stopped, lets that card be said "it" (`_stops_last`: "Ben played
    Basic Llama. Cy stopped it with Spit Happens.")."""
    if fact.topic is Topic.DUTY:
        return replace(fact, named=bool(fact.player))
    if fact.parts or (_short(fact) and fact.on):  # (an Instant alone: what it answered, or stopped)
        parts = list(fact.flat())
        return _merged(parts, answered=True, it=_stops_last(parts[0], before))
    return fact


def _sentence(fact: About, before: About | None = None) -> str:
    """A fact's sentence in a digest, in the table's words (`_said_as`)."""
    return words_for(_said_as(fact, before), Audience.TABLE).strip()


def _stops_last(move: About, before: About | None) -> bool:
    """The move stopped the card the last move of `before` played (by its player's seat and the card's name, as
    `_stops_left_out` finds it): that sentence ends naming it."""
    if move.stopped is None or before is None or before.topic is not Topic.MOVE:
        return False
    last = before.flat()[-1]
    played = last.move is MoveKind.PLAY or kind_says(last.move).answers
    return played and last.seats[:1] == move.stopped[:1] and last.card == move.stopped[1]


def _words(text: str) -> int:
    return len(text.split())


def _fit(said: list[About], budget: int) -> list[About]:
    """The first facts of `said` whose sentences fit in `budget` words, in order; a player's merged sentence too
    long for what is left said in part (its first moves that fit); the first fact said whole if nothing fits."""
    out: list[About] = []
    for fact in said:
        if _words(_sentence(fact)) <= budget:
            out.append(fact)
            budget -= _words(_sentence(fact))
            continue
        parts = list(fact.parts)
        while len(parts) > 1 and _words(_sentence(_merged(parts))) > budget:
            parts.pop()
        if len(parts) > 1 or (parts and _words(_sentence(parts[0])) <= budget):
            out.append(_merged(parts) if len(parts) > 1 else parts[0])
        elif not out:
            out.append(fact)
        break
    return out


def missed(
    news: list[About] | tuple[About, ...],
    told: list[About] | tuple[About, ...] = (),
    me: int | None = None,
    most: int = DIGEST_WORDS,
) -> Digest:
    """The digest of what other hands did since the player's last move (or since she last asked): what still holds
    (`standing`: an undone move is left out), a superseded state left out, each player's moves of one turn in one
    sentence (`merge_moves`), the
    most decisive first (a win, whose turn it is now, moves that took a card of hers, seat `me`, then the rest in
    the order recorded): "Since your last move: Cy's turn. Ben drew a card and played Rainbow Aura.". At most `most`
    words; the rest, said by the next call (`told`: the facts the parts before said), announced by `MORE_MISSED`."""
    said_before = set(told)
    facts = _compact(_news(_stops(standing(news))))
    facts = [fact for fact in facts if fact not in said_before]
    said = _by_player(sorted(merge_moves(facts), key=lambda fact: _digest_rank(fact, me)), me)
    if not said:
        return Digest(NOTHING_MISSED, ())
    heading = DIGEST_GOES_ON if told else DIGEST_HEADING
    out = _fit(said, most - _words(heading))
    more = sum(len(fact.flat()) for fact in out) < len(facts)
    if more:
        out = _fit(said, most - _words(heading) - _words(MORE_MISSED))
    return Digest(heading, tuple(out), more)


def lead_with(
    facts: tuple[About, ...], lines: list[Segment], names: SentenceNames = PLAIN, audience: Audience = Audience.TABLE
) -> list[Segment]:
    """A reply's segments with its decisive facts said first, each its own segment (`Part.FACT`, on one line), so the
    next key or move cannot cut them before they are heard: unchanged when the first line tells every state they tell
    ("Turn 2: Ben's turn." for "Ben's turn.": that line then tells them); else the facts first, and a later line that
    tells only states the facts tell is left out ("Ana has 1 Unicorn." after "Ana 1 Unicorn."), as is a sentence that
    is one of the facts word for word: "Destroy a Unicorn. Unicorn Poison is played: ...", "Ana 1 Unicorn. Ben
    destroyed ...". Each in the words of `audience`, whom the lines are for (the phones' lines, `words.recorded`)."""
    if not facts or not lines:
        return list(lines)
    states = frozenset().union(*(fact.states for fact in facts))
    if all(fact.states and fact.states <= lines[0].states for fact in facts):
        return [replace(lines[0], about=(*lines[0].about, *facts)), *lines[1:]]
    words = {sentence for fact in facts for sentence in sentences(words_for(fact, audience), names)}
    kept: list[Segment] = []
    moves: list[About] = []  # the moves told by lines left out: the first fact tells them instead
    follows = False  # the line a joined segment goes on was kept
    for line in lines:
        if line.joined:
            if follows:
                kept.append(line)
            else:
                moves += [fact for fact in line.about if fact.topic is Topic.MOVE]
            continue
        said = segment_words(line, audience)
        rest = [sentence for sentence in sentences(said, names) if sentence not in words]
        follows = bool(rest) and not (line.states and line.states <= states)
        if follows:  # (what it says kept as a value where no sentence of it was left out)
            kept.append(line if " ".join(rest) == said else _leaving(line, facts, names, rest))
        else:
            moves += [fact for fact in line.about if fact.topic is Topic.MOVE]
    lead = [Segment(fact, (fact,), fact.states, Part.FACT, joined=n > 0) for n, fact in enumerate(facts)]
    lead[0] = replace(lead[0], about=(*lead[0].about, *(move for move in moves if move not in lead[0].about)))
    return [*lead, *kept]


def _leaving(line: Segment, facts: tuple[About, ...], names: SentenceNames, rest: list[str]) -> Segment:
    """A line with the sentences that say `facts` again left out: a step's line keeps its values and the facts it
    leaves out (`Told.leaving`, worded at the edge for each audience); other words become the sentences left."""
    if isinstance(line.says, Told):
        return replace(line, says=replace(line.says, leaving=facts, names=names))
    return replace(line, says=Verbatim(" ".join(rest)))


def advice_once(segments: list[Segment], given: set[str]) -> list[Segment]:
    """The segments with any coaching already in `given` left out (it is said once a game, not every turn); the
    coaching said now is added to `given`."""
    kept = []
    for segment in segments:
        if segment.part is Part.COACHING:
            said = segment_words(segment, Audience.TABLE)
            if said in given:
                continue
            given.add(said)
        kept.append(segment)
    return kept


def move_point(player: str, facts: Iterable[About], tells: Iterable[About]) -> tuple[str, ...]:
    """The point of another hand's move, first in its first window on a braille display, fullest first: who, then
    the decisive change ("Ana: Ben's turn."), and the change alone for a window too short for both ("Ben's turn.":
    the move's own words, which name who made it, follow); a win alone, which names the winner ("Ben wins!"); a card
    taken as the move says it ("Ana stole Ben's Narwhal."); none when the move changed nothing decisive (its own
    first words say it). `player`: whose hand it was, named when no move of the reply names the player."""
    facts, tells = tuple(facts), tuple(tells)
    wins = [words_for(fact, Audience.TABLE) for fact in facts if fact.topic is Topic.WIN]
    if wins:
        return (wins[-1],)
    moves = [tell for tell in tells if tell.topic is Topic.MOVE]
    taken = [words_for(tell, Audience.TABLE) for tell in moves if kind_says(tell.move).point and tell.owner is not None]
    turns = [words_for(fact, Audience.TABLE) for fact in facts if fact.topic is Topic.TURN]
    changes = " ".join([*taken, *turns[-1:]])
    if not changes:
        return ()
    who = next((tell.player for tell in moves if tell.player), player)
    return (changes,) if taken or not who else (f"{who}: {changes}", changes)

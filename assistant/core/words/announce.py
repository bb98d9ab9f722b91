"""What is said after an event is recorded, at each verbosity: the event, what followed, and what the table waits
for (`Table.prompt`).

Brief says the facts alone, short ("Basic Unicorn. Neigh?", "Ana: 2 Unicorns.", "Ben's turn."); normal adds what the
table waits for ("Any Neigh for Ana's Yay?"); coaching adds how to say it ("Say neigh and a name, or resolve."). A
link of the effect chain is read once, with what its card does in a few words; the chain prompt names it again only
when it comes up (the link before it resolved), never after a step done while it waits, nor with the line that added
it; `chain` reads it on request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from assistant.core.cards.card import CardType
from assistant.core.game import events
from assistant.core.game.about import About, Counted, DutyOf, MoveKind, PromptForm, Topic, TurnOf, Waiting, unique
from assistant.core.game.chain import Link, Trigger, TriggerKind
from assistant.core.game.events import Phase
from assistant.core.game.facts import (
    AnimalAnswered,
    CardMustGo,
    DeckRanOut,
    Fact,
    GameOver,
    InstantResolved,
    LimitReached,
    LinkAdded,
    LinkResolved,
    NeighHadNoEffect,
    OverHandLimit,
    PhaseBegan,
    PileStopped,
    PlayResolved,
    TallyChanged,
    TurnBegan,
    WinWaits,
)
from assistant.core.game.history import Phone, Step
from assistant.core.game.segment import ChainLink, Line, Part, Segment, Told, Verbatim
from assistant.core.game.state import GameState
from assistant.core.game.table import Prompt, PromptKind, Table
from assistant.core.game.tally import Ending
from assistant.core.text import name_list
from assistant.core.words.audience import Audience, for_hand, is_coached
from assistant.core.words.cardtext import LEAVING, card_gist, duty_short
from assistant.core.words.gameplay import (
    GAME_OVER,
    PHASE_NAMES,
    area_of,
    chain_link_added,
    counted,
    describe_fact,
    describe_link,
    describe_trigger,
    end_with,
    game_card_name,
    herd_bonus_name,
    link_names,
    neighed,
    pile_card_name,
    player_name,
    short_card_name,
    targeting,
    turn_began,
)
from assistant.core.words.kinds import EVENT_MOVES, describe_event, kind_of
from assistant.core.words.verbosity import Verbosity

__all__ = [
    "DO_IT_THEN_RESOLVE",
    "describe_prompt",
    "phrase_prompt",
    "herd_bonus_said",
    "hear_it_here",
    "describe_link_doing",
    "announce_said",
    "told_words",
    "NOTHING_TO_RESOLVE",
    "facts_of_step",
    "move_of_step",
    "tells_of_step",
    "chain_duty",
    "brief_counted",
    "waiting_of",
    "waiting_said",
    "turn_duties",
    "begin_duties",
    "neigh_name",
    "end_turn_now",
    "give_up_a_phase",
    "TURN_GOES_ON",
]

DO_IT_THEN_RESOLVE = "Do it, then say resolve."


TURN_GOES_ON = "The turn goes on: the effect was not used."

NOTHING_TO_RESOLVE = "Nothing was waiting to resolve."


def end_turn_now(player: str) -> str:
    """The question asked when a card's effect just done ends the turn at once (Rhinocorn)."""
    return f"End {player}'s turn now?"


def give_up_a_phase(player: str) -> str:
    """The question asked while a card makes a player give up a phase of their choice (Sticky Situation)."""
    return f"Which phase does {player} give up this turn, the Draw or the Action phase?"


def describe_prompt(table: Table, state: GameState, level: Verbosity = Verbosity.COACHING) -> str:
    """What the table may do now (`Table.prompt`), in words."""
    return phrase_prompt(table, table.prompt(state), level)


def phrase_prompt(table: Table, prompt: Prompt, level: Verbosity = Verbosity.COACHING) -> str:
    """A prompt in words: answer the pile, resolve the chain, or the phase's choices; "" when the level says
    nothing of it (the phase was just named, and only coaching says what to type)."""
    coach = level is Verbosity.COACHING
    current = player_name(table, prompt.player)
    match prompt.kind:
        case PromptKind.GAME_OVER:
            return "Say undo to go back, or new game to play again." if coach else ""
        case PromptKind.RESOLVE:
            top, shield_card = prompt.pile_top(), prompt.shielded_by()
            say = ": say resolve." if coach else "."
            if shield_card == top.card:
                return f"{game_card_name(table, top.card)} cannot be answered{say}"
            shield, owner = game_card_name(table, shield_card), top.player
            where = area_of(table, owner)
            if level is Verbosity.BRIEF:
                return f"{shield} in {where}: no {neigh_name(table)}."
            return f"{pile_card_name(table, top)} cannot be {neighed(table)} while {shield} is in {where}{say}"
        case PromptKind.ANSWER:
            neigh = neigh_name(table)
            if level is Verbosity.BRIEF:
                return f"{neigh}?"
            top = prompt.pile_top()
            question = end_with(f"Any {neigh} for {pile_card_name(table, top)}{targeting(table, top.targets)}", "?")
            return f"{question} Say {neigh.lower()} and a name, or resolve." if coach else question
        case PromptKind.OPTIONAL:
            return (
                "To use one, say use and its name (a draw is then its own), then resolve; or say draw to let them go."
                if coach
                else ""
            )
        case PromptKind.BEGINNING:
            return "Do them, then say resolve." if coach else ""
        case PromptKind.CHAIN:
            if level is Verbosity.BRIEF:
                return f"Next: {link_names(table, prompt.link)}."
            return f"Next in the chain: {describe_link(table, prompt.link)}." + (f" {DO_IT_THEN_RESOLVE}" * coach)
        case PromptKind.DRAW:
            return f"{current} draws a card: say draw." if coach else ""
        case PromptKind.SKIP_DRAW:
            return f"{current} skips the Draw phase: say skip." if coach else ""
        case PromptKind.GIVE_UP:
            return give_up_a_phase(current) + (" Say skip draw or skip action." if coach else "")
        case PromptKind.ACTION:
            return f"{current} plays a card or draws one more: say play and a card, or draw. Then end turn." * coach
        case PromptKind.END_TURN:
            return "Say end turn when the turn is over." if coach else ""
        case PromptKind.TURN_ENDS:
            how = " Say yes or end turn; if the effect was not used, say draw." if coach else ""
            return end_turn_now(current) + how
    limit = prompt.hand_limit()
    unknown = name_list([game_card_name(table, c) for c in limit.unknown])
    extra = f" {unknown} changes the hand limit: check the card." if limit.unknown else ""
    if prompt.kind is PromptKind.DISCARD:
        then = " Then say next." if coach else ""
        return f"{current} discards {prompt.excess}, down to the hand limit of {limit.limit}.{extra}{then}"
    return f"The hand limit is {limit.limit}.{extra} Say next for the next turn." if coach else extra.strip()


def neigh_name(table: Table) -> str:
    """ "Neigh" when the deck has a card named Neigh (whatever its full name: "Any Neigh for ...", never "Any The
    Safeword Is Neigh for ..."; the verb is `neigh` either way), or "Instant"."""
    return "Neigh" if table.neigh_card else "Instant"


def herd_bonuses_said(table: Table, link: Link) -> list[Segment]:
    """One line for each Herd Bonus the link offers, what it does first (a braille display's first window, the
    first words heard): "Alpaca Herd Bonus: Your Alpacas cannot be destroyed. ...", then why it may be used."""
    lines: list[Segment] = []
    for variation in (t.card for t in link if t.kind is TriggerKind.HERD):
        kind = variation.capitalize()
        why = f"It may be used with {table.profile.herd_bonus} or more {kind}s."
        lines += herd_bonus_said(kind, *table.cards.herd_bonus(variation), why=why)
    return lines


def hear_it_here(kind: str) -> str:
    """The advice on how to have a Herd Bonus the deck does not know read here, said after it (`herd_bonus_said`)."""
    return (
        f"To hear it here, add the line {kind} Herd Bonus, a colon and its text to your reference sheet, then "
        "import the sheet."
    )


def herd_bonus_said(kind: str, text: str, from_sheet: bool, why: str = "") -> tuple[Segment, ...]:
    """What a Herd Bonus does, first: the owner's sheet's words; the deck's, where known; where the deck sends the
    player to the reference card, that, and how to have it read here from then on (coaching, on the same line: said
    once a game, never on a braille display, whose reader reads her sheet herself). `why`: the sentence saying why
    it may be used, after what it does."""
    said = f"{kind} Herd Bonus:"
    add = (Segment(Verbatim(hear_it_here(kind)), part=Part.COACHING, joined=True),)
    then = f" {why}" if why else ""
    if from_sheet:
        return (Segment(Verbatim(f"{said} {text} Your reference sheet says so.{then}")),)
    if not text:  # a deck with no word on it (a deck made from a sheet alone): the card still has it
        return (Segment(Verbatim(f"{said} printed on the back of your reference card.{then}")), *add)
    if "reference card" in text:
        return (Segment(Verbatim(f"{said} {text}{then}")), *add)
    return (Segment(Verbatim(f"{said} {text}{then}")),)


def describe_link_doing(table: Table, link: Link) -> str:
    """A link of the chain with what each of its cards does, in a few words."""
    return name_list([_trigger_doing(table, t) for t in link])


def _trigger_doing(table: Table, trigger: Trigger) -> str:
    said = describe_trigger(table, trigger)
    card = table.cards.get(trigger.card) if trigger.kind is not TriggerKind.HERD else None
    about = {TriggerKind.ENTER: "enters", TriggerKind.LEAVE: LEAVING}.get(trigger.kind, "")
    if trigger.kind.is_beginning:
        about = "beginning of your turn"
    gist = card_gist(card, about) if card is not None else ""
    return f"{said}, which does this: {gist}" if gist else said


def announce_said(
    table: Table,
    step: Step,
    level: Verbosity = Verbosity.COACHING,
    audience: Audience = Audience.TABLE,
    at: int = 0,
    phone: Phone | None = None,
) -> list[Segment]:
    """Everything to say after an event was recorded, outcome first: the game's end, a card an effect moved, the
    counts; then the event and what followed; then what the table may do now; each line a segment with the states
    it tells (`About.states`: a turn, counts), so a reply that says its decisive facts first leaves out a line that
    only says them again (`pace.lead_with`); the event's line tells its move (`move_of_step`, at place `at` of the
    game's log). `audience`: whose words (`Audience.TABLE`, the laptop's own; `Audience.OTHER_PHONE`, the phones',
    at the normal level; `Audience.PHONE_MOVE`, the laptop's of a phone's move): where it is not coached
    (`is_coached`), never how to say a move, and coaching said at the normal level. `phone`: the phone the step was
    recorded from (None: the laptop's keyboard), whose move the laptop tells in `PHONE_MOVE`'s words
    (`audience.for_hand`). Each line tells the step as values, no words (`Told`, worded at the edge by
    `told_words`); the lines are those its words for `audience` leave (a line of no words is left out)."""
    audience = for_hand(audience, phone)
    asked = level
    level = _level(level, audience)

    def told(line: Line, fact: Fact | None = None) -> Told:
        brief, coached = asked is Verbosity.BRIEF, asked is Verbosity.COACHING
        return Told(table, step, line, fact, brief=brief, coached=coached, phone=phone)

    lines: list[tuple[int, Segment]] = []  # (rank, segment): sorted by rank, in order within one rank
    # the deck running out ends the game by the count: the draw that emptied it is said before the winner
    deck_out = any(isinstance(f, GameOver) and f.outcome.ending is not Ending.GOAL for f in step.facts)
    move = move_of_step(table, step, at)
    moved = () if move is None else (move,)
    if not isinstance(
        step.event, (events.Resolve, events.NextPhase, events.EndTurn, events.SkipPhase)
    ):  # their facts say them
        rank = -1 if deck_out else 1 if kind_of(step.event).effect else 3
        lines.append((rank, Segment(told(Line.EVENT), moved)))
        moved = ()
    phases = [f for f in step.facts if isinstance(f, PhaseBegan)]
    began = any(isinstance(f, TurnBegan) for f in step.facts)
    for fact in step.facts:
        if isinstance(fact, PhaseBegan) and (fact is not phases[-1] or deck_out):
            continue  # "draw" at the start of a turn passes the Draw phase: say only where the turn is now
        if isinstance(fact, TurnBegan):  # with its duties, as its decisive fact says it
            # a turn's end is said by the turn that begins: that line tells the move (`moved`, once)
            lines.append((3, Segment(told(Line.TURN, fact), moved, states=frozenset({(Topic.TURN, None)}))))
            moved = ()
            continue
        if isinstance(fact, LinkAdded) and any(t.kind.is_beginning for t in fact.link):
            if not began:
                duties = [Segment(told(Line.DUTIES, fact))] if begin_duties(table, fact.link) else []
                effects = [*duties, *herd_bonuses_said(table, fact.link)]
            else:  # the duties were said with the turn: what each Herd Bonus does follows (not in brief)
                effects = [] if level is Verbosity.BRIEF else herd_bonuses_said(table, fact.link)
            lines += [(3, line) for line in effects]
            continue
        rank = -1 if deck_out and isinstance(fact, DeckRanOut) else _FACT_RANKS.get(type(fact), 3)
        lines += [(rank, segment) for segment in _fact_segments(table, told, step, fact, level, audience, at)]
    resolved = any(
        isinstance(
            f,
            (
                PlayResolved,
                PileStopped,
                NeighHadNoEffect,
                InstantResolved,
                AnimalAnswered,
                LinkResolved,
            ),
        )
        for f in step.facts
    )
    if isinstance(step.event, events.Resolve) and not resolved:
        lines.append((3, Segment(told(Line.NOTHING))))
    if isinstance(step.event, events.Resolve) and any(isinstance(f, LinkResolved) for f in step.facts):
        lines.insert(0, (3, Segment(told(Line.RESOLVED))))
    if step.after.outcome is None or not any(isinstance(f, GameOver) for f in step.facts):
        prompt = table.prompt(step.after)
        just_said = any(isinstance(f, LinkAdded) and f.link == prompt.link for f in step.facts)
        if prompt.kind is PromptKind.CHAIN and just_said:  # the link was just read: not again
            form = PromptForm.THEN_RESOLVE
        elif prompt.kind is PromptKind.CHAIN and _waited(table, step, prompt):  # it was read before
            form = PromptForm.WHEN_DONE
        elif prompt.kind is PromptKind.ANSWER and level is Verbosity.NORMAL and _just_played(step, prompt):
            form = PromptForm.ANSWER  # the card was just named: the short question
        else:
            form = PromptForm.PHRASED
        # what the table waits for now, typed: open only until the next step (speech never says it after that)
        waiting = waiting_of(prompt, level, form)
        if waiting_said(table, waiting):  # (in its own words, `words.worded.words_for`)
            question = About(Topic.QUESTION, at=at, source=waiting, table=table)
            lines.append((4, Segment(question, (question,))))
    ordered = [segment for _, segment in sorted(lines, key=lambda ranked: ranked[0])]
    return [segment for segment in ordered if not isinstance(segment.says, Told) or told_words(segment.says, audience)]


def told_words(told: Told, audience: Audience) -> str:
    """A line of a step's announcement in an audience's words ("" for none), made from its values (`Told`): at the
    level it was asked at, as the audience says it (`_level`: the phones' at the normal level); on the laptop, a
    move made on a phone in `PHONE_MOVE`'s words (`audience.for_hand`, from the phone it was recorded from)."""
    audience = for_hand(audience, told.phone)
    asked = Verbosity.BRIEF if told.brief else Verbosity.COACHING if told.coached else Verbosity.NORMAL
    level = _level(asked, audience)
    table, step = told.table, told.step
    match told.line:
        case Line.EVENT:
            return _event_line(table, step, level, audience)
        case Line.RESOLVED:
            return describe_event(table, step.event, step.before, audience) + "."
        case Line.OVER:
            return GAME_OVER
        case Line.NOTHING:
            return NOTHING_TO_RESOLVE
        case Line.TURN | Line.DUTIES | Line.FACT | Line.ENDED:
            return _fact_told(told, level, audience)
        case _:  # pragma: no cover - mypy checks every line is named above
            assert_never(told.line)


def _fact_told(told: Told, level: Verbosity, audience: Audience) -> str:
    """The words of a line of one fact (`Told.fact`): the turn that began with its duties; the beginning-of-turn
    duties of a link; a fact at the level asked; how the game ended, "The game is over." on its own line."""
    table, step, fact = told.table, told.step, told.fact
    if told.line is Line.TURN and isinstance(fact, TurnBegan):
        name = player_name(table, fact.player)
        return turn_began(fact.turn, name, level is Verbosity.BRIEF, _turn_duties(table, step))
    if told.line is Line.DUTIES and isinstance(fact, LinkAdded):
        return begin_duties(table, fact.link)
    if fact is None:
        raise TypeError(f"a line of one fact with no fact: {told.line}")
    said = _fact_line(table, step, fact, level, audience)
    return said.removesuffix(f" {GAME_OVER}") if told.line is Line.ENDED else said


def _fact_segments(
    table: Table,
    told: Callable[[Line, Fact | None], Told],
    step: Step,
    fact: Fact,
    level: Verbosity,
    audience: Audience,
    at: int,
) -> tuple[Segment, ...]:
    """A fact's line as segments, with what they tell: a count its states; the game's end the winner (said before
    "The game is over.", which goes without saying on a display holding the win); a link of the chain its duty,
    with its words where the duty is held apart ("Effect chain: the effect of Unicorn Poison, played by Cy."). Its
    words, for `audience` at `level`, decide which segments there are; the segments keep the values (`told`)."""
    sentence = _fact_line(table, step, fact, level, audience)
    if not sentence:
        return ()
    if isinstance(fact, (TallyChanged, WinWaits)):
        seats = _changed(fact) if isinstance(fact, TallyChanged) else [fact.player]
        return (Segment(told(Line.FACT, fact), states=frozenset((Topic.COUNT, seat) for seat in seats)),)
    if isinstance(fact, GameOver) and sentence.endswith(f" {GAME_OVER}"):
        win = facts_of_step(table, step, at)
        # (the words of the win itself, when it is no goal reached: "Ana wins!" is said for a goal)
        own = bool(win) and (fact.outcome.ending is not Ending.GOAL or fact.outcome.winner is None)
        return (
            Segment(told(Line.ENDED, fact), win, part=Part.FACT if own else Part.SAID),
            Segment(told(Line.OVER, None), joined=True),
        )
    if isinstance(fact, LinkAdded) and level is not Verbosity.BRIEF and not any(t.kind.is_beginning for t in fact.link):
        duty = _duty(table, fact.link)
        words = chain_duty(table, fact.link)
        if duty is not None and words.rstrip(".").casefold() in sentence.casefold():  # its duty said whole in it
            link = ChainLink(fact.position, tuple(describe_trigger(table, t) for t in fact.link))
            return (Segment(told(Line.FACT, fact), repeats=(duty,), link=link),)  # (held apart, named by its link)
    return (Segment(told(Line.FACT, fact)),)


#: Where a fact's sentence goes in an announcement (lower first): the game's end, then the counts and a win
#: that waits, then the rest in order (3), then the prompt (4). A turn that begins leads by itself: nothing
#: comes before it in its step.
_FACT_RANKS: dict[type, int] = {GameOver: 0, TallyChanged: 2, WinWaits: 2, LimitReached: 2, CardMustGo: 2}


def _just_played(step: Step, prompt: Prompt) -> bool:
    """The card the pile asks about is the one the step's event just put on it (so it was just named)."""
    event, top = step.event, prompt.top
    return isinstance(event, (events.Play, events.Respond)) and top is not None and top.card == event.card


def facts_of_step(table: Table, step: Step, at: int = 0) -> tuple[About, ...]:
    """The decisive facts of a step, each short and typed (empty for none): the game's end; else the turn that began,
    with its beginning-of-turn duties; else the counts that changed (a card an effect moved, where no count
    changed), a duty or a win that waits, the chain's duty and its end: each short, to be heard between two keys.
    `at`: the step's place in the game's log."""
    for fact in step.facts:
        if isinstance(fact, GameOver):
            winner = fact.outcome.winner
            seats = () if winner is None else (winner,)
            name = "" if winner is None else player_name(table, winner)
            # (a goal reached: "Ana wins!", under a second, the count is in the reply; else its ending, "The game
            # is over." going without saying: `words.worded.words_for`)
            return (About(Topic.WIN, seats, name, source=fact, table=table, state=step.after),)
    for fact in step.facts:
        if isinstance(fact, TurnBegan):
            name = player_name(table, fact.player)
            duties = tuple(f.link for f in step.facts if isinstance(f, LinkAdded))
            turn = TurnOf(fact.turn, duties)  # (its words, with its duties; its brief form without: `words_for`)
            return (About(Topic.TURN, (fact.player,), name, source=turn, table=table),)
    said: list[About] = []
    for fact in step.facts:  # every count that changed, each with its player
        if isinstance(fact, TallyChanged):
            said += [_brief_count(table, seat, fact.after[seat]) for seat in _changed(fact)]
    if kind_of(step.event).effect and not said:  # (a count says what the move did, in a second)
        move = move_of_step(table, step, at)
        said += [move] if move is not None else []
    for fact in step.facts:
        if isinstance(fact, WinWaits):  # a count, with the win it brings
            name = player_name(table, fact.player)
            said.append(About(Topic.COUNT, (fact.player,), name, source=fact, table=table, state=step.after))
        elif isinstance(fact, (LimitReached, CardMustGo)):
            name = player_name(table, fact.player)
            said.append(About(Topic.DUTY, (fact.player,), name, source=fact, table=table, state=step.after))
    for fact in step.facts:  # the chain's duty, what its player must do now; and its end
        if isinstance(fact, LinkAdded) and not any(t.kind.is_beginning for t in fact.link):
            duty = _duty(table, fact.link)
            said += [duty] if duty is not None else []
        elif isinstance(fact, LinkResolved) and fact.next is None:
            said.append(About(Topic.CHAIN_DONE, source=fact, table=table, state=step.after))
    # A count that a later fact says again ("Ana has 3 Unicorns, enough to win ...") is said once.
    return tuple(unique(said))


def move_of_step(table: Table, step: Step, at: int = 0) -> About | None:
    """The move a step recorded, typed: its player, its kind, its card (whose it was, the card an Instant answered),
    the turn it was made in and its place `at` in the game's log (None for a step that is no one's move: the next
    phase, a deck set)."""
    event = step.event
    seat = getattr(event, "player", None)
    if isinstance(event, (events.NextPhase, events.EndTurn, events.Resolve)):
        seat = step.before.current if isinstance(event, events.EndTurn) else None
    if not isinstance(seat, int) or not 0 <= seat < len(table.setup.players):
        return None
    kind = EVENT_MOVES[event.KIND]
    card_id = getattr(event, "card", None)
    if isinstance(event, events.Respond) and card_id in (table.neigh_card, table.super_neigh_card):
        kind = MoveKind.NEIGH
    card = game_card_name(table, card_id) if isinstance(card_id, str) else ""
    owner = seat if isinstance(event, events.Sacrifice) else getattr(event, "owner", None)
    whose = player_name(table, owner) if isinstance(owner, int) and 0 <= owner < len(table.setup.players) else ""
    on = pile_card_name(table, step.before.pile[-1]) if isinstance(event, events.Respond) and step.before.pile else ""
    name = player_name(table, seat)
    # (its words made from its event in the state before it, never "say resolve ...": `words.worded.words_for`)
    turn = step.before.turn  # (a turn's end is of the turn it ends)
    return About(
        Topic.MOVE,
        (seat,),
        name,
        kind,
        card,
        owner=owner,
        whose=whose,
        on=on,
        at=at,
        turn=turn,
        event=event,
        table=table,
        state=step.before,
    )


def tells_of_step(table: Table, step: Step, at: int = 0) -> tuple[About, ...]:
    """What else a step's announcement tells, typed: its move (`move_of_step`), every count it changed (a win's
    count among them, said in "Ana wins with 4 Unicorns!") and what an Instant it resolved stopped."""
    move = move_of_step(table, step, at)
    counts = [
        _brief_count(table, seat, fact.after[seat])
        for fact in step.facts
        if isinstance(fact, TallyChanged)
        for seat in _changed(fact)
    ]
    stops = [_stopped(table, fact, at) for fact in step.facts if isinstance(fact, PileStopped)]
    return tuple([move, *counts, *stops] if move is not None else [*counts, *stops])


def _stopped(table: Table, fact: PileStopped, at: int) -> About:
    """What an Instant stopped, typed, with no words (a resolve is no one's move: no player; its reply says it)."""
    seat = fact.stopper.player
    card = game_card_name(table, fact.stopper.card)
    stopped = pile_card_name(table, fact.stopped)
    whose = player_name(table, seat)
    played = (fact.stopped.player, game_card_name(table, fact.stopped.card))
    return About(
        Topic.STOPPED,
        (seat,),
        move=MoveKind.STOP,
        card=card,
        owner=seat,
        whose=whose,
        on=stopped,
        at=at,
        stopped=played,
    )


def _changed(fact: TallyChanged) -> list[int]:
    return [seat for seat, (a, b) in enumerate(zip(fact.before, fact.after)) if a != b]


def _brief_count(table: Table, seat: int, count: int) -> About:
    """A count, about a second: "Ana 2 Unicorns." (no colon: its pause made the count half a second longer)."""
    name = player_name(table, seat)
    counts = Counted((name,), (count,), table.profile.vocabulary.creature)
    return About(Topic.COUNT, (seat,), name, source=counts, table=table)


def brief_counted(counts: Counted) -> str:
    """Counts, each about a second: "Ana 2 Unicorns. Ben 1 Unicorn."; with `Counted.has`, in one sentence, as an undo
    changed them: "Ana has 2 Unicorns and Ben has 1 Unicorn."."""
    if counts.has:
        said = [f"{name} has {counted(counts.noun, n)}" for name, n in zip(counts.names, counts.counts)]
        return f"{name_list(said)}."
    return " ".join(f"{name} {counted(counts.noun, n)}." for name, n in zip(counts.names, counts.counts))


def _duty(table: Table, link: Link) -> About | None:
    """The duty of a link of the chain, typed: what its player must do now (None when its cards say nothing)."""
    if not chain_duty(table, link):
        return None
    owner = link[0].owner if link else 0
    return About(Topic.DUTY, (owner,), player_name(table, owner), source=DutyOf(link), table=table)


def waiting_of(prompt: Prompt, level: Verbosity, form: PromptForm = PromptForm.PHRASED) -> Waiting:
    """What the table waits for, as asked at a level (`Waiting`)."""
    return Waiting(prompt, form, brief=level is Verbosity.BRIEF, coached=level is Verbosity.COACHING)


def waiting_said(table: Table, waiting: Waiting) -> str:
    """What the table waits for, in words ("" when the level says nothing of it): a link just read, how to go on; a
    link read before, when to say resolve; the card on the pile just named, the short question; else the prompt in
    full at its level (`phrase_prompt`)."""
    match waiting.form:
        case PromptForm.THEN_RESOLVE:
            return DO_IT_THEN_RESOLVE if waiting.coached else ""
        case PromptForm.WHEN_DONE:
            return "Say resolve when it is done." if waiting.coached else ""
        case PromptForm.ANSWER:
            return f"{neigh_name(table)}?"
        case PromptForm.PHRASED:
            level = Verbosity.BRIEF if waiting.brief else Verbosity.COACHING if waiting.coached else Verbosity.NORMAL
            return phrase_prompt(table, waiting.prompt, level)
        case _:  # pragma: no cover - mypy checks every form is named above
            assert_never(waiting.form)


def _turn_duties(table: Table, step: Step) -> str:
    """The beginning-of-turn duties the step's links hold, unnamed (`turn_duties`)."""
    return turn_duties(table, tuple(f.link for f in step.facts if isinstance(f, LinkAdded)))


def turn_duties(table: Table, links: tuple[Link, ...]) -> str:
    """The beginning-of-turn duties the links hold, unnamed, for after "Ben's turn:" ("" for none)."""
    duties = [begin_duties(table, link, named=False) for link in links]
    return "; ".join(d[:-1] for d in duties if d) + "." if any(duties) else ""


def chain_duty(table: Table, link: Link) -> str:
    """What a link of the chain asks to be done, its deed in about a second: "Destroy a Unicorn." (`duty_short`; ""
    when its cards say nothing)."""
    duties = []
    for trigger in link:
        card = table.cards.get(trigger.card) if trigger.kind is not TriggerKind.HERD else None
        about = {TriggerKind.ENTER: "enters", TriggerKind.LEAVE: LEAVING}.get(trigger.kind, "")
        duty = duty_short(card_gist(card, about)) if card is not None else ""
        if duty:
            duties.append(duty)
    return " ".join(duties)


def begin_duties(table: Table, link: Link, named: bool = True) -> str:
    """The beginning-of-turn effects of a link, short: "Ben must do Sadistic Ritual; may use the Blue Herd Bonus."
    (`named` False: without the player's name, for after "Ben's turn:"; "" when the link holds none; what "may
    use" offers is lost once the Draw phase begins)."""
    owner = link[0].owner if link else 0
    must = [game_card_name(table, t.card) for t in link if t.kind is TriggerKind.BEGIN]
    may = [
        herd_bonus_name(t.card) if t.kind is TriggerKind.HERD else game_card_name(table, t.card)
        for t in link
        if t.kind in (TriggerKind.BEGIN_OPTIONAL, TriggerKind.HERD)
    ]
    parts = ([f"must do {name_list(must)}"] if must else []) + ([f"may use {name_list(may)}"] if may else [])
    said = "; ".join(parts)
    return "" if not parts else f"{player_name(table, owner)} {said}." if named else f"{said}."


def _brief_tally(table: Table, fact: TallyChanged) -> str:
    """The counts that changed, each with its player, about a second each: "Ana 2 Unicorns."."""
    seats = _changed(fact)
    names = tuple(player_name(table, seat) for seat in seats)
    return brief_counted(Counted(names, tuple(fact.after[seat] for seat in seats), table.profile.vocabulary.creature))


def _waited(table: Table, step: Step, prompt: Prompt) -> bool:
    """True when the step was done while the prompt's link waited: the same link was up before it, and no link
    was added or resolved (asked only for a chain prompt, so other steps do not work out the prompt before)."""
    if any(isinstance(f, (LinkAdded, LinkResolved)) for f in step.facts):
        return False
    before = table.prompt(step.before)
    return before.kind is PromptKind.CHAIN and before.link == prompt.link


def _event_line(table: Table, step: Step, level: Verbosity, audience: Audience) -> str:
    event = step.event
    if level is Verbosity.BRIEF and isinstance(event, (events.Play, events.Respond)):
        into = event.into if isinstance(event, events.Play) else None
        elsewhere = f" into {area_of(table, into)}" if into not in (None, event.player) else ""
        card = short_card_name(game_card_name(table, event.card), (c.name for c in table.cards))
        whose = (
            ""
            if isinstance(event, events.Play) and event.player == step.before.current
            else f"{player_name(table, event.player)}: "
        )
        return end_with(f"{whose}{card}{elsewhere}")
    return end_with(describe_event(table, event, step.before, audience))


def _fact_line(table: Table, step: Step, fact: Fact, level: Verbosity, audience: Audience) -> str:
    """One fact at the level asked (the beginning-of-turn effects are said by their own lines: `begin_duties`,
    `herd_bonuses_said`); links of the chain have their own words."""
    if isinstance(fact, PhaseBegan) and fact.phase is Phase.END:
        if any(isinstance(f, OverHandLimit) for f in step.facts):
            return f"{PHASE_NAMES[fact.phase]}."
    if isinstance(fact, TallyChanged) and _won_with(step, fact):
        return ""  # "Ana wins with 7 Unicorns!" said the count
    if level is Verbosity.BRIEF:
        brief = _brief_fact(table, step, fact)
        if brief is not None:
            return brief
    elif level is Verbosity.NORMAL and isinstance(fact, PlayResolved) and _counted(step, fact):
        return ""  # its owner's count, said first, is the outcome: the card was named when it was played
    elif isinstance(fact, LinkAdded):
        return chain_link_added(fact.position, describe_link_doing(table, fact.link))
    return describe_fact(table, fact, step.after, is_coached(audience))


def _counted(step: Step, fact: PlayResolved) -> bool:
    """The card entered the Stable of a player whose count the step changed (so the count, said first, says it)."""
    into = fact.card.into
    return into is not None and any(isinstance(f, TallyChanged) and f.before[into] != f.after[into] for f in step.facts)


def _won_with(step: Step, fact: TallyChanged) -> bool:
    """The step ended the game by a goal, and the winner's is the only count it changed."""
    over = [f.outcome for f in step.facts if isinstance(f, GameOver) and f.outcome.ending is Ending.GOAL]
    changed = {seat for seat, (a, b) in enumerate(zip(fact.before, fact.after)) if a != b}
    return bool(over) and changed == {over[0].winner}


def _brief_fact(table: Table, step: Step, fact: Fact) -> str | None:
    """The facts-only form of a fact, or None where the usual sentence is already short."""
    if isinstance(fact, PileStopped) and fact.played and not fact.taken:
        stopped = "Neighed" if table.neigh_card else "Stopped"
        return f"{stopped}: {pile_card_name(table, fact.stopped)}."  # the outcome alone; the Neigh was just named
    if isinstance(fact, PhaseBegan) and isinstance(step.event, events.Draw):
        return ""  # "Ana drew a card.": the phase that follows is on the status line
    if isinstance(fact, PlayResolved):
        if _counted(step, fact):
            return ""  # "Ana: 2 Unicorns.", said first, is the outcome: the card was named when it was played
        played, card = fact.card, table.cards.get(fact.card.card)
        name = f"{player_name(table, played.player)}: {game_card_name(table, played.card)}"
        magic = card is not None and card.type is CardType.MAGIC
        answered = any(isinstance(f, PileStopped) for f in step.facts)
        outcome = "stands" if answered else f"no {neigh_name(table)}"
        return f"{name}, {outcome}{', takes effect' if magic else ''}."
    if isinstance(fact, TallyChanged):  # said first, so each count names its player
        return _brief_tally(table, fact)
    if isinstance(fact, LinkAdded):
        return f"Chain: {link_names(table, fact.link)}."
    if isinstance(fact, LinkResolved):
        return "Chain done." if fact.next is None else ""
    return None


def _level(level: Verbosity, audience: Audience) -> Verbosity:
    """The level an audience's words are said at: the phones' at the normal level; the laptop's words of a phone's
    move at hers, but coaching said as normal (what to type is hers to type, and that move's next step is the
    mover's); the laptop's own at hers."""
    if audience is Audience.OTHER_PHONE or audience is Audience.OWN_PHONE:
        return Verbosity.NORMAL
    if not is_coached(audience) and level is Verbosity.COACHING:
        return Verbosity.NORMAL
    return level

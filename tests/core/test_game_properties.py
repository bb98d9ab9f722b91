"""Property tests of the game log (hypothesis): random event sequences, undone, redone, saved, replayed, cut off.

Events are drawn at random — legal or not, since the table is the authority and `apply` must take anything
well-formed — over a handful of cards chosen so that they meet often (the same card played, stolen, destroyed).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.core.game.checks import check
from assistant.core.game.events import (
    EVENT_TYPES,
    SKIPPABLE,
    BanInstants,
    Bring,
    CannotWin,
    DeckEmpty,
    Destroy,
    Discard,
    Draw,
    EndTurn,
    Gathered,
    GiveCard,
    Move,
    NextPhase,
    Play,
    Reshuffle,
    Resolve,
    Respond,
    ReturnToHand,
    Sacrifice,
    Save,
    SetDeck,
    SetGoal,
    SetHand,
    SkipPhase,
    SkipTurn,
    Source,
    Steal,
    Swap,
    SwapHands,
    Take,
    ToDeck,
    ToDiscard,
    ToNursery,
    UseEffect,
    event_from_dict,
)  # fmt: skip
from assistant.core.game.history import Game, Setup
from assistant.core.words.announce import announce_said
from assistant.core.words.audience import Audience
from assistant.core.words.position import describe_stable, describe_tally, describe_turn
from assistant.core.words.rulings import describe_objection
from assistant.core.words.worded import segment_words
from assistant.session import Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import GameStore

CARDS = load_card_set("uu-2nd")
CARD_IDS = [
    "basic-unicorn-red", "ginormous-unicorn", "pandamonium", "rainbow-aura", "yay", "slowdown", "neigh",
    "super-neigh", "baby-unicorn-red", "claw-machine", "sadistic-ritual", "rainbow-unicorn", "stabby-the-unicorn",
    "unicorn-poison", "double-dutch",
]  # fmt: skip
PROFILES = ["uu-current", "uu-first", "uu-five", "uu-nsfw", "llamas"]
NAMES = ["Ana", "Ben", "Cy", "Dee"]
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DISK = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def event_strategies(players: int) -> dict[type, st.SearchStrategy]:
    """A strategy for each kind of event (a test checks every kind has one)."""
    seat = st.integers(0, players - 1)
    card = st.sampled_from(CARD_IDS)
    return {
        Play: st.builds(Play, seat, card, st.one_of(st.none(), seat)),
        Respond: st.builds(Respond, seat, st.sampled_from(["neigh", "super-neigh"])),
        Resolve: st.just(Resolve()),
        Bring: st.builds(Bring, seat, card, seat, st.sampled_from(list(Source))),
        Steal: st.builds(Steal, seat, card, seat),
        Destroy: st.builds(Destroy, seat, card, seat),
        Sacrifice: st.builds(Sacrifice, seat, card),
        Save: st.builds(Save, seat, card, card),
        Discard: st.builds(Discard, seat, st.one_of(st.none(), card)),
        ReturnToHand: st.builds(ReturnToHand, seat, card, seat),
        Draw: st.builds(Draw, seat, st.integers(0, 3)),
        Take: st.builds(Take, seat, card, st.sampled_from([Source.DECK, Source.DISCARD])),
        Swap: st.builds(Swap, seat, card, seat, card, seat),
        SwapHands: st.builds(SwapHands, seat, seat),
        Move: st.builds(Move, seat, card, seat, seat),
        ToNursery: st.builds(ToNursery, seat, st.just("baby-unicorn-red"), seat),
        NextPhase: st.builds(NextPhase, st.booleans()),
        EndTurn: st.builds(EndTurn, st.one_of(st.none(), seat)),
        SetHand: st.builds(SetHand, seat, st.integers(0, 9)),
        SetDeck: st.builds(SetDeck, st.integers(0, 4)),
        DeckEmpty: st.just(DeckEmpty()),
        Reshuffle: st.just(Reshuffle()),
        SetGoal: st.builds(SetGoal, st.integers(1, 8), st.one_of(st.none(), seat)),
        CannotWin: st.builds(CannotWin, seat, st.booleans()),
        SkipTurn: st.builds(SkipTurn, seat),
        SkipPhase: st.builds(SkipPhase, st.sampled_from(list(SKIPPABLE))),
        GiveCard: st.builds(GiveCard, seat, seat, st.one_of(st.none(), card)),
        BanInstants: st.just(BanInstants()),
        UseEffect: st.builds(UseEffect, seat, card),
        ToDiscard: st.builds(ToDiscard, seat, card, seat),
        ToDeck: st.builds(
            ToDeck, seat, st.sampled_from(list(Gathered)), st.one_of(st.none(), card), st.one_of(st.none(), seat)
        ),
    }


def event_strategy(players: int):
    strategies = event_strategies(players)
    return st.one_of(*strategies.values(), strategies[Resolve])  # resolve twice as often: piles and chains close


def test_every_kind_of_event_has_a_strategy():
    assert set(event_strategies(2)) == set(EVENT_TYPES.values())


@st.composite
def games(draw, max_events: int = 30):
    players = draw(st.integers(2, 4))
    setup = Setup(
        players=tuple(NAMES[:players]),
        profile=draw(st.sampled_from(PROFILES)),
        first=draw(st.integers(0, players - 1)),
        hands=draw(st.booleans()),
        babies=draw(st.sampled_from([(), ("baby-unicorn-red", "baby-unicorn-pink", "baby-narwhal", "")[:players]])),
    )
    events = draw(st.lists(event_strategy(players), max_size=max_events))
    return setup, events


@st.composite
def sessions(draw):
    """A setup and operations: events, undos and redos, in any order."""
    setup, events = draw(games(max_events=25))
    ops = [("event", e) for e in events]
    undo_points = draw(st.lists(st.integers(0, len(ops)), max_size=6))
    for point in sorted(undo_points, reverse=True):
        ops.insert(point, (draw(st.sampled_from(["undo", "redo"])), None))
    return setup, ops


def new_game(setup: Setup) -> Game:
    return Game.new(setup, CARDS)


@FAST
@given(games())
def test_undo_all_returns_the_initial_state(game_and_events):
    setup, events = game_and_events
    game = new_game(setup)
    for event in events:
        game.check(event)  # checking never fails, whatever the event
        game.push(event)
    for _ in events:
        game.pop()
    assert game.state == game.state_before(0)
    assert game.log == [] and game.undone == list(reversed(events))


@FAST
@given(games(), st.data())
def test_undo_n_then_redo_n_is_the_identity(game_and_events, data):
    setup, events = game_and_events
    game = new_game(setup)
    states = [game.state]
    for event in events:
        game.push(event)
        states.append(game.state)
    n = data.draw(st.integers(0, len(events)))
    for _ in range(n):
        game.pop()
    assert game.state == states[len(events) - n]
    for _ in range(n):
        game.redo()
    assert game.state == states[-1]
    assert game.log == events


@FAST
@given(games())
def test_every_step_can_be_announced_and_every_event_read_back(game_and_events):
    setup, events = game_and_events
    game = new_game(setup)
    table = game.table
    for event in events:
        assert event_from_dict(event.to_dict(), len(setup.players), CARDS.by_id) == event
        step = game.push(event)
        lines = [segment_words(segment, Audience.TABLE) for segment in announce_said(table, step)]
        assert lines and all(isinstance(line, str) and line for line in lines)
        assert describe_turn(table, step.after)
        for objection in check(table, step.after, event):
            assert describe_objection(table, objection)
    assert describe_tally(table, game.state)
    for seat in range(len(setup.players)):
        assert describe_stable(table, game.state, seat)


def run_ops(tracker: Session, ops) -> list[int]:
    """Apply the operations as the tracker does live; return the save's byte size after each one."""
    for kind, event in ops:
        if kind == "event":
            tracker.lobby.talk.record(event)
        else:
            tracker.handle(kind)


def start_tracker(folder: Path, setup: Setup) -> Session:
    tracker = Session(CARDS, store=GameStore(folder))
    names = " ".join(setup.players)
    babies = " ".join(b.split("-")[-1] for b in setup.babies if b) if setup.babies and all(setup.babies) else ""
    line = f"new game {names} rules {setup.profile}" + (f" babies {babies}" if babies else "")
    tracker.handle(line)
    assert tracker.game is not None, line
    return tracker


@DISK
@given(sessions())
def test_replaying_the_saved_log_equals_the_live_game(session_ops):
    setup, ops = session_ops
    with tempfile.TemporaryDirectory() as folder:
        live = start_tracker(Path(folder), setup)
        run_ops(live, ops)
        resumed = Session(CARDS, store=GameStore(Path(folder)))
        said = resumed.resume_game()
        assert said.lines[-1].startswith("Continuing")
        assert resumed.game.state == live.game.state
        assert resumed.game.log == live.game.log
        assert resumed.game.undone == live.game.undone


@DISK
@given(sessions(), st.data())
def test_a_crash_between_or_during_writes_loses_nothing_announced(session_ops, data):
    """Stop after any number of operations — the process dying with the next line half written — and resume:
    everything announced is there, and nothing more."""
    setup, ops = session_ops
    stop = data.draw(st.integers(0, len(ops)))
    with tempfile.TemporaryDirectory() as folder:
        live = start_tracker(Path(folder), setup)
        run_ops(live, ops[:stop])
        announced_state, announced_log = live.game.state, list(live.game.log)
        path = GameStore(Path(folder)).last_path()
        if stop < len(ops):  # the next record, cut off part of the way through its line
            size = path.stat().st_size
            run_ops(live, ops[stop : stop + 1])
            grown = path.read_bytes()
            if len(grown) > size:
                cut = data.draw(st.integers(size, len(grown) - 1))
                path.write_bytes(grown[:cut])
        resumed = Session(CARDS, store=GameStore(Path(folder)))
        resumed.resume_game()
        assert resumed.game.state == announced_state
        assert resumed.game.log == announced_log

"""The phone's own wording, over every kind of move: every move a phone can make (each row of `PHONE_VERBS`) made on
the real sharing server, and every kind of event a phone can be shown, in the words of the phone of its player
("You drew a card."), never how to say a move ("say ...", the laptop's coaching) nor "Ben, from a phone:" on Ben's
own phone. Meaning is carried as typed values (`About.event`, worded for each phone by `words.worded.words_for`), never
rewritten English."""

from __future__ import annotations

import re
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from test_share_server import Table, move, run, said, shared_table

from assistant.core.game import events
from assistant.core.game.events import Event, Gathered, Phase
from assistant.core.language.device import PHONE_VERBS
from assistant.core.words.audience import Audience
from assistant.core.words.kinds import describe_event, kind_of, own_move
from assistant.core.words.worded import segment_words
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.facts import fact

#: How to say a move: the laptop's words, never a phone's.
SAY = re.compile(r"\bsay\b", re.IGNORECASE)

#: For each phone verb: lines typed on the laptop first (yes answers their warnings), then Ben's phone's moves (its
#: warnings answered yes on the phone): one game each, so every verb is made and shown for real.
SETUPS: dict[str, tuple[tuple[str, ...], tuple[dict[str, Any], ...]]] = {
    "draw": (("draw", "end turn"), ({"verb": "draw"},)),
    "resolve": (("draw", "play rainbow aura"), ({"verb": "resolve", "on": "rainbow-aura"},)),
    "neigh": (("draw", "play rainbow aura"), ({"verb": "neigh", "on": "rainbow-aura"}, {"verb": "resolve"})),
    "super-neigh": (("draw", "play rainbow aura"), ({"verb": "super-neigh", "on": "rainbow-aura"},)),
    "instant": (("draw", "play rainbow aura"), ({"verb": "instant", "card": "neigh", "on": "rainbow-aura"},)),
    "play": (("draw", "end turn"), ({"verb": "draw"}, {"verb": "play", "card": "basic-unicorn-blue"})),
    "end": (("draw", "end turn"), ({"verb": "draw"}, {"verb": "end"})),
    "destroy": (("bring basic red into Ana",), ({"verb": "destroy", "card": "basic-unicorn-red", "target": "Ana"},)),
    "sacrifice": (("bring basic red into Ben",), ({"verb": "sacrifice", "card": "basic-unicorn-red"},)),
    "steal": (("bring basic red into Ana",), ({"verb": "steal", "card": "basic-unicorn-red", "target": "Ana"},)),
    "return": (("bring basic red into Ana",), ({"verb": "return", "card": "basic-unicorn-red", "target": "Ana"},)),
    "discard": ((), ({"verb": "discard"},)),
    "bring": ((), ({"verb": "bring", "card": "basic-unicorn-red", "target": "Ben"},)),
    "undo": (("draw", "end turn"), ({"verb": "draw"}, {"verb": "undo"})),
    "read": ((), ({"verb": "read", "card": "rainbow-aura"},)),
}


def texts(value: Any) -> list[str]:
    """Every string in a JSON value (a view, an answer): all a phone may show."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in texts(item)]
    if isinstance(value, list):
        return [text for item in value for text in texts(item)]
    return []


def laptop_only(shown: list[str]) -> list[str]:
    """What a phone shows that is the laptop's: how to say a move, or any player's move "from a phone" (before, every
    phone but the mover's showed "Ben, from a phone: ..." of a resolve or an undo)."""
    return [text for text in shown if SAY.search(text) or ", from a phone" in text]


def test_every_phone_verb_has_a_game_of_its_own_here():
    assert set(SETUPS) == {verb.name for verb in PHONE_VERBS}


@pytest.mark.parametrize("verb", [verb.name for verb in PHONE_VERBS])
def test_every_move_a_phone_makes_is_shown_in_the_phones_own_words(tmp_path, verb):
    """Before, Ben's phone showed "Ben, from a phone: ended the turn." of its own turn's end, "Ben ended the turn."
    where it said "You ..." of eight kinds only, and a chain's "say destroy and the card"."""
    typed, moves = SETUPS[verb]

    async def scenario() -> None:
        async with shared_table(tmp_path) as table, table.phone() as cy:
            for line in typed:
                reply = table.session.handle(line)
                table.share.after(table.session.handle("yes") if reply.pending is not None else reply)
            csrf = await table.join("Ben")
            await cy.join("Cy")
            shown: dict[str, list[str]] = {"Ben": [], "Cy": []}
            for n, body in enumerate(moves):
                status, answer, _ = await table.post("/api/move", move(key=f"key-words-{verb}-{n}", **body), csrf)
                assert status in (200, 409), answer
                shown["Ben"] += texts(answer)
                if answer.get("status") == "warning":  # answered on the phone: the move recorded
                    yes = {"key": f"key-words-{verb}-{n}-yes", "question": answer["question"], "answer": "yes"}
                    status, answer, _ = await table.post("/api/answer", yes, csrf)
                    shown["Ben"] += texts(answer)
                for phone, player in ((table, "Ben"), (cy, "Cy")):
                    status, view, _ = await phone.get("/api/state")
                    assert status == 200 and view["game"] is not None, view
                    shown[player] += texts(view)
            last = await _last(table)
            assert last or verb == "read", "the move was shown"  # (a card read is said and kept nowhere)
            assert not laptop_only(shown["Ben"]), shown["Ben"]
            assert not laptop_only(shown["Cy"]), shown["Cy"]
            if verb not in ("read", "resolve", "undo"):  # (nothing said; a resolve is nobody's move; an undo's)
                assert any(line.startswith("You ") for line in last), last

    run(scenario())


async def _last(table: Table) -> list[str]:
    status, view, _ = await table.get("/api/state")
    return said(view)


def test_a_turn_ended_from_a_phone_is_you_on_that_phone_and_named_on_the_others(tmp_path):
    """Before, "Ben, from a phone: ended the turn. ..." was kept for every phone; Ben's own now reads "You ended
    your turn.", the others who ended it."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table, table.phone() as cy:
            for line in ("draw", "end turn"):
                table.share.after(table.session.handle(line))
            csrf = await table.join("Ben")
            await cy.join("Cy")
            for n, verb in enumerate(("draw", "end")):
                status, body, _ = await table.post("/api/move", move(verb, f"key-end-turn-{n}"), csrf)
                assert status == 200 and body["status"] == "recorded", body
            mine, theirs = await _last(table), await _last(cy)
            assert "You ended your turn." in mine and not any(line.startswith("Ben") for line in mine[-2:]), mine
            assert any(line.startswith("Ben") and "turn" in line for line in theirs[-2:]), theirs

    run(scenario())


# Every kind of event, in the words of its own player's phone and of the others'.

SESSION = Session(load_card_set())
SESSION.handle("new game Ana Ben babies red pink")
TABLE = SESSION.game.table
STATE = SESSION.game.state
#: One event of each kind, Ana's (seat 0) where it has a player, on Ben's cards (seat 1) where it takes one.
SAMPLES: dict[type[Event], Event] = {
    events.Play: events.Play(0, "yay", into=1),
    events.Respond: events.Respond(0, "neigh"),
    events.Resolve: events.Resolve(),
    events.Bring: events.Bring(0, "basic-unicorn-red", 0, events.Source.DISCARD),
    events.Steal: events.Steal(0, "basic-unicorn-red", 1),
    events.Destroy: events.Destroy(0, "basic-unicorn-red", 1),
    events.Sacrifice: events.Sacrifice(0, "basic-unicorn-red"),
    events.Save: events.Save(0, "basic-unicorn-red", "black-knight-unicorn"),
    events.Discard: events.Discard(0, "yay"),
    events.ReturnToHand: events.ReturnToHand(0, "basic-unicorn-red", 1),
    events.ToDiscard: events.ToDiscard(0, "basic-unicorn-red", 1),
    events.Draw: events.Draw(0, 2),
    events.Take: events.Take(0, "yay"),
    events.Swap: events.Swap(0, "basic-unicorn-red", 0, "basic-unicorn-blue", 1),
    events.SwapHands: events.SwapHands(0, 1),
    events.Move: events.Move(0, "basic-unicorn-red", 1, 0),
    events.ToNursery: events.ToNursery(0, "basic-unicorn-red", 1),
    events.NextPhase: events.NextPhase(),
    events.EndTurn: events.EndTurn(),
    events.SetHand: events.SetHand(0, 4),
    events.SetDeck: events.SetDeck(40),
    events.DeckEmpty: events.DeckEmpty(),
    events.Reshuffle: events.Reshuffle(),
    events.ToDeck: events.ToDeck(0, Gathered.HAND),
    events.SetGoal: events.SetGoal(6, 0),
    events.CannotWin: events.CannotWin(0),
    events.SkipTurn: events.SkipTurn(0),
    events.SkipPhase: events.SkipPhase(Phase.DRAW),
    events.GiveCard: events.GiveCard(0, 1, "yay"),
    events.BanInstants: events.BanInstants(),
    events.UseEffect: events.UseEffect(0, "rainbow-aura"),
}
#: More of a kind where its player's phone says it in more than one way (one sample each, so a case of `own_move`
#: taken out is missed here).
MORE: tuple[Event, ...] = (
    events.Respond(0, "super-neigh"),
    events.Play(0, "yay", targets=(1,)),
    events.EndTurn(to=1),
    events.ToDeck(0, Gathered.STABLE),
    events.ToDeck(0, Gathered.CARD, "yay"),
    events.ToDeck(0, Gathered.CARD, "basic-unicorn-red", 1),
    events.CannotWin(0, barred=False),
    events.GiveCard(0, 1),
)
#: The kinds that are no player's move (`Kind.own` of their kind): every phone shows the table's words of them.
NOBODYS = {kind for kind, event in SAMPLES.items() if not kind_of(event).own}


def test_every_kind_of_event_has_a_sample_here():
    def kinds(of: type[Event]) -> set[type[Event]]:
        return {kind for sub in of.__subclasses__() for kind in {sub, *kinds(sub)}}

    assert kinds(Event) == set(SAMPLES)


def test_each_case_of_a_players_own_move_has_its_own_words():
    """A case of `own_move` taken out falls to another case (a whole Stable into the deck said as one card from the
    hand) or to none: two samples then share their words, or one has none."""
    seat = {events.EndTurn: 0}
    said = [own_move(TABLE, event, seat.get(type(event))) for event in [*SAMPLES.values(), *MORE]]
    said = [words for words in said if words]
    assert len(said) == len(set(said)) == len(SAMPLES) - len(NOBODYS) + len(MORE), said


def test_the_kinds_that_are_no_players_move():
    assert NOBODYS == {events.Resolve, events.NextPhase, events.SetDeck, events.DeckEmpty, events.Reshuffle,
                       events.SkipPhase, events.BanInstants}  # fmt: skip


@pytest.mark.parametrize("event", [*SAMPLES.values(), *MORE], ids=lambda event: type(event).__name__)
def test_every_kind_of_event_is_in_the_phones_words(event):
    """Before, a phone showed the table's words of every kind but eight: "Ana uses the effect of Rainbow Aura: say
    resolve when it is done." even on Ana's own phone. Every case of `own_move` has a sample (`MORE`), and whether a
    kind is a player's own move is its row of `words.kinds.KINDS`: a case taken out gives "" and fails here."""
    kind = type(event)
    seat = 0 if isinstance(event, events.EndTurn) else getattr(event, "player", None)
    own = own_move(TABLE, event, seat) if isinstance(seat, int) else own_move(TABLE, event)
    others = describe_event(TABLE, event, STATE, Audience.OTHER_PHONE)
    assert not SAY.search(others), others
    if kind in NOBODYS:
        assert own == ""
        return
    assert own.startswith(("You ", "Your ")) and own.endswith("."), own
    assert "Ana" not in own and not SAY.search(own), own  # second person: never its own player's name


def test_moves_said_as_one_sentence_have_the_phones_own_words_too():
    from assistant.core.game.about import MoveKind, Topic
    from assistant.core.words.pace import merge_moves
    from assistant.core.words.worded import words_for

    draw = fact(Topic.MOVE, "Ben drew a card.", 1, player="Ben", move=MoveKind.DRAW, at=1)
    own = "Ben destroyed their own Basic Unicorn (Red)."
    took = fact(Topic.MOVE, own, 1, move=MoveKind.DESTROY, card="Basic Unicorn (Red)", owner=1, whose="Ben", at=2)
    (merged,) = merge_moves([draw, took])
    assert words_for(merged, Audience.TABLE) == "Ben drew a card and destroyed their own Basic Unicorn (Red)."
    assert words_for(merged, Audience.OWN_PHONE) == "You drew a card and destroyed your own Basic Unicorn (Red)."


# A whole game of each edition, every phone watching.

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
#: Each edition's whole game (its file, its decks, the Babies of the game the table starts with), and the winner.
WHOLE_GAMES = {
    "llamas": ("llamas_game.txt", ("llamas", ["llamas-farmed"]), "alpaca llama goat ram", "Ana wins"),
    "unicorns": ("unicorns_four_game.txt", ("uu-2nd", []), "red pink narwhal yellow", "Ben wins"),
}


@pytest.mark.parametrize("edition", list(WHOLE_GAMES))
def test_no_phone_shows_the_laptops_words_in_a_whole_game(tmp_path, edition):
    """Each edition's whole game played to the win, with Ben's, Cy's and Dee's phones on the table and every resolve
    tapped on Cy's phone (a resolve is no one's move): at every step, no phone shows how to say a move nor a move
    "from a phone". Before, Cy's phone showed "Cy destroys an Animal card in Dee's Field; say destroy and the card."
    (the laptop's coaching) when she resolved her Surprise Emu Attack in Llamas Unleashed: the moving phone's
    answer carried the laptop's lines."""
    from assistant.commands.app import braille_resolver

    name, (base, addons), babies, winner = WHOLE_GAMES[edition]
    lines = [line for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines() if line.strip()]

    async def scenario() -> None:
        cards = load_card_set(base, addons)
        async with shared_table(tmp_path, "Ana Ben Cy Dee", babies, cards) as table, AsyncExitStack() as stack:
            table.session.use_cards(cards, braille_resolver(cards))  # the app's resolver: "m alpacacorn"
            table.session.load_cards = load_card_set
            phones = {}
            for player in ("Ben", "Cy", "Dee"):
                phone = await stack.enter_async_context(table.phone())
                phones[player] = (phone, await phone.join(player))
            reply = table.session.handle(lines[0])  # a game in progress: asked first
            table.share.after(table.session.handle("yes") if reply.pending is not None else reply)
            assert table.session.game.table.setup.players == ("Ana", "Ben", "Cy", "Dee")
            shown: list[str] = []
            cy, csrf = phones["Cy"]
            for n, line in enumerate(lines[1:], 1):
                if line == "resolve":
                    table.clock.now += 5  # (the test's clock: a player's moves are limited per second)
                    status, answer, _ = await cy.post("/api/move", move("resolve", f"key-whole-{n}"), csrf)
                    shown += texts(answer)
                    if answer.get("status") == "warning":
                        yes = {"key": f"key-whole-{n}-yes", "question": answer["question"], "answer": "yes"}
                        status, answer, _ = await cy.post("/api/answer", yes, csrf)
                        shown += texts(answer)
                    assert status == 200 and answer["status"] == "recorded", (line, answer)
                else:
                    table.share.after(table.session.handle(line))
                for phone, _ in phones.values():
                    status, view, _ = await phone.get("/api/state")
                    assert status == 200, view
                    shown += texts(view)
            assert any(text.startswith(winner) for text in shown), "the game was played to the win"
            assert not laptop_only(shown), sorted(set(laptop_only(shown)))

    run(scenario())


def test_a_moves_fact_never_says_how_to_say_the_next_move_though_the_laptops_line_does():
    """A move's typed fact carries one set of words, never coaching (`About.text`): it is said again folded, in a
    digest and on the phones, where "say resolve when it is done" is no help; the laptop's own line of the move still
    coaches. Before, the fact kept the coached words and the phones' words beside them (`About.phone`)."""
    from assistant.core.game.history import Step
    from assistant.core.words.announce import announce_said, move_of_step
    from assistant.core.words.worded import words_for

    step = Step(events.UseEffect(0, "rainbow-aura"), STATE, STATE)
    move = move_of_step(TABLE, step, at=1)
    assert move is not None and words_for(move, Audience.TABLE) == "Ana uses the effect of Rainbow Aura.", move
    assert all(not SAY.search(words_for(move, audience)) for audience in Audience)
    lines = [
        segment_words(segment, Audience.TABLE) for segment in announce_said(TABLE, step, at=1) if move in segment.about
    ]
    assert lines == ["Ana uses the effect of Rainbow Aura: say resolve when it is done."], lines


@pytest.mark.parametrize("event", [*SAMPLES.values(), *MORE], ids=lambda event: type(event).__name__)
def test_a_moves_fact_is_worded_on_its_own_phone_as_its_event_was(event):
    """A move's fact carries its event, and its own player's phone words it from that (`words_for`,
    `Audience.OWN_PHONE`) as `About.own` did before: the event's own words for the seat that made the move (who
    ended the turn, for a turn's end), else the table's. A fact that lost its event, or worded for another seat,
    fails here."""
    from assistant.core.game.history import Step
    from assistant.core.words.announce import move_of_step
    from assistant.core.words.worded import words_for

    fact = move_of_step(TABLE, Step(event, STATE, STATE), at=1)
    if fact is None:  # (no one's move: nothing of a player's own to word)
        assert kind_of(event).own is False or not isinstance(getattr(event, "player", 0), int), event
        return
    seat = STATE.current if isinstance(event, events.EndTurn) else event.player
    before = own_move(TABLE, event, seat) or fact.text
    assert words_for(fact, Audience.OWN_PHONE, TABLE) == before
    assert fact.event == event and (kind_of(event).own is False or before.startswith(("You ", "Your "))), before


def test_every_kind_of_move_a_player_makes_has_a_fact_worded_on_its_own_phone():
    from assistant.core.game.about import MoveKind
    from assistant.core.game.history import Step
    from assistant.core.words.announce import move_of_step
    from assistant.core.words.kinds import KINDS

    facts = [move_of_step(TABLE, Step(event, STATE, STATE), at=1) for event in [*SAMPLES.values(), *MORE]]
    kinds = {fact.move for fact in facts if fact is not None and fact.event is not None}
    # (a Neigh is recorded as a response; an Instant other than a Neigh: none in this deck, its words a Neigh's)
    assert kinds | {MoveKind.INSTANT} == {kind for kind, row in KINDS.items() if row.events and row.own} | {
        MoveKind.NEIGH
    }

"""A move from a device (a phone on the shared table) is the command a typed line would have been: the same event,
recorded by the same conversation, with the actor always the device's player. Each device's question is its own:
it never replaces the keyboard's, lapses when the table changes, and an undo from a device takes back only its
player's own last move."""

from __future__ import annotations

import errno
import os

import pytest

from assistant.core.language.device import MOST_DRAWN, DeviceMove, DeviceMoveError, command_for, may_do, read_move
from assistant.core.language.reply import Question
from assistant.core.words.errors import save_failed
from assistant.core.words.recorded import last_moves
from assistant.core.words.share import (
    ACTOR_NOT_YOURS,
    CARD_NEEDED,
    QUESTION_LAPSED,
    UNDO_NOT_YOURS,
    UNKNOWN_VERB,
    LastMove,
    bad_field,
    from_phone,
    stale_stable,
)
from assistant.core.words.storage import DISK_FULL
from assistant.session import Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import GameStore
from tests.core.talking import asks
from tests.facts import fact

CARDS = load_card_set()
NEW_GAME = "new game Ana Ben Cy babies red pink orange"


def game_after(lines: list[str]) -> Session:
    session = Session(CARDS)
    for line in [NEW_GAME, *lines]:
        session.handle(line)
    return session


# (the lines before, the device's player and move, the same move typed)
SAME_AS_TYPED = [
    ([], "Ana", DeviceMove("draw"), "draw"),
    (["draw"], "Ana", DeviceMove("play", card="rainbow-aura"), "play rainbow aura"),
    (["draw"], "Ana", DeviceMove("play", card="slowdown", target="Ben"), "play slowdown into Ben"),
    (["draw", "play rainbow aura"], "Ben", DeviceMove("neigh", on="rainbow-aura"), "neigh Ben"),
    (["draw", "play rainbow aura"], "Cy", DeviceMove("super-neigh"), "super neigh Cy"),
    (["draw", "play rainbow aura"], "Ben", DeviceMove("instant", card="neigh"), "Ben play neigh"),
    (["draw", "play rainbow aura"], "Cy", DeviceMove("resolve", on="rainbow-aura"), "resolve"),
    (["draw"], "Ana", DeviceMove("end"), "end turn"),
    (["draw"], "Ana", DeviceMove("destroy", card="baby-unicorn-pink", target="Ben"), "destroy baby pink from Ben"),
    (["draw"], "Ana", DeviceMove("steal", card="baby-unicorn-pink"), "steal baby unicorn pink"),
    (["draw"], "Ben", DeviceMove("sacrifice", card="baby-unicorn-pink"), "Ben sacrifice baby unicorn pink"),
    (["draw"], "Ben", DeviceMove("return", card="baby-unicorn-red", target="Ana"), "Ben return baby red from Ana"),
    (["draw"], "Cy", DeviceMove("discard"), "Cy discard"),
    (["draw"], "Ben", DeviceMove("bring", card="baby-unicorn-yellow"), "baby Ben yellow"),
]


@pytest.mark.parametrize(("before", "player", "move", "typed"), SAME_AS_TYPED, ids=[t[3] for t in SAME_AS_TYPED])
def test_a_device_move_records_the_event_its_typed_line_records(before, player, move, typed):
    phone, keyboard = game_after(before), game_after(before)
    outcome = phone.phone_desk.device_move(player, move)
    if outcome.status == "warning":
        outcome = phone.phone_desk.device_answer(player, outcome.question, True)
    reply = keyboard.handle(typed)
    if asks(reply):
        reply = keyboard.handle("yes")
    assert outcome.status == "recorded", outcome.lines
    assert phone.game.log == keyboard.game.log
    assert phone.game.state == keyboard.game.state


def test_the_actor_is_the_devices_player_and_a_body_naming_another_is_refused():
    session = game_after(["draw"])
    command, card = command_for(DeviceMove("draw"), "Ben", session.game)
    assert command.actor == "Ben" and card is None
    for body in ({"verb": "draw", "actor": "Ana"}, {"verb": "draw", "player": "Ana"}):
        with pytest.raises(DeviceMoveError, match=ACTOR_NOT_YOURS):
            read_move(body)
    with pytest.raises(DeviceMoveError, match=UNKNOWN_VERB):
        read_move({"verb": "new-game"})  # a device records moves; it never starts games or types lines
    with pytest.raises(DeviceMoveError, match=CARD_NEEDED):
        read_move({"verb": "play"})


def test_a_phones_draw_is_of_one_card_to_the_most_a_draw_records_and_nothing_else():
    for number in (1, MOST_DRAWN):
        assert read_move({"verb": "draw", "number": number}).number == number
    for number in (0, -1, MOST_DRAWN + 1, True, 1.0, "2"):
        with pytest.raises(DeviceMoveError) as refused:
            read_move({"verb": "draw", "number": number})
        assert str(refused.value) == bad_field("number"), number


def test_a_phone_sacrifices_from_its_own_players_stable_only():
    """Ana has the red Baby, Ben the pink one: Ben's phone sacrificing the red one (whatever Stable it names) shows
    a page that is not the table, and records nothing."""
    session = game_after(["draw"])
    command, card = command_for(DeviceMove("sacrifice", card="baby-unicorn-pink"), "Ben", session.game)
    assert command.actor == "Ben" and card is not None and card.id == "baby-unicorn-pink"
    for target in (None, "Ana"):
        with pytest.raises(DeviceMoveError) as refused:
            command_for(DeviceMove("sacrifice", card="baby-unicorn-red", target=target), "Ben", session.game)
        assert refused.value.stale
        assert str(refused.value) == stale_stable("Baby Unicorn (Red)", "Ben", "Stable")
    log = list(session.game.log)
    assert session.phone_desk.device_move("Ben", DeviceMove("sacrifice", card="baby-unicorn-red")).status == "stale"
    assert session.game.log == log


def test_a_phones_warning_and_the_keyboards_question_leave_each_other_open():
    session = game_after(["draw", "play rainbow aura", "resolve"])
    assert asks(session.handle("play yay"))
    keyboard = session.pending
    warned = session.phone_desk.device_move("Ana", DeviceMove("play", card="slowdown", target="Ben"))
    assert warned.status == "warning" and session.pending is keyboard
    session.handle("card yay")  # a card looked up meanwhile: both still wait
    assert session.pending is keyboard
    recorded = session.phone_desk.device_answer("Ana", warned.question, True)
    assert recorded.status == "recorded" and recorded.lines[0] == "Ana played Slowdown into Ben's Stable."
    assert session.pending is keyboard
    assert session.handle("yes").lines[0] == "Ana played Yay."


def test_a_phones_question_lapses_when_the_table_changes_first():
    session = game_after(["draw", "play rainbow aura", "resolve"])
    warned = session.phone_desk.device_move("Ana", DeviceMove("play", card="yay"))
    assert warned.status == "warning"
    assert asks(session.handle("Ben draw"))  # in Ana's turn: warned, and recorded on yes
    session.handle("yes")
    late = session.phone_desk.device_answer("Ana", warned.question, True)
    assert (late.status, late.lines) == ("stale", (QUESTION_LAPSED,))
    assert session.game.log[-1].player == 1  # Ben's draw, nothing after it
    assert session.phone_desk.device_answer("Ben", "made-up", True).status == "stale"


def test_a_phone_undoes_its_own_last_move_and_the_keyboard_undoes_anything():
    session = game_after(["draw"])
    ticks = iter(range(0, 10_000, 10))  # (taps 10 s apart: each said at once, `SPOKEN_EVERY`)
    session.phone_desk.clock = lambda: float(next(ticks))
    assert session.phone_desk.device_move("Ben", DeviceMove("discard")).status == "recorded"
    assert session.phone_desk.device_move("Cy", DeviceMove("undo")).lines == (UNDO_NOT_YOURS,)
    undone = session.phone_desk.device_move("Ben", DeviceMove("undo"))
    assert undone.status == "recorded" and "Ben" in undone.reply.speech
    assert session.game.log[-1].player == 0  # Ana's draw is back on top: Ben's phone cannot take it back
    assert session.phone_desk.device_move("Ben", DeviceMove("undo")).lines == (UNDO_NOT_YOURS,)
    assert session.handle("undo").lines[0].startswith("Undone")


def test_a_turn_ended_from_a_phone_is_shown_attributed_first_and_whole():
    session = game_after(["draw", "end turn", "draw"])
    outcome = session.phone_desk.device_move("Ben", DeviceMove("end"))
    said = "Ben, from a phone: ended the turn. Turn 3: Cy's turn."
    assert outcome.reply.lines == (said,) and outcome.reply.speech == said  # never a line that is only "Ben's phone:"
    assert outcome.reply.decisive == "Cy's turn."


def test_a_phone_ends_only_its_own_players_turn():
    session = game_after(["draw"])
    refused = session.phone_desk.device_move("Ben", DeviceMove("end"))
    assert (refused.status, refused.lines) == ("refused", ("It is Ana's turn: only Ana ends it.",))
    assert session.game.state.current == 0
    assert session.phone_desk.device_move("Ana", DeviceMove("end")).status == "recorded"
    assert session.game.state.current == 1


def test_an_instant_only_with_something_to_answer_and_end_only_after_the_draw():
    """Before, "Play an Instant" showed with nothing to answer, and "End turn" before the turn's draw."""
    session = game_after([])
    ana = may_do(session.game, "Ana")
    assert "instant" not in ana and "end" not in ana and "draw" in ana
    session.handle("draw")
    ana = may_do(session.game, "Ana")
    assert "instant" not in ana and "end" in ana  # an empty pile: nothing to answer
    session.handle("play rainbow aura")
    assert "instant" in may_do(session.game, "Ana") and "instant" in may_do(session.game, "Ben")


def test_what_a_player_may_do_follows_the_turn_and_the_pile():
    session = game_after(["draw"])
    assert "draw" in may_do(session.game, "Ana") and "end" in may_do(session.game, "Ana")
    assert "end" not in may_do(session.game, "Ben")
    session.handle("play rainbow aura")
    assert {"neigh", "super-neigh", "instant", "resolve"} <= set(may_do(session.game, "Ben"))


def test_off_turn_with_an_empty_pile_a_phone_offers_only_undo():
    session = game_after(["draw"])
    assert may_do(session.game, "Ben") == ["undo", "read"]
    assert may_do(session.game, "Cy") == ["undo", "read"]


def test_nothing_to_act_on_is_not_offered_on_ones_own_turn():
    session = game_after([])
    ana = may_do(session.game, "Ana")
    assert "resolve" not in ana and "neigh" not in ana  # an empty pile, an empty chain
    assert {"draw", "play", "destroy", "sacrifice", "steal", "return", "undo"} <= set(ana)
    bare = Session(CARDS)
    bare.handle("new game Ana Ben")  # no Baby in any Stable: no card to destroy, sacrifice, steal or return
    assert not {"destroy", "sacrifice", "steal", "return"} & set(may_do(bare.game, "Ana"))


def test_an_effects_duty_gives_its_player_the_move_while_the_pile_is_open():
    session = Session(load_card_set("llamas"), load_cards=load_card_set)
    for line in ["new game Ana Ben Dee deck llamas babies alpaca llama ram", "draw", "play basic alpaca"]:
        session.handle(line)
    assert "destroy" not in may_do(session.game, "Dee")  # the pile is open: no duty yet
    session.handle("Dee plays surprise emu attack")
    session.handle("resolve")
    state = session.game.state
    assert state.pile and state.chain  # the Alpaca still on the pile, the Emu's destroy in the chain
    assert "destroy" in may_do(session.game, "Dee")
    assert "destroy" not in may_do(session.game, "Ben")  # no duty of his
    outcome = session.phone_desk.device_move("Dee", DeviceMove("destroy", card="baby-alpaca", target="Ana"))
    assert outcome.status == "recorded", outcome.lines
    assert "baby-alpaca" not in session.game.state.players[0].stable


def test_a_phone_reads_a_cards_full_text_as_the_laptop_says_it_and_nothing_is_said():
    session = game_after(["draw"])
    said = len(session.said)
    outcome = session.phone_desk.device_move("Ben", DeviceMove("read", card="rainbow-aura"))
    typed = Session(CARDS).handle("card rainbow aura")
    assert outcome.status == "text" and outcome.lines == typed.lines
    assert outcome.reply is None and len(session.said) == said  # private: nothing on the laptop, nothing kept
    assert session.subject is None  # the laptop's "card just read" is untouched
    assert session.phone_desk.device_move("Ben", DeviceMove("read", card="no-such-card")).status == "refused"


def test_the_phone_verb_table_is_the_one_the_checks_use():
    from assistant.core.language.device import PHONE_VERBS, Pick
    from assistant.core.words.share import PAGE_LABELS

    for verb in PHONE_VERBS:
        assert verb.deck_word or verb.label in PAGE_LABELS, verb
        if verb.needs_card:
            with pytest.raises(DeviceMoveError):
                read_move({"key": "k" * 8, "verb": verb.name})
        assert (verb.pick is Pick.CARD) == (verb.name in ("instant", "play", "discard", "bring", "read")), verb


def test_the_instant_buttons_search_offers_only_the_kind_an_instant_card_is_sent_with():
    """The page narrows a verb's card search to the cards whose `kind` is the verb's `only`: the Instant button (an
    Instant from hand, in answer to the pile) to the kind an Instant card is sent with, and no other verb at all.
    Without its `only`, the page's search for an answer offered every card found."""
    from assistant.core.language.device import phone_verbs_json
    from assistant.core.language.table_view import card_entry

    game = game_after([]).game
    narrowed = {row["verb"]: row["only"] for row in phone_verbs_json() if row["only"]}
    assert narrowed == {"instant": card_entry(game, "neigh")["kind"]}
    assert card_entry(game, "rainbow-aura")["kind"] != narrowed["instant"]


def test_a_phones_move_with_no_player_named_in_its_words_says_whose_it_was_first_on_its_line():
    session = game_after(["draw", "play rainbow aura"])
    outcome = session.phone_desk.device_move("Cy", DeviceMove("resolve"))
    said = "Cy, from a phone: Rainbow Aura is played: it enters Ana's Stable."
    assert outcome.status == "recorded" and outcome.reply.lines == (said,) and outcome.reply.speech == said
    assert isinstance(session.pending, Question) is False


def test_missed_says_what_other_hands_did_since_her_last_move_a_player_a_sentence_and_then_nothing():
    from assistant.core.words.pace import NOTHING_MISSED

    session = game_after(["draw", "play rainbow aura", "resolve", "end turn"])  # Ana's move: the digest starts here
    assert session.handle("missed").speech == NOTHING_MISSED
    for move in (DeviceMove("draw"), DeviceMove("play", card="basic-unicorn-blue")):
        assert session.phone_desk.device_move("Ben", move).status == "recorded"
    assert session.phone_desk.device_move("Cy", DeviceMove("neigh", on="basic-unicorn-blue")).status == "recorded"
    said = session.handle("missed").speech
    digest = "Since your last move: Ben drew a card and played Basic Unicorn (Blue). Cy played Neigh on Ben's Basic"
    assert said == f"{digest} Unicorn (Blue).", said  # what the Neigh answered, whose it was
    assert session.handle("catch up").speech == NOTHING_MISSED  # since she last asked: nothing new
    session.phone_desk.device_move("Cy", DeviceMove("resolve", on="basic-unicorn-blue"))
    session.phone_desk.device_move("Ben", DeviceMove("end"))
    said = session.handle("missed").speech
    # the turn that began, first; what the Neigh stopped; "Ben ended the turn" goes without saying
    assert said == "Since your last move: Cy's turn. Cy's Neigh stopped Ben's Basic Unicorn (Blue).", said
    session.phone_desk.device_move("Cy", DeviceMove("draw"))
    session.handle("stable")  # a question about the game is no move of hers: the digest goes on
    assert "Cy drew a card." in session.handle("missed").speech
    session.phone_desk.device_move("Cy", DeviceMove("discard"))
    session.handle("Ana discard")  # her own move: what came before it is no longer news
    assert session.handle("missed").speech == NOTHING_MISSED


class FillingDisk:
    """`os.write` on a disk that is full once `full` is set (ENOSPC, as Linux says it)."""

    def __init__(self) -> None:
        self.full = False

    def __call__(self, fd: int, data: bytes) -> int:
        if self.full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return os.write(fd, data)


def test_a_phones_move_refused_for_a_full_disk_is_said_on_the_laptop_too(tmp_path):
    """The phone was told its move was not recorded; the laptop said nothing, so the host never heard the disk was
    full. Now the laptop says it too, as the phone's: a move, a warned move answered yes, an undo."""
    disk = FillingDisk()
    session = Session(CARDS, store=GameStore(tmp_path, write=disk))
    for line in [NEW_GAME, "draw", "play rainbow aura", "resolve"]:
        session.handle(line)
    assert session.phone_desk.device_move("Ben", DeviceMove("discard")).status == "recorded"
    warned = session.phone_desk.device_move("Ana", DeviceMove("play", card="yay"))
    assert warned.status == "warning"
    disk.full = True
    failed = save_failed(DISK_FULL)
    for outcome in (
        session.phone_desk.device_move("Cy", DeviceMove("discard")),
        session.phone_desk.device_answer("Ana", warned.question, True),
        session.phone_desk.device_move("Ben", DeviceMove("undo")),
    ):
        assert (outcome.status, outcome.lines) == ("refused", (failed,))
        assert outcome.reply is not None  # said on the laptop, attributed first and whole
        assert outcome.reply.lines[0] in (
            from_phone("Cy", failed),
            from_phone("Ana", failed),
            from_phone("Ben", failed),
        )
    assert len(session.game.log) == 4  # nothing recorded meanwhile
    disk.full = False
    refused = session.phone_desk.device_move("Cy", DeviceMove("end"))  # a refusal of the rules: still the phone's alone
    assert refused.status == "refused" and refused.reply is None


def test_the_phone_has_its_own_words_no_say_draw_and_no_say_yes_or_no():
    from assistant.core.language.table_view import phone_view

    session = game_after(["draw", "play rainbow aura"])
    view = phone_view(session.game, "Ben", 1, [])["game"]
    typed = session.handle("turn").speech
    assert " say " in typed.lower() and "say" not in view["turn"].lower(), view["turn"]
    assert view["pile_line"] == "The pile, from the top: Ana's Rainbow Aura. Any Neigh for Ana's Rainbow Aura?"
    session.handle("resolve")
    warned = session.phone_desk.device_move("Ana", DeviceMove("draw"))  # a second draw after playing: warned
    assert warned.status == "warning" and warned.lines and "Say yes or no" not in " ".join(warned.lines)
    assert "already played a card or drawn" in warned.lines[0]


def test_the_phones_view_has_exactly_the_keys_its_typed_dicts_name():
    from assistant.core.language.table_view import (
        CardEntry,
        GameView,
        LastEntry,
        LastMoves,
        PhoneQuestion,
        PhoneView,
        PileEntry,
        PlayerView,
        TableWords,
        phone_view,
    )

    session = game_after(["draw", "play rainbow aura"])
    view = phone_view(session.game, "Ana", 2, [])["game"]  # Ana's Rainbow Aura on the pile
    assert view is not None and view["pile"] and all(set(c) == PileEntry.__required_keys__ for c in view["pile"])
    session.handle("resolve")
    warned = session.phone_desk.device_move("Ana", DeviceMove("draw"))  # an open question, shown in the view
    assert warned.status == "warning"
    kept = LastMoves()
    kept.keep([LastMove("Ana drew a card.", 1, "Ana", "You drew a card.")])
    whole = phone_view(session.game, "Ana", 3, kept.of("Ana"), session.phone_desk.devices.question_of("Ana"))
    assert set(whole) == PhoneView.__required_keys__
    view = whole["game"]
    assert view is not None and set(view) == GameView.__required_keys__
    assert set(view["words"]) == TableWords.__required_keys__
    assert all(set(player) == PlayerView.__required_keys__ for player in view["players"])
    cards = [card for player in view["players"] for card in player["cards"]]
    assert cards and all(set(card) == CardEntry.__required_keys__ for card in cards)
    assert view["question"] is not None and set(view["question"]) == PhoneQuestion.__required_keys__
    assert view["last"] == [{"at": 1, "text": "You drew a card.", "kind": "move"}]
    assert all(set(entry) == LastEntry.__required_keys__ for entry in view["last"])
    assert set(phone_view(None, "Ana", 5, [])) == PhoneView.__required_keys__


def test_the_phones_last_moves_are_kept_by_their_places_in_the_games_log():
    """Two moves alike at two places are two; an undo takes out what was kept at the places it took back, never what
    has the same words elsewhere; another game's replace the last game's. Before, they were plain lines."""
    from assistant.core.language.table_view import LastMoves

    drew = [LastMove("Ben drew a card.", at, "Ben", "You drew a card.") for at in range(1, 8)]
    kept = LastMoves()
    kept.keep(drew[:6])
    kept.keep(drew[6:])  # the seventh: the oldest goes
    assert [entry["at"] for entry in kept.of("Cy")] == [2, 3, 4, 5, 6, 7]
    assert {entry["text"] for entry in kept.of("Cy")} == {"Ben drew a card."}
    assert {entry["text"] for entry in kept.of("Ben")} == {"You drew a card."}
    undone = LastMove("Undone: the card Ben drew is back on the deck.", 6, kind="undo", back=(6, 7))
    kept.keep([undone])
    assert [(entry["at"], entry["kind"]) for entry in kept.of("Cy")] == [(2, "move"), (3, "move"), (4, "move"),
                                                                          (5, "move"), (6, "undo")]  # fmt: skip
    kept.keep([LastMove("Ana drew a card.", 1)], fresh=True)
    assert kept.of("Cy") == [{"at": 1, "text": "Ana drew a card.", "kind": "move"}]


def test_an_undos_words_carry_the_places_it_took_back_and_a_moves_facts_its_place():
    from assistant.core.game.about import MoveKind, Topic
    from assistant.core.game.events import Draw

    session = Session(load_card_set())
    session.handle("new game Ana Ben")
    table = session.game.table
    move = fact(Topic.MOVE, "Ben drew a card.", 1, player="Ben", move=MoveKind.DRAW, at=4, event=Draw(1))
    turn = fact(Topic.TURN, "Ben's turn.", 1, player="Ben")
    said = last_moves((turn,), (move,), ("Ben drew a card.", "Ben's turn."), at=9, table=table)
    assert said == (
        LastMove("Ben drew a card.", 4, "Ben", "You drew a card."),
        LastMove("Ben's turn.", 4),  # the fact the move led to: the move's place
    )
    undo = tuple(fact(Topic.UNDO, "", move=MoveKind.UNDO, at=place) for place in (4, 5))
    said = last_moves((), undo, ("Undone 2 events: ...", "Turn 2, Ben's Action phase."), at=3)
    assert [(line.at, line.kind, line.back) for line in said] == [(4, "undo", (4, 5))] * 2
    redo = (fact(Topic.UNDO, "", move=MoveKind.REDO, at=4),)
    assert [(line.at, line.kind) for line in last_moves((), redo, ("Redone: Ben drew a card.",), at=4)] == [(4, "redo")]
    assert last_moves((), (), ("Ben's Neigh resolves.",), at=7) == (LastMove("Ben's Neigh resolves.", 7),)


def test_the_docs_table_of_the_phones_verbs_is_the_typed_table_row_by_row():
    import re
    from pathlib import Path

    from assistant.core.language.device import DEVICE_VERBS, PHONE_VERBS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "share.md").read_text(encoding="utf-8")
    table = doc[doc.index("| verb | needs | what it records |") :].split("\n\n", 1)[0]
    rows = re.findall(r"^\| `([a-z-]+)` \|([^|]*)\|", table, re.MULTILINE)
    assert [name for name, _ in rows] == list(DEVICE_VERBS)
    for (_, needs), verb in zip(rows, PHONE_VERBS, strict=True):
        assert ("`card`" in needs and "`card`?" not in needs) == verb.needs_card, verb.name
        assert ("`on`" in needs) == verb.on_pile, verb.name
        assert ("`aim`" in needs) == verb.aims, verb.name


def test_a_phones_neigh_in_a_deck_without_a_neigh_card_is_refused_in_the_phones_words():
    """Llamas Unleashed has no Neigh card: a phone's Neigh is refused with the phone's own button named. Before, the
    phone got the laptop's numbered list of Instants, "... Type a number to choose.", which no button answers."""
    from assistant.core.words.share import NO_NEIGH_CARD, PAGE_LABELS

    session = Session(load_card_set("llamas", ["llamas-farmed"]))
    for line in ("new game Ana Ben Cy babies alpaca llama goat", "draw", "play basic llama"):
        session.handle(line)
    before = len(session.game.log)
    outcome = session.phone_desk.device_move("Ben", DeviceMove("neigh"))
    assert (outcome.status, outcome.lines) == ("refused", (NO_NEIGH_CARD,))
    assert PAGE_LABELS["instant"] in NO_NEIGH_CARD and "number" not in NO_NEIGH_CARD
    assert len(session.game.log) == before  # nothing recorded

"""The laptop's words of a move made on a phone (said by the table voice where there is one) never say how to say a
move on her keyboard: the move's next step is the mover's, on the phone, and no one at the table types it
(`Audience.PHONE_MOVE`). Her own typed moves keep their coaching."""

from __future__ import annotations

import re

import pytest

from assistant.commands.app import table_session
from assistant.core.language.device import DeviceMove
from assistant.core.words.verbosity import Verbosity
from assistant.storage.decks import load_card_set
from tests.llamas_game import game_lines

#: How to say a move on the keyboard, in any of the laptop's coaching ("say destroy and the card", "Say resolve.").
KEYBOARD = re.compile(r"\bsay\b", re.IGNORECASE)
EMU = "Cy's Surprise Emu Attack resolves: Cy destroys an Animal card in Dee's Field"


def _played(level: Verbosity, phone: bool) -> list[str]:
    """The Llamas Unleashed game of tests/fixtures/llamas_game.txt at a verbosity, each resolve tapped on Cy's phone
    (a resolve is no one's move) or typed: the laptop's spoken words of each resolve."""
    session = table_session(load_card_set("uu-2nd"), load_cards=load_card_set, verbosity=level)
    said: list[str] = []
    for line in game_lines():
        game = session.game
        if line != "resolve" or game is None or not phone:
            reply = session.handle(line)
            if line == "resolve":
                said.append(reply.speech)
            continue
        on = game.state.pile[-1].card if game.state.pile else None
        outcome = session.phone_desk.device_move("Cy", DeviceMove("resolve", on=on))
        assert outcome.status == "recorded", (line, outcome.lines)
        assert outcome.reply is not None
        said.append(outcome.reply.speech)
    return said


@pytest.mark.parametrize("level", [Verbosity.NORMAL, Verbosity.COACHING])
def test_a_phones_move_is_said_on_the_laptop_without_how_to_say_a_move(level):
    """Every resolve of a whole game tapped on Cy's phone: the laptop's words name no keyboard command. Before,
    the table voice said "Cy destroys an Animal card in Dee's Field; say destroy and the card." and, at coaching,
    "Say neigh and a name, or resolve." for moves no one at the table types."""
    said = _played(level, phone=True)
    assert any(EMU in words for words in said), "the Surprise Emu Attack was resolved from the phone"
    coached = [words for words in said if KEYBOARD.search(words)]
    assert not coached, coached


def test_her_own_typed_move_keeps_its_coaching():
    """The same game typed: the laptop's own words still say how to say the next move."""
    said = _played(Verbosity.NORMAL, phone=False)
    assert any(f"{EMU}; say destroy and the card." in words for words in said), said

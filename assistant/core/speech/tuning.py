"""A voice's rate, volume or pitch turned in the app (`rate 70`, `faster`, `table pitch 40`, a key): which setting
the line names, its new value within its range, and what is said. Pure: the session keeps the settings and hands
the new ones to whoever applies and writes them (`Session.retune`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from assistant.core.language.parser import DIAL_WORDS, Command
from assistant.core.speech.settings import DIAL_HIGHEST, DIAL_LOWEST, SpeechSettings
from assistant.core.words.voice import (
    dial_already,
    dial_no_such_voice,
    dial_not_a_number,
    dial_now,
    dial_out_of_range,
    dial_set,
)

#: How far `faster`, `louder`, `higher` (and the keys) turn a dial.
STEP = 10


@dataclass(frozen=True)
class Tuned:
    """What a tuning line does: the settings after it, the setting it names, and its sentence."""

    settings: SpeechSettings
    """The settings after the line (the same when nothing changed)."""
    name: str
    """The setting named ("rate", "table_pitch")."""
    sentence: str
    changed: bool = False
    """The setting changed: to be applied and written."""
    refused: bool = False
    """The line could not be done (out of range, no number, no such voice): said as an error."""


def tune(settings: SpeechSettings, command: Command) -> Tuned:
    """The settings after a `tune` command (its phrase in `command.said`: "faster", "table rate"), and its
    sentence."""
    dial, step = DIAL_WORDS[command.said.split()[-1]]
    table = command.said.startswith("table") or command.word == "table"
    name = f"table_{dial}" if table else dial
    now: int = getattr(settings, name)
    ends = (DIAL_LOWEST, DIAL_HIGHEST)
    bad = str(command.options.get("bad", ""))
    if bad and command.number is not None:
        return Tuned(settings, name, dial_no_such_voice(dial, bad, getattr(settings, dial), *ends), refused=True)
    if bad:
        return Tuned(settings, name, dial_not_a_number(dial, table, now, *ends), refused=True)
    if step:
        wanted = now + step * STEP
    elif command.number is None:
        steps = tuple(word for word, (named, way) in DIAL_WORDS.items() if named == dial and way)
        return Tuned(settings, name, dial_now(dial, table, now, *ends, (steps[1], steps[0])))
    else:
        wanted = command.number
        if not DIAL_LOWEST <= wanted <= DIAL_HIGHEST:
            return Tuned(settings, name, dial_out_of_range(dial, table, now, wanted, *ends), refused=True)
    value = max(DIAL_LOWEST, min(DIAL_HIGHEST, wanted))
    if value == now and step:
        return Tuned(settings, name, dial_already(dial, table, now, *ends))
    turned: dict[str, Any] = {name: value}
    changed = replace(settings, **turned)
    return Tuned(changed, name, dial_set(dial, table, value, *ends), changed=value != now)

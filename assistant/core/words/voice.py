"""Sentences of the speech service (assistant/core/speech/queue.py, assistant/speech, the say command)."""

from __future__ import annotations

from assistant.core.text import clean_untrusted

__all__ = [
    "WAV_CUT_SHORT",
    "NOTHING_WRITTEN",
    "text_too_long_to_say",
    "speech_backend_chosen",
    "speech_silent",
    "SPEECH_OFF_TRANSCRIPT",
    "SPEECH_SET_SILENT",
    "NO_PLAYER",
    "engine_unavailable",
    "speech_cannot_render",
    "voice_unknown",
    "player_missing",
    "player_failed",
    "screen_reader_speaks",
    "plain_left_to",
    "speaking_through",
    "settings_file_at",
    "STARTED_MUTED",
    "SCREEN_READER_LIBRARY_MISSING",
    "NO_SCREEN_READER_ACTIVE",
    "settings_damaged",
    "EARCON_WORDS",
    "SPEECH_STOPPED",
    "NO_SPEECH_KEYS",
    "SPEECH_MUTED",
    "SPEECH_UNMUTED",
    "NOTHING_SAID_YET",
    "HISTORY_OLDEST",
    "HISTORY_NEWEST",
    "PRIVATE_OFF",
    "PRIVATE_NO_DEVICE",
    "private_on",
    "wav_written",
    "say_failed",
    "transcript_failed",
    "history_heading",
    "answers_heading",
    "verbosity_set",
    "TEXT_EMPTY",
    "ENGINE_NOT_INSTALLED",
    "ENGINE_TOO_SLOW",
    "ENGINE_UNFINISHED",
    "ENGINE_EMPTY_SOUND",
    "engine_stopped",
    "SPEECHD_NO_SOCKET",
    "SPEECHD_MISSING",
    "table_voice_missing",
    "TABLE_NO_MIXER",
    "TABLE_NO_ENGINE",
    "TABLE_INSTEAD_OWN_VOICE",
    "TABLE_INSTEAD_READER",
    "TABLE_INSTEAD_PRINTED",
    "about_app",
    "dial_set",
    "dial_already",
    "dial_now",
    "dial_out_of_range",
    "dial_not_a_number",
    "dial_no_such_voice",
    "dial_not_honoured",
]


def speech_backend_chosen(engine: str, player: str = "") -> str:
    """The backend the speech service chose, reported once."""
    names = {
        "speechd": "speech-dispatcher",
        "pyttsx3": "pyttsx3 with espeak-ng",
        "pyttsx3-sapi5": "pyttsx3 with SAPI5",
        "pyttsx3-nsss": "pyttsx3 with NSSpeechSynthesizer",
    }
    played = f", played with {player}" if player and player != engine else ""
    return f"Speech: {names.get(engine, engine)}{played}."


def about_app(version: str, speech: str = "", table: str = "") -> list[str]:
    """`about`: the app's version and the speech in use (`speech_backend_chosen`'s sentence of her voice and of the
    table voice; "": none, speech is off)."""
    lines = [f"Table assistant {clean_untrusted(version, 40)}.".replace(" .", ".")]
    lines.append(speech or "Speech: off.")
    if table:
        lines.append("Table voice: " + table.removeprefix("Speech: "))
    return lines


def speech_silent(reason: str = "") -> str:
    """No speech engine works: the one written notice."""
    because = f" {reason}" if reason else ""
    return f"Speech is off: no speech engine works here.{because} Everything is still written on screen."


SPEECH_OFF_TRANSCRIPT = "Speech is off: what would be said is written to the transcript only."
SPEECH_SET_SILENT = "The settings file chose silence (backend = silent)."
NO_PLAYER = "No sound player is installed (aplay, paplay or pw-play; afplay on macOS)."
SCREEN_READER_LIBRARY_MISSING = (
    "the accessible_output2 library is not installed; the app brings it on Windows and macOS, so install the app again"
)
NO_SCREEN_READER_ACTIVE = "no screen reader is running"


def engine_unavailable(engine: str, reason: str) -> str:
    """A speech engine that cannot be used, and why."""
    return f"{engine} cannot speak: {clean_untrusted(reason, 160).rstrip('.')}."


def speech_cannot_render(engine: str) -> str:
    """`say --to` with an engine that does not write sound files."""
    return f"{engine} cannot write sound files."


def voice_unknown(voice: str) -> str:
    """A voice in the settings that the engine does not have."""
    return f"The voice {clean_untrusted(voice, 60)} was not found; the default voice is used."


def player_missing(player: str, reason: str) -> str:
    """The sound player program cannot be started."""
    return f"The sound player {player} cannot be started ({clean_untrusted(reason, 80)}): speech is silent."


def player_failed(player: str, status: int) -> str:
    """The sound player stopped with an error (no sound device, a wrong device name)."""
    return (
        f"The sound player {player} stopped with error {status}: check the sound device. "
        "Everything is still written on screen."
    )


def screen_reader_speaks(reader: str) -> str:
    """Speech left off: a screen reader is talking, and this app cannot speak through it."""
    return (
        f"{clean_untrusted(reader, 40)} is running, but this app cannot speak through it, so it stays quiet. "
        "To hear its own voice, set speech = own-voice in its settings file."
    )


def plain_left_to(reader: str) -> str:
    """The plain mode at a terminal with a screen reader running: the reader reads what is printed, so the app
    does not say it a second time."""
    return (
        f"{clean_untrusted(reader, 40)} reads what the plain mode prints, so the answers are printed and not "
        "spoken a second time. To hear the app's own voice as well, set speech = own-voice in its settings file."
    )


def speaking_through(reader: str) -> str:
    """The app speaks through the player's screen reader (NVDA, JAWS, VoiceOver), reported once."""
    return f"Speech: through {clean_untrusted(reader, 40)}."


def settings_damaged(reason: str, kept_as: str) -> str:
    """A settings file that could not be used."""
    return (
        f"The settings file is damaged ({clean_untrusted(reason, 120)}): the defaults are used, "
        f"and the damaged file was kept as {kept_as}."
    )


#: What each earcon means, said when sounds are off.
EARCON_WORDS = {"code-seen": "Code seen.", "card-read": "Card read.", "error": "Error.", "your-turn": "Your turn."}

SPEECH_STOPPED = "Speech stopped."
NO_SPEECH_KEYS = "Speech is off, so the speech keys do nothing."
SPEECH_MUTED = "Speech muted. Press F5 to unmute."
SPEECH_UNMUTED = "Speech on."
NOTHING_SAID_YET = "Nothing has been said yet."
HISTORY_OLDEST = "That was the oldest thing said."
HISTORY_NEWEST = "That was the newest thing said."
PRIVATE_OFF = "Private reading off: cards are read aloud to the table."
PRIVATE_NO_DEVICE = (
    "Private reading on, but no headphones device is set (private_device in the settings file): "
    "cards are only written on screen, not read aloud."
)


def private_on(device: str) -> str:
    """The reminder when private reading is switched on."""
    return (
        f"Private reading on: put your headphones on. Cards are read only on {clean_untrusted(device, 60)}, "
        "never to the table."
    )


def wav_written(path: str, seconds: float) -> str:
    """`say --to`: the file written."""
    return f"Wrote {seconds:.1f} seconds of speech to {clean_untrusted(path, 200)}."


#: `say --to`: the WAV file the engine made is cut short or empty (checked before it is put in place).
WAV_CUT_SHORT = "the speech engine's WAV file came out cut short or empty, so it was not kept."
#: `say --to` on a full disk: after the reason.
NOTHING_WRITTEN = "Nothing was written."


def text_too_long_to_say(length: int, most: int) -> str:
    """`say`: a text longer than it speaks at once (never cut in silence)."""
    return f"that text is {length:,} characters; say takes at most {most:,} at once. Split it into parts."


def say_failed(reason: str) -> str:
    """`say`: nothing could be spoken or written."""
    return f"Nothing was said: {clean_untrusted(reason, 300)}"


def transcript_failed(path: str, reason: str) -> str:
    """The transcript file cannot be opened or written."""
    return f"The transcript {clean_untrusted(path, 120)} cannot be written ({clean_untrusted(reason, 80)}): it is off."


def history_heading(count: int) -> str:
    """The history command: what comes next."""
    if count == 0:
        return NOTHING_SAID_YET
    return "The last thing said:" if count == 1 else f"The last {count} things said, newest first:"


def answers_heading(count: int) -> str:
    """The history command: the last answers follow, oldest first."""
    if count == 0:
        return NOTHING_SAID_YET
    return "The last answer:" if count == 1 else f"The last {count} answers, oldest first:"


def verbosity_set(level: str) -> str:
    """The verbosity command's answer."""
    what = {
        "brief": "facts only",
        "normal": "the facts and what the table waits for",
        "coaching": "the facts, what the table waits for, and what to say",
    }[level]
    return f"Verbosity {level}: {what}."


#: Why `say` said nothing (with `say_failed`).
TEXT_EMPTY = "the text is empty."

#: Why a speech engine cannot be used (with `engine_unavailable`).
ENGINE_NOT_INSTALLED = "it is not installed"
ENGINE_TOO_SLOW = "it took too long"
ENGINE_UNFINISHED = "it did not finish a sentence"
ENGINE_EMPTY_SOUND = "it wrote an empty sound file"
SPEECHD_NO_SOCKET = "its socket does not answer"
SPEECHD_MISSING = "python3-speechd is not installed"


def engine_stopped(status: int) -> str:
    """Why a speech engine failed: its process ended with an error status."""
    return f"it stopped with status {status}"


def settings_file_at(path: str, exists: bool) -> str:
    """Where the settings file is (`table-assistant settings`), and whether it was written yet."""
    if exists:
        return f"Settings file: {clean_untrusted(path, 300)}"
    return f"Settings file: {clean_untrusted(path, 300)} (not written yet: these are the defaults)"


#: Written under the title when the app starts muted, as F5 left it last time.
STARTED_MUTED = "Speech is muted, as it was left last time: F5 turns it back on."


TABLE_NO_MIXER = "no sound player here plays two sounds at once"
TABLE_NO_ENGINE = "no second voice could be made with the speech engines here"
TABLE_INSTEAD_OWN_VOICE = "said in your one voice, each after the sentence being said"
TABLE_INSTEAD_READER = "said through your screen reader, after your own replies"
TABLE_INSTEAD_PRINTED = "printed, for your screen reader to read"


def table_voice_missing(reason: str, instead: str) -> str:
    """The table voice (other players' moves in a second voice) cannot be made: why, and what she gets instead.
    Said once, at the start."""
    return f"No table voice: {reason}. Other players' moves are {instead}."


#: What a dial's lowest and highest settings are called ("Rate 100, the fastest.").
_DIAL_ENDS = {"rate": ("slowest", "fastest"), "volume": ("softest", "loudest"), "pitch": ("lowest", "highest")}


def _dial(dial: str, table: bool) -> str:
    """A dial as a sentence starts with it: "Rate", "Table voice rate"."""
    return f"Table voice {dial}" if table else dial.capitalize()


def _at_end(dial: str, value: int, lowest: int, highest: int) -> str:
    """ ", the fastest" at a limit of the dial, else nothing."""
    ends = _DIAL_ENDS[dial]
    return f", the {ends[0]}" if value <= lowest else f", the {ends[1]}" if value >= highest else ""


def _range(lowest: int, highest: int) -> str:
    return f"from {lowest} to {highest}"


def dial_set(dial: str, table: bool, value: int, lowest: int, highest: int) -> str:
    """A voice's rate, volume or pitch just changed (`rate 70`, `faster`), said at the new setting: "Rate 70.",
    "Rate 100, the fastest."."""
    return f"{_dial(dial, table)} {value}{_at_end(dial, value, lowest, highest)}."


def dial_already(dial: str, table: bool, value: int, lowest: int, highest: int) -> str:
    """A step asked past a limit (`faster` at 100): it stays there."""
    return f"{_dial(dial, table)} {value} already{_at_end(dial, value, lowest, highest)}."


def dial_now(dial: str, table: bool, value: int, lowest: int, highest: int, steps: tuple[str, str]) -> str:
    """A dial asked for alone (`rate`): its setting, its range, and how to change it (`steps`: the words that step
    it down and up, "slower" and "faster")."""
    prefix = "table " if table else ""
    return (
        f"{_dial(dial, table)} {value}{_at_end(dial, value, lowest, highest)}, {_range(lowest, highest)}. "
        f"Say {prefix}{steps[1]} or {prefix}{steps[0]}, or {prefix}{dial} and a number."
    )


def dial_out_of_range(dial: str, table: bool, value: int, typed: int, lowest: int, highest: int) -> str:
    """A number out of the dial's range (`rate 150`): the range, and the setting it keeps."""
    return f"{_dial(dial, table)} goes {_range(lowest, highest)}, not {typed}: it stays at {value}."


def dial_not_a_number(dial: str, table: bool, value: int, lowest: int, highest: int) -> str:
    """A dial given no number (`rate fast`): the range, and the setting it keeps (the words typed are not said back:
    they are untrusted)."""
    return f"{_dial(dial, table)} takes a number {_range(lowest, highest)}: it stays at {value}."


def dial_no_such_voice(dial: str, voice: str, value: int, lowest: int, highest: int) -> str:
    """A dial for a voice there is none of (`rate robot 50`): the voices there are, and her voice's setting."""
    return (
        f"There is no voice called {clean_untrusted(voice, 30)}: say {dial} for your voice, table {dial} for the "
        f"table voice. {_dial(dial, False)} stays at {value}, {_range(lowest, highest)}."
    )


def dial_not_honoured(dial: str) -> str:
    """A dial the speech in use cannot turn (a screen reader's own rate, SAPI5's pitch): kept in the settings all the
    same, for the app's own voice."""
    return f"The speech in use keeps its own {dial}: the setting is kept for the app's own voice."

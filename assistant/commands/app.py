"""The default command: open the app, or the plain line mode with `--plain`, or replay a game with `--script`.

`make_session` builds the session both modes answer with (the braille resolver, games saved, cards learnt, the
verbosity); `make_app` is the one factory of the app on it, used by `run` and by the tests' `make_app` fixture, so
the app under test is the app players open.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from assistant.commands.say import describer, retuner
from assistant.core.cards.card import CardSet, CardType
from assistant.core.language.lobby import shipped_addons
from assistant.core.words.cardtext import NO_TERMINAL, deck_chosen
from assistant.core.words.errors import script_unreadable
from assistant.core.words.screen import app_heading
from assistant.core.words.storage import games_held_notice, games_lock_notice, script_too_large
from assistant.session import CardResolver, Reply, Session, Verbosity
from assistant.storage.decks import DEFAULT_DECK, load_card_set, take_notices

if TYPE_CHECKING:
    from assistant.braille.resolver import BrailleResolver
    from assistant.braille.translate import Translator
    from assistant.core.cards.learning import NewCard
    from assistant.core.speech.settings import SpeechSettings
    from assistant.scanner.sources import FrameSource
    from assistant.speech.replies import ReplySpeaker
    from assistant.ui.app import Speaker, TableApp
    from assistant.ui.braille_display import DisplayLink

#: The file (in the data directory) that native libraries' own output goes to while the app runs.
NATIVE_LOG = "native-output.log"

#: The largest `--script` read (far more than any game's lines): `/dev/zero` or a huge file is refused, not read.
MAX_SCRIPT_BYTES = 4_000_000


def braille_resolver(cards: CardSet, translator: Translator | None = None) -> BrailleResolver:
    """The resolver of the app, the plain mode and `card`: the braille-aware one, with each deck's abbreviations
    read from the shipped maps."""
    from assistant.braille.maps import abbreviations_for
    from assistant.braille.resolver import BrailleResolver
    from assistant.speech.player import system_of
    from assistant.storage.paths import braille_map_dir

    return BrailleResolver(cards, abbreviations_for(cards, braille_map_dir()), translator, system_of())


def table_session(cards: CardSet, **options: Any) -> Session:
    """A session on these cards with the app's own resolver (abbreviations, braille, typos), rebuilt the same way
    for a game on other decks; `options` go to `Session` (a game store, a card loader, a learner)."""
    return Session(cards, resolver=braille_resolver(cards), resolver_for=braille_resolver, **options)


def make_session(args: argparse.Namespace, settings: SpeechSettings | None = None) -> Session:
    """The session for the chosen deck and add-ons, resolving queries with the braille-aware resolver and saving
    games in the data directory; its verbosity from `args`, else from `settings` (read from the file if None), the
    player's name in games (`me`) from `settings`."""
    from assistant.storage.decks import learn_card, load_all_decks
    from assistant.storage.saves import GameStore
    from assistant.storage.settings import load_settings

    cards = load_card_set(args.deck or DEFAULT_DECK, args.addon)

    def learn(new: NewCard, card_type: CardType) -> tuple[str, CardSet, CardResolver | None]:
        """Add a scanned card to the owner's import of the deck in play (the game's, once a game chose one), then
        play on with it."""
        in_play = session.cards
        path = learn_card(in_play.base.id, new, card_type)
        learnt = load_card_set(in_play.base.id, shipped_addons(in_play))
        return str(path), learnt, braille_resolver(learnt)

    settings = settings or load_settings()[0]
    level = getattr(args, "verbosity", None) or settings.verbosity
    session = table_session(
        cards,
        store=GameStore(),
        load_cards=load_card_set,
        learn=learn,
        verbosity=Verbosity(level),
        me=settings.me,  # whose cards a digest of what she missed says first
        installed=functools.cache(lambda: tuple(load_all_decks()[0])),  # read at the first code that needs it
    )
    session.remember = _remember_verbosity
    session.speech, session.retune = settings, retuner(None)  # (the speaker's, once there is one)
    return session


def _remember_verbosity(level: Verbosity) -> None:
    """A verbosity chosen in the app (F7, the line "verbosity") is the next start's too."""
    from assistant.storage.settings import remember

    try:
        remember({"verbosity": level.value})
    except OSError:
        pass  # a settings folder that cannot be written: the choice holds for this run


def opening(
    session: Session, args: argparse.Namespace, notices: Sequence[str] = (), offer: bool = True
) -> Reply | None:
    """What is said first, before any line is typed: with `--resume` the resumed game, else the last saved game
    offered (yes continues it; not when `offer` is False, for a script, which starts its own); the `notices` (a
    settings file set aside) and the decks' (a damaged import set aside) before it. None: nothing to say."""
    first: Reply | None
    if getattr(args, "resume", False):
        first = session.resume_game()
    else:
        first = session.offer_resume() if offer else None
    notes = [*notices, *take_notices()]
    if notes:
        first = first.before(*notes) if first is not None else Reply.of(*notes, important=True)
    return first


def make_app(
    args: argparse.Namespace,
    speak: Speaker | None = None,
    *,
    settings: SpeechSettings | None = None,
    notices: Sequence[str] = (),
    shown: Sequence[str] = (),
    camera: Callable[[], FrameSource] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> TableApp:
    """The app `table-assistant` opens with `args`: on the session of `make_session` (its deck and add-ons, games
    saved in the data directory, scanned cards learnt, the braille resolver; verbosity from `args` or `settings`),
    headed by the deck chosen and what `opening` says (the `notices` in it); `shown`: notes written after the
    heading, not said (the speech engine chosen). `speak` hears every reply; `camera` opens the frame source
    instead of the camera `args` name (none with `--no-camera`); `clock`, the camera scanner's time (a test's own)."""
    from assistant.storage.settings import load_settings
    from assistant.ui.app import TableApp

    settings = settings if settings is not None else load_settings()[0]
    session = make_session(args, settings)
    session.retune = retuner(speak)  # a voice's dial turned: written, and applied to the voices `speak` has
    session.about = describer(speak)
    first = opening(session, args, notices)
    heading = app_heading(deck_chosen(session.cards))
    braille, braille_notes = braille_display(session, args, settings)
    if first is not None:  # the app shows the heading first: the resumed game's position goes with it
        heading = f"{heading} {first.speech}"
    if braille_notes:  # no display answered: said once, with the heading
        heading = " ".join([heading, *braille_notes])
    return TableApp(
        session,
        heading,
        speak=speak,
        camera=camera if camera is not None else _camera(args, settings),
        chord_window=args.chord_window,
        notes=shown,
        clock=clock,
        braille=braille,
        share=getattr(args, "share", None),
        scan_repeat=settings.scan_repeat,
    )


def braille_display(
    session: Session, args: argparse.Namespace, settings: SpeechSettings | None
) -> tuple[DisplayLink | None, list[str]]:
    """The braille display when `--braille-display` or the settings chose it (with what to say about it once:
    no BRLTTY answered, no contracted braille); (None, []) when it was not chosen."""
    from assistant.storage.settings import load_settings

    chosen = settings if settings is not None else load_settings()[0]
    if not (getattr(args, "braille_display", False) or chosen.braille_display):
        return None, []
    from assistant.ui.braille_display import open_link

    grade = getattr(args, "braille_grade", None) or chosen.braille_grade
    return open_link(session, grade, six_key=chosen.braille_six_key)


def run(args: argparse.Namespace) -> int:
    """Start the Textual app; with `--plain`, or no terminal, run line by line; `--script FILE` replays a file;
    `--resume` continues the last saved game first."""
    script = getattr(args, "script", None)
    lines = _read_script(script) if script else None
    if script and lines is None:
        return 2
    from assistant.storage.settings import load_settings

    settings, settings_notice = load_settings()  # read once: a damaged file is set aside, and said, here
    notices = [settings_notice] if settings_notice else []
    if getattr(args, "braille_display", False) or settings.braille_display:  # taken first: no key typed on it lost
        from assistant.braille.display import connect_early, wait_early

        connect_early()
        wait_early()
    holder = _claim_games()
    if isinstance(holder, str):  # the lock cannot be taken: read-only too, with the reason (it fails closed)
        notices.append(games_lock_notice(holder))
    elif holder is not None:  # another window holds the saved games: this one reads them and records nothing
        notices.append(games_held_notice(holder))
    else:  # an empty save, or a pipe or device among the saves: named, and set aside
        from assistant.storage.saves import GameStore

        notices.extend(GameStore().set_aside_unusable())
    if lines is None and not args.plain and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(NO_TERMINAL, file=sys.stderr)
        return 0
    from assistant.storage.paths import user_data_dir
    from assistant.ui.terminal import native_output_to_log

    with native_output_to_log(user_data_dir() / NATIVE_LOG):  # no native library's text on her screen
        if lines is not None or args.plain:
            return _run_plain_mode(args, settings, notices, lines, offer=script is None)
        return _run_app(args, settings, notices)


def _run_app(args: argparse.Namespace, settings: SpeechSettings, notices: list[str]) -> int:
    """The Textual app, its speaker closed (and its sound with it) however it ends."""
    speaker, notes = _speaker(args, settings)
    try:  # the heading is said; the notes (the speech engine chosen, or why it is off) are only written
        app = make_app(args, speaker, settings=settings, notices=notices, shown=notes)
        if speaker is not None:
            speaker.players, speaker.names = app.session.players, app.session.lobby.sentence_names
            speaker.service.say(app.heading)
        app.run()
        if app.crashed is not None:  # to the last guard: the crash log and one sentence, never a traceback
            raise app.crashed
    finally:
        close_speaker(speaker)
    return 0


def close_speaker(speaker: ReplySpeaker | None) -> None:
    """The app's quit: the sound device's mixers first (bounded: a stream stuck in a device is abandoned, so the
    process ends whatever the device does), then the speech service."""
    if speaker is None:
        return
    from assistant.speech.mixer import close_shared_mixers

    close_shared_mixers()
    speaker.close()


def _read_script(script: str) -> list[str] | None:
    """The lines of a script file (`--script FILE`), or None when it cannot be read or is too large (said on
    stderr)."""
    try:
        with open(script, "rb") as source:  # a pipe is read too; a device such as /dev/zero stops at the limit
            data = source.read(MAX_SCRIPT_BYTES + 1)
    except OSError as exc:
        print(script_unreadable(script, exc), file=sys.stderr)
        return None
    if len(data) > MAX_SCRIPT_BYTES:
        print(script_too_large(script, MAX_SCRIPT_BYTES), file=sys.stderr)
        return None
    return data.decode("utf-8", errors="replace").splitlines()  # a stray byte: one line's U+FFFD


def _run_plain_mode(
    args: argparse.Namespace, settings: SpeechSettings, notices: list[str], lines: list[str] | None, *, offer: bool
) -> int:
    """The plain line mode: the lines of a script (`lines`), or lines typed at a terminal or piped in; `notices` are
    said first, `offer` offers to resume the last game."""
    from functools import partial

    from assistant.speech.reader_stop import ReaderStop
    from assistant.ui.plain import PROMPT, PROMPTED, edited_lines, run_plain

    session = make_session(args, settings)
    first = opening(session, args, notices, offer=offer)
    braille, braille_notes = braille_display(session, args, settings)
    if braille_notes:  # said once, before anything else
        first = first.before(*braille_notes) if first is not None else Reply.of(*braille_notes, important=True)

    # Speech only for a person at a terminal: piped input is a script, and nobody listens to it (a transcript
    # is still written, by a silent speaker). A screen reader at the terminal reads the printed lines itself
    # (Orca, Speakup, NVDA, VoiceOver): printed only, or every answer would be heard twice; its earcons still play.
    listening = lines is None and sys.stdin.isatty() and sys.stdout.isatty()
    reader = plain_reader(args, settings) if listening else ""
    speaker, notes = _speaker(args, settings, silent=not listening, reader=reader)
    if reader:
        from assistant.core.words.voice import plain_left_to

        notes = [plain_left_to(reader), *notes]
    session.retune, session.about = retuner(speaker), describer(speaker)
    if speaker is not None:  # a later notice (a player that failed) is one line on stderr, like these
        speaker.attach(PROMPTED.notice)  # (on a line of its own, never after the prompt)
        speaker.players, speaker.names = session.players, session.lobby.sentence_names
    # (a question her reader is reading, closed by another hand's move: her reader told to stop, `run_plain`)
    reader_stop = ReaderStop() if reader and lines is None else None
    try:  # the notes (the speech engine chosen) are printed after the greeting: the first words are the app's
        share = getattr(args, "share", None)
        if lines is not None:
            return run_plain(
                session, lines, echo=True, first=first, speak=speaker, display=braille, share=share, notes=notes
            )
        prompt = PROMPT if listening else ""
        read = bool(reader)  # (her reader reads the printed lines: other hands' moves are said once, `run_plain`)
        plain = partial(run_plain, session, first=first, speak=speaker, display=braille, share=share, notes=notes,
                        reader=read, stop_reader=reader_stop)  # fmt: skip
        if sys.stdin.isatty():  # typed by a person: line editing and history (readline prints the prompt)
            return plain(edited_lines(prompt))
        return plain(prompt=prompt)
    finally:
        if reader_stop is not None:
            reader_stop.close()
        close_speaker(speaker)
        if braille is not None:
            braille.close()


def plain_reader(
    args: argparse.Namespace, settings: SpeechSettings, find_reader: Callable[[], str] | None = None
) -> str:
    """The screen reader that reads the plain mode's printed lines aloud, so the plain mode does not speak them: one
    found running where the app would speak through it (`speech = auto`, or `speech = screen-reader`); "" when
    none runs, or the own voice or silence was chosen. `find_reader` stands for the search (tests)."""
    from assistant.speech import SCREEN_READER, speech_route

    way, reader = speech_route(settings, getattr(args, "no_speech", False), find_reader=find_reader)
    return reader if way == SCREEN_READER else ""


def _claim_games() -> int | str | None:
    """Hold the saved games for this process (one writer per home); the holder's process id when another has them."""
    from assistant.storage.lock import claim
    from assistant.storage.saves import games_dir

    return claim(games_dir())


def _speaker(
    args: argparse.Namespace, settings: SpeechSettings, silent: bool = False, reader: str = ""
) -> tuple[ReplySpeaker | None, list[str]]:
    from assistant.commands.say import reply_speaker

    return reply_speaker(args, silent=silent, settings=settings, reader=reader)


def _camera(args: argparse.Namespace, settings: SpeechSettings | None = None) -> Callable[[], FrameSource] | None:
    """The function that opens the app's camera, or None with `--no-camera` or `camera = false` in the settings
    (typed input only; `settings` None: read from the file); with `--camera-clip FILE`, that recorded clip played as
    the camera."""
    from assistant.storage.settings import load_settings

    if getattr(args, "no_camera", False):
        return None
    if clip := getattr(args, "camera_clip", None):  # asked for by name: the settings' `camera = false` is for a webcam
        from pathlib import Path

        from assistant.scanner.sources import clip_opener

        return clip_opener(Path(clip))
    if not (settings if settings is not None else load_settings()[0]).camera:
        return None
    from assistant.scanner.live import camera_opener

    return camera_opener(getattr(args, "camera", 0) or 0)

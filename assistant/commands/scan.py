"""`table-assistant scan PATH... [--json] [--frames] [--deck ID]` and `table-assistant scan --camera [N]`.

Files: for each image or video (folders are opened to their images and videos), the payloads read, the cards
they name and the decoding time. A video's payloads are those of all its frames; `--frames` lists each frame.
`--json` prints one JSON object per file (and per frame with `--frames`), one per line. The camera: each card
is printed, and spoken when speech is available, as it is read; aiming cues are printed too.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.commands.helptext import described
from assistant.core.words.scans import (
    CAMERA_BACK,
    NEED_OPENCV,
    SCAN_NOTHING_GIVEN,
    SCANNING_LIVE,
    camera_opened,
    scan_file_summary,
    scan_frame_summary,
    scan_other_deck_line,
    scan_payload_line,
    scan_progress,
    scan_unknown_deck_line,
)

#: A video says how far its scan has gone every so many frames (600 frames take about 20 s).
PROGRESS_EVERY = 100

if TYPE_CHECKING:
    from assistant.core.cards.card import CardSet
    from assistant.core.scanning.payloads import ScannedPayload
    from assistant.scanner.decoders import Cascade
    from assistant.scanner.live import LiveEvent
    from assistant.scanner.sources import FrameSource
    from assistant.speech.replies import ReplySpeaker


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser(
        "scan",
        help="read card QR codes from images, videos or the camera",
        **described(
            description=(
                "Read card QR codes from image or video files (a folder: its images and videos), or live from a "
                "camera: each card read is printed, and spoken from the camera when speech is available."
            ),
            examples=[
                ("table-assistant scan photo.jpg", "the codes in one photo, and the cards they name"),
                ("table-assistant scan --json --frames clip.mp4", "every frame of a video, as JSON"),
                ("table-assistant scan --camera", "live from the first camera, with aiming cues"),
            ],
        ),
    )
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="image or video files, or folders")
    parser.add_argument("--json", action="store_true", help="one JSON object per file (per frame with --frames)")
    parser.add_argument("--frames", action="store_true", help="for videos: list every frame")
    parser.add_argument(
        "--camera",
        dest="scan_camera",
        nargs="?",
        type=int,
        const=0,
        default=None,
        metavar="N",
        help="scan live from camera N (0)",
    )
    parser.add_argument(
        "--confirm", type=int, default=2, metavar="N", help="frames a code must be read in before it is announced (2)"
    )
    parser.add_argument("--no-guidance", action="store_true", help="with --camera: no aiming cues")
    # Also accepted after the sub-command (`scan --camera 7 --no-speech`); SUPPRESS keeps the one given before it.
    parser.add_argument("--no-speech", action="store_true", default=argparse.SUPPRESS, help="do not speak")
    parser.add_argument(
        "--deck", dest="scan_deck", metavar="ID", help="the deck whose cards payloads are matched against"
    )


def run(args: argparse.Namespace) -> int:
    """Scan the files or the camera; 0 when everything could be read, 1 when a file could not, 2 on bad use."""
    from assistant.storage.decks import DEFAULT_DECK, load_card_set

    deck = getattr(args, "scan_deck", None) or getattr(args, "deck", None) or DEFAULT_DECK
    cards = load_card_set(deck, getattr(args, "addon", []) or [])
    if args.scan_camera is not None:
        return _scan_camera(args, cards)
    if not args.paths:
        print(SCAN_NOTHING_GIVEN, file=sys.stderr)
        return 2
    from assistant.scanner.decoders import Cascade, load_opencv

    if load_opencv() is None:
        print(NEED_OPENCV, file=sys.stderr)
        return 1
    cascade = Cascade(budget_ms=None)  # files are not live: every retry may run
    for notice in cascade.take_notices():
        print(notice, file=sys.stderr)
    if not cascade.can_decode:  # "no code" in every file would be a lie: nothing could have been read
        return 1
    status = 0

    def progress(path: str, frames: int, codes: int) -> None:
        print(scan_progress(path, frames, codes), file=sys.stderr, flush=True)

    for result in scan_paths(args.paths, cards, cascade, per_frame=args.frames, progress=progress):
        if "error" in result:
            status = 1
            if args.json:
                print(json.dumps({"path": result["path"], "error": result["error"]}))
            else:
                print(result["error"], file=sys.stderr)
            continue
        if args.json:
            print(json.dumps(_public(result)))
            continue
        names = [card.name for card in map(cards.get, result["cards"]) if card is not None]
        if "frame" in result:
            print(scan_frame_summary(result["frame"], len(result["payloads"]), names, result["decode_ms"]))
            continue
        print(scan_file_summary(result["path"], len(result["payloads"]), names, result["decode_ms"]))
        for payload in result["payloads"]:
            print(scan_payload_line(payload))
            other = _other_deck_line(payload, cards)
            if other:
                print(other)
    return status


def _other_deck_line(payload: str, cards: CardSet) -> str:
    """For a label of a deck that is not in play, the line naming its deck (and card) among the shipped decks and
    the owner's imports; "" for any other payload."""
    from assistant.core.scanning.payloads import PayloadKind, resolve_payload, short_code
    from assistant.storage.decks import load_all_decks

    meaning = resolve_payload(payload, cards)
    if meaning.kind is not PayloadKind.LABEL or meaning.deck_in_play:
        return ""
    decks, _ = load_all_decks()
    for deck in decks:
        if meaning.deck in (deck.id, short_code(deck.id)):
            card = next((c for c in deck.cards if meaning.card_id in (c.id, short_code(c.id))), None)
            return scan_other_deck_line(deck.info.title, deck.id, card.name if card is not None else "")
    return scan_unknown_deck_line()


def _public(result: dict[str, Any]) -> dict[str, Any]:
    """The JSON object of a file or frame. Payloads are given whole: JSON with ASCII escapes carries any payload
    (escape sequences, control characters) as inert text, so nothing reaches the terminal raw."""
    out = {"path": result["path"]}
    if "frame" in result:
        out["frame"] = result["frame"]
    out["payloads"] = list(result["payloads"])
    out["cards"] = result["cards"]
    out["decode_ms"] = round(result["decode_ms"], 2)
    if "frames" in result:
        out["frames"] = result["frames"]
    return out


def scan_paths(
    paths: list[Path],
    cards: CardSet,
    cascade: Cascade,
    per_frame: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """Per file (and per frame of a video when `per_frame`), a dict: path, payloads, cards, decode_ms; or path
    and error (a sentence) for a file that cannot be read. `progress(path, frames, codes)` is told every
    `PROGRESS_EVERY` frames of a video how far it has gone."""
    from assistant.core.scanning.payloads import resolve_payload
    from assistant.scanner.sources import SourceError, open_file, scan_targets

    for target in scan_targets(paths):
        if isinstance(target, SourceError):
            yield {"path": "", "error": target.sentence}
            continue
        try:
            source = open_file(target)
        except SourceError as exc:
            yield {"path": str(target), "error": exc.sentence}
            continue
        payloads: list[str] = []
        total = 0.0
        frames = 0
        try:
            while True:
                try:
                    frame = source.read()
                except SourceError as exc:
                    yield {"path": str(target), "error": exc.sentence}
                    break
                if frame is None:
                    break
                start = time.perf_counter()
                found = cascade.decode(frame.image)
                elapsed = (time.perf_counter() - start) * 1000
                total += elapsed
                frames += 1
                texts = [d.payload for d in found]
                if per_frame and _is_video(source):
                    yield {
                        "path": str(target),
                        "frame": frame.index,
                        "payloads": texts,
                        "cards": _card_ids(texts, cards, resolve_payload),
                        "decode_ms": elapsed,
                    }
                payloads.extend(t for t in texts if t not in payloads)
                if progress is not None and frames % PROGRESS_EVERY == 0 and _is_video(source):
                    progress(str(target), frames, len(payloads))
        finally:
            source.close()
        if frames == 0:
            continue
        result: dict[str, Any] = {
            "path": str(target),
            "payloads": payloads,
            "cards": _card_ids(payloads, cards, resolve_payload),
        }
        result["decode_ms"] = total
        if _is_video(source):
            result["frames"] = frames
        yield result


def _is_video(source: FrameSource) -> bool:
    from assistant.scanner.sources import VideoFile

    return isinstance(source, VideoFile)


def _card_ids(
    payloads: list[str], cards: CardSet, resolve_payload: Callable[[str, CardSet], ScannedPayload]
) -> list[str]:
    ids = []
    for payload in payloads:
        card = resolve_payload(payload, cards).card
        if card is not None and card.id not in ids:
            ids.append(card.id)
    return ids


def _scan_camera(args: argparse.Namespace, cards: CardSet) -> int:
    """Scan live until Ctrl+C: print (and speak) each card and each aiming cue."""
    from assistant.core.scanning.sightings import SightingTracker
    from assistant.scanner.known import KnownLabels
    from assistant.scanner.live import (
        CodeAnnounced,
        CueGiven,
        LiveScanner,
        ScannerNotice,
        SourceBack,
        SourceLost,
        camera_opener,
    )
    from assistant.scanner.rest import repeat_seconds
    from assistant.scanner.stage_process import ProcessStage
    from assistant.session import Session
    from assistant.storage.settings import load_settings

    session = Session(cards)
    speak = _speaker(args)
    settings, damaged = load_settings()  # a damaged file is set aside and said, as at the app's start
    if damaged:
        print(damaged, file=sys.stderr, flush=True)

    def report(event: LiveEvent) -> None:
        if isinstance(event, CodeAnnounced):
            reply = session.card_desk.scanned(event.payload)
        elif isinstance(event, CueGiven):
            reply = session.card_desk.aiming(event.cue)
        elif isinstance(event, (SourceLost, ScannerNotice)):
            reply = session.notice(event.sentence)
        elif isinstance(event, SourceBack):
            reply = session.notice(CAMERA_BACK)
        else:
            return
        for line in reply.lines:
            print(line, flush=True)
        if speak is not None:
            speak(reply)

    scanner = LiveScanner(
        camera_opener(args.scan_camera),
        report,
        # A card lying still is said once, as in the app (`rest`): again after the settings' `scan_repeat` seconds,
        # or TABLE_ASSISTANT_SCAN_REPEAT's (before, every 10 s, the tracker's own cooldown).
        tracker=SightingTracker(confirm_frames=max(1, args.confirm), cooldown=repeat_seconds(settings.scan_repeat)),
        guidance=not args.no_guidance,
        background=ProcessStage(known=KnownLabels(lambda: session.cards.decks)),  # the retries off the loop
    )
    if not scanner.cascade.can_decode:  # the notice was said; a camera nothing can be read from is no use
        _close(speak)
        return 1
    if not scanner.open():
        _close(speak)
        return 1
    print(camera_opened(args.scan_camera), flush=True)
    print(SCANNING_LIVE, flush=True)
    try:
        scanner.run()
    except KeyboardInterrupt:
        scanner.stop()
    finally:
        scanner._close()
        _close(speak)
    return 0


def _speaker(args: argparse.Namespace) -> ReplySpeaker | None:
    """The speech of the app when the speech package offers it and it is wanted; None otherwise."""
    try:
        from assistant.commands.say import reply_speaker
    except ImportError:
        return None
    try:
        speaker, notes = reply_speaker(args)
    except Exception:  # speech is a bonus here: printing carries on without it
        return None
    for note in notes:
        print(note, file=sys.stderr)
    return speaker


def _close(speak: ReplySpeaker | None) -> None:
    if speak is not None and hasattr(speak, "close"):
        speak.close()

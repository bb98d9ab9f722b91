"""A pyttsx3 engine in a process of its own, so that a second voice of the same driver (the table voice, the
headphones' voice) never shares the app's engine: pyttsx3's espeak-ng driver keeps its voice, rate and callback in
the library's global state, one per process.

Started by `Pyttsx3Backend` as `python -m assistant.speech.engine_process SETTINGS` (JSON: driver, rate, voice,
volume, apart_from). Each line on stdin is a JSON request `{"text", "path", "rate"}`; each answer, one line on
stdout: `{"done": true}` or `{"error": sentence}`, with `"notices"` (sentences for the player) once. It ends when
its stdin closes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO

from assistant.speech.backends import BackendUnavailable, Pyttsx3Engine, SpeechError


def serve(settings: dict, requests: IO[str], answers: IO[str]) -> None:
    """Open the engine with `settings` and answer every request until `requests` ends."""
    engine = Pyttsx3Engine(
        settings["driver"],
        rate=settings["rate"],
        voice=settings["voice"],
        volume=settings["volume"],
        apart_from=settings["apart_from"],
        pitch=settings.get("pitch", 50),
    )
    failure = ""
    try:
        engine.open()
    except BackendUnavailable as exc:
        failure = str(exc)
    notices = engine.notices
    for line in requests:
        request = json.loads(line)
        answer: dict = {"error": failure} if failure else {}
        if not failure:
            try:
                engine.render(
                    request["text"], Path(request["path"]), request["rate"], request.get("volume"), request.get("pitch")
                )
                answer = {"done": True}
            except SpeechError as exc:
                answer = {"error": str(exc)}
        if notices:
            answer["notices"], notices = notices, []
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def main() -> None:
    """Serve on stdin and stdout; the driver's own prints go to stderr, never into the answers."""
    answers = sys.stdout
    sys.stdout = sys.stderr
    serve(json.loads(sys.argv[1]), sys.stdin, answers)


if __name__ == "__main__":
    main()

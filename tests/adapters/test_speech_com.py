"""COM on the threads that call into a Windows screen reader: JAWS is reached through COM, which each thread must
initialise before its first call. The speech worker speaks and the app's thread silences, so both do. Windows
cannot run here: `CoInitializeEx` is stood in for by a recorder of the threads that called it, and the reader by an
output that checks, at each call, that its thread has initialised COM."""

from __future__ import annotations

import threading

from assistant.speech.readers import COINIT_MULTITHREADED, ScreenReaderBackend, com_initialiser
from assistant.speech.service import SpeechService


class Ole32:
    """Records each thread's CoInitializeEx."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, object, int]] = []

    def co_initialize_ex(self, reserved, flags) -> int:
        self.calls.append((threading.get_ident(), reserved, flags))
        return 0  # S_OK

    @property
    def threads(self) -> set[int]:
        return {thread for thread, _, _ in self.calls}


class ComReader:
    """A screen reader reached through COM: every call must come from a thread that initialised COM."""

    name = "JAWS"

    def __init__(self, ole32: Ole32) -> None:
        self.ole32 = ole32
        self.spoken: list[tuple[str, int]] = []
        self.silenced: list[int] = []

    def is_system_output(self) -> bool:
        return False

    def is_active(self) -> bool:
        assert threading.get_ident() in self.ole32.threads, "COM was not initialised on this thread"
        return True

    def speak(self, text, interrupt=False) -> None:
        assert threading.get_ident() in self.ole32.threads, "COM was not initialised on this thread"
        self.spoken.append((text, threading.get_ident()))

    def silence(self) -> None:
        assert threading.get_ident() in self.ole32.threads, "COM was not initialised on this thread"
        self.silenced.append(threading.get_ident())


def test_com_is_initialised_once_on_each_thread_on_windows_and_never_elsewhere():
    ole32 = Ole32()
    initialise = com_initialiser("win32", ole32.co_initialize_ex)
    initialise()
    initialise()  # the same thread: once
    other = threading.Thread(target=initialise)
    other.start()
    other.join()
    assert [(reserved, flags) for _, reserved, flags in ole32.calls] == [(None, COINIT_MULTITHREADED)] * 2
    assert len(ole32.threads) == 2
    elsewhere = Ole32()
    com_initialiser("darwin", elsewhere.co_initialize_ex)()
    com_initialiser("linux", elsewhere.co_initialize_ex)()
    assert elsewhere.calls == []


def test_the_speech_worker_and_the_apps_thread_each_initialise_com_before_calling_the_reader():
    ole32 = Ole32()
    reader = ComReader(ole32)
    backend = ScreenReaderBackend(lambda: [reader], com=com_initialiser("win32", ole32.co_initialize_ex))
    service = SpeechService(backend)
    try:
        assert service.ready.wait(60), service.notices
        service.say("Your turn, Ana.")
        assert service.wait_idle(60)
        service.stop()  # Escape: from this thread, the app's
    finally:
        service.close()
    assert [text for text, _ in reader.spoken] == ["Your turn, Ana."]
    worker = reader.spoken[0][1]
    assert worker != threading.get_ident()  # spoken on the speech worker's thread
    assert threading.get_ident() in reader.silenced  # silenced from the app's thread
    assert {worker, threading.get_ident()} <= ole32.threads

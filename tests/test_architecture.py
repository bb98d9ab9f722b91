"""The layer rules of docs/architecture.md, checked on the source: every import statement of every module (those
inside functions too) is read with `ast` and must point where its layer may import. Also: importing the core or
the command line stays cheap (no heavy library loaded), checked in a fresh interpreter."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import assistant

PACKAGE = Path(assistant.__path__[0])
ROOT = PACKAGE.parent
ADAPTERS = ("braille", "scanner", "share", "speech", "storage")
#: The session layer's modules: the session and the desks it holds (its cards and scanning, its phones).
SESSION = ("session", "card_desk", "phone_desk")
HEAVY = ["aiohttp", "zeroconf", "textual", "cv2", "zxingcpp", "pyzbar", "pyttsx3", "louis", "rapidfuzz", "numpy",
         "platformdirs"]  # fmt: skip


@dataclass(frozen=True)
class Layer:
    """One row of the layer table: which files, and what they may import."""

    name: str
    files: tuple[str, ...]
    """Paths under `assistant/`: a folder ends with `/`."""
    may_import: tuple[str, ...]
    """Kinds of import (see `kind_of`): stdlib, core, itself, third-party, lazy third-party, anything."""


#: The rules, in the order docs/architecture.md lists them (the doc's table is compared with this one).
LAYERS = (
    Layer("core", ("core/",), ("stdlib", "core")),
    Layer("adapters", tuple(f"{name}/" for name in ADAPTERS), ("stdlib", "core", "itself", "lazy third-party")),
    Layer("session", tuple(f"{name}.py" for name in SESSION), ("stdlib", "core", "itself")),
    Layer("package", ("__init__.py",), ("stdlib",)),
    Layer("outer", ("ui/", "commands/", "cli.py", "__main__.py"), ("anything",)),
)


def layer_of(relative: str) -> Layer:
    """The layer of a module, by its path under `assistant/`."""
    for layer in LAYERS:
        if any(relative == f or (f.endswith("/") and relative.startswith(f)) for f in layer.files):
            return layer
    raise LookupError(f"assistant/{relative} belongs to no layer: add it to docs/architecture.md and LAYERS")


def part_of(module: str) -> str:
    """Which part of the project a dotted module name is: core, braille, …, session, ui, or "" outside it."""
    parts = module.split(".")
    if parts[0] != "assistant":
        return ""
    return parts[1] if len(parts) > 1 else "package"


def kind_of(imported: str, importer: str) -> str:
    """What an import is, seen from the module `importer` (dotted): stdlib, core, itself, third-party, or the part
    of the project it reaches (braille, session, ui, …)."""
    top = imported.split(".")[0]
    if top == "assistant":
        part = part_of(imported)
        if part == "core":
            return "core"
        if part in SESSION and part_of(importer) in SESSION:  # the session and the desks it holds
            return "itself"
        return "itself" if part == part_of(importer) and part in ADAPTERS else part
    if top in sys.stdlib_module_names or top == "__future__":
        return "stdlib"
    return "third-party"


def imports_of(tree: ast.Module, module: str) -> list[tuple[int, str, bool]]:
    """Every import of a module as (line, dotted name, at import time): statements anywhere in the file, relative
    ones made absolute, and `importlib.import_module("...")` with a literal name. Imports under
    `if TYPE_CHECKING:` are for the type checker only and are left out; those inside a function run only when it
    is called."""
    found: list[tuple[int, str, bool]] = []
    package = module if module.endswith("__init__") else module.rsplit(".", 1)[0]
    package = package.removesuffix(".__init__")

    def visit(node: ast.AST, eager: bool) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child, eager)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, eager) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base == "assistant":  # `from assistant import storage` reaches the part it names
                found.extend((node.lineno, f"assistant.{alias.name}", eager) for alias in node.names)
            else:
                found.append((node.lineno, base, eager))
        elif isinstance(node, ast.Call) and ast.unparse(node.func) in ("importlib.import_module", "__import__"):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value, eager))
        inner = eager and not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, True)
    return found


def offences(path: Path, relative: str) -> list[str]:
    """What a module imports against its layer's rule, as `file:line: name (why)`."""
    layer = layer_of(relative)
    if "anything" in layer.may_import:
        return []
    module = "assistant." + relative.removesuffix(".py").replace("/", ".")
    out = []
    for line, name, eager in imports_of(ast.parse(path.read_text(encoding="utf-8")), module):
        kind = kind_of(name, module)
        if kind in layer.may_import or (kind == "third-party" and "lazy third-party" in layer.may_import and not eager):
            continue
        why = "at import time" if kind == "third-party" and "lazy third-party" in layer.may_import else kind
        out.append(f"assistant/{relative}:{line}: {name} ({layer.name} may not import {why})")
    return out


def all_offences() -> list[str]:
    """Every offence in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += offences(path, path.relative_to(PACKAGE).as_posix())
    return found


def test_every_module_follows_its_layer_rule():
    assert all_offences() == []


def test_every_module_belongs_to_a_layer():
    unplaced = []
    for path in PACKAGE.rglob("*.py"):
        try:
            layer_of(path.relative_to(PACKAGE).as_posix())
        except LookupError as exc:
            unplaced.append(str(exc))
    assert unplaced == []


def layer_table() -> list[str]:
    """The rows docs/architecture.md must show."""
    rows = ["| layer | files | may import |", "| --- | --- | --- |"]
    for layer in LAYERS:
        files = ", ".join(f"`assistant/{f}`" for f in layer.files)
        rows.append(f"| {layer.name} | {files} | {', '.join(layer.may_import)} |")
    return rows


def test_the_doc_shows_the_rules_this_test_checks():
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines()
    start = doc.index(layer_table()[0])
    assert doc[start : start + len(LAYERS) + 2] == layer_table()


def test_the_checker_catches_each_kind_of_offence(tmp_path):
    """Planted offences, one per rule, in fake files of each layer: each is found, with its line."""
    planted = {
        "braille/bad.py": "import os\nimport numpy\n\n\ndef f():\n    from assistant.storage.paths import x\n"
        "    import cv2\n    from . import maps\n    from ..scanner import live\n",
        "core/bad.py": "from assistant.speech import y\n\n\ndef g():\n    import textual\n",
        "session.py": "import importlib\nimportlib.import_module('assistant.storage.saves')\n"
        "from assistant import core, ui\n",
        "storage/ok.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from assistant.braille import z\n",
    }
    found = []
    for relative, text in planted.items():
        path = tmp_path / relative.replace("/", "_")
        path.write_text(text)
        found += offences(path, relative)
    assert found == [
        "assistant/braille/bad.py:2: numpy (adapters may not import at import time)",
        "assistant/braille/bad.py:6: assistant.storage.paths (adapters may not import storage)",
        "assistant/braille/bad.py:9: assistant.scanner (adapters may not import scanner)",
        "assistant/core/bad.py:1: assistant.speech (core may not import speech)",
        "assistant/core/bad.py:5: textual (core may not import third-party)",
        "assistant/session.py:2: assistant.storage.saves (session may not import storage)",
        "assistant/session.py:3: assistant.ui (session may not import ui)",
    ]


def _loaded_after(statement: str) -> list[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return result.stdout.split()


def test_core_imports_only_the_standard_library():
    import pkgutil

    import assistant.core

    # the prefix makes the walk import sub-packages by their full names (without it, `words` could be tests/words)
    modules = [m.name for m in pkgutil.walk_packages(assistant.core.__path__, "assistant.core.")]
    assert modules, "the core has modules"
    statement = "; ".join(f"import {m}" for m in modules)
    assert _loaded_after(statement) == []


def test_importing_the_package_and_cli_loads_no_adapter_library():
    assert _loaded_after("import assistant, assistant.cli; assistant.cli.build_parser()") == []


def module_of(path: Path) -> str:
    """The dotted name of a module of the package, from its path."""
    return "assistant." + path.relative_to(PACKAGE).as_posix().removesuffix(".py").replace("/", ".").removesuffix(
        ".__init__"
    )


def project_imports() -> dict[str, set[str]]:
    """Which modules of the package each module imports, anywhere in the file and for the type checker too (a
    circle is a circle of design even when one side imports only under `if TYPE_CHECKING:`); `from package import
    module` counts as importing that module."""
    modules = {module_of(path) for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                targets.add(node.module)
                targets.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[module_of(path)] = {t for t in targets if t in modules and t != module_of(path)}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another round a circle (strongly connected, more than one)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_circle_of_imports():
    assert cycles(project_imports()) == []


def test_the_circle_finder_finds_a_planted_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


#: Domains below the game: braille and cards never reach the engine (the game, the command language), even through
#: another module.
LOW_DOMAINS = ("assistant.core.braille", "assistant.core.cards", "assistant.core.text", "assistant.core.datatext")
ENGINE = ("assistant.core.game", "assistant.core.language")


def reached_from(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module a module imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_braille_and_cards_never_import_the_game_engine():
    graph = project_imports()
    offences = [
        f"{module} reaches {reached}"
        for module in sorted(graph)
        if module.startswith(LOW_DOMAINS)
        for reached in sorted(reached_from(graph, module))
        if reached.startswith(ENGINE)
    ]
    assert offences == []


#: The core's domains, lowest first: a module may import its own domain and those before it, never one after it
#: (so no two domains import each other). The sentences (`words`) sit above what they phrase (the cards, braille,
#: the game) and below the command language that says them; a lower domain hands `words` typed values (six-key
#: entry's `Echo`, a card the import refuses, `CardNotLearned`), never text.
DOMAIN_ORDER = ("text", "datatext", "cards", "braille", "scanning", "game", "words", "language", "speech")


def domain_of(module: str) -> str | None:
    """The core domain of a dotted module name (`assistant.core.cards.card` is cards), None outside the core."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["assistant", "core"] and len(parts) > 2 else None


def back_edges(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a core domain to one after it in `DOMAIN_ORDER` (or to a domain it does not list)."""
    found = []
    for module in sorted(graph):
        low = domain_of(module)
        for imported in sorted(graph[module]):
            high = domain_of(imported)
            if low is None or high is None or low == high:
                continue
            if low not in DOMAIN_ORDER or high not in DOMAIN_ORDER:
                found.append(f"{module} -> {imported} (a domain DOMAIN_ORDER does not list)")
            elif DOMAIN_ORDER.index(high) > DOMAIN_ORDER.index(low):
                found.append(f"{module} -> {imported} ({low} may not import {high})")
    return found


def test_the_core_domains_import_one_way_only():
    assert back_edges(project_imports()) == []


def test_the_domain_order_check_catches_a_back_edge():
    graph = {
        "assistant.core.words.entry": {"assistant.core.braille.celltable", "assistant.core.text"},
        "assistant.core.braille.sixkey": {"assistant.core.words.entry"},
        "assistant.core.cards.card": {"assistant.core.new.thing"},
        "assistant.core.new.thing": set(),
        "assistant.session": {"assistant.core.language.reply"},
    }
    assert back_edges(graph) == [
        "assistant.core.braille.sixkey -> assistant.core.words.entry (braille may not import words)",
        "assistant.core.cards.card -> assistant.core.new.thing (a domain DOMAIN_ORDER does not list)",
    ]


def test_six_key_entry_loads_no_game_module():
    code = "import sys, assistant.core.braille.sixkey; print(*(m for m in sys.modules if m.startswith('assistant.')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "assistant.core.braille.sixkey" in loaded
    assert [m for m in loaded if m.startswith(ENGINE)] == []


def test_no_assert_in_the_apps_own_code():
    """`python -O` drops every `assert`: a check the app relies on is a real error (narrow, with a message) or a
    condition, never an assert, so the app behaves the same however Python is run."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assert)
    ]
    assert found == []


#: A module past these does several things, and is split by subject, unless docs/architecture.md names it with the
#: most it may have and why. Functions are kept short by ruff's complexity rules (C901, PLR0915 in pyproject.toml),
#: which a module limit must never push against: a named step is never inlined to save lines.
#: A module's size is its statements (every `ast.stmt`, nested ones too), not its lines: docstrings are one statement
#: each and comments none, so the "why" of a line never counts against its module, and packing statements onto
#: fewer lines gains nothing. 600: the largest module today has 551, and the tree averages about 1.4 lines a
#: statement, so 600 is the 750 lines the limit was before, less nothing for comments; a module that needs more
#: mixes subjects (the share server's routes and guards once did, at 769 lines and 523 statements).
MAX_MODULE_STATEMENTS = 600
#: A class's size is the methods in its own body (properties, static methods and `__init__` counted): a class with
#: more than 30 holds more than one responsibility in the tree as it is (`Session` at 42 was three: the game, the
#: cards and the phones), and one that must keep them together says why in docs/architecture.md.
MAX_CLASS_METHODS = 30

_EXCEPTION = re.compile(
    r"^- `(?P<name>[\w/.]+)`(?: \(`(?P<path>[\w/.]+)`\))?, at most (?P<most>\d+) (?P<unit>methods|statements): \S"
)


def size_exceptions(doc: str) -> dict[str, tuple[str, int]]:
    """The modules and classes docs/architecture.md lets past the size limits, each with its unit and the most it
    may have: `Session` -> ("methods", 42), `session.py` -> ("statements", 650). A malformed line is an error."""
    block = doc.split("<!-- size-exceptions:", 1)[1].split("<!-- /size-exceptions -->", 1)[0]
    found: dict[str, tuple[str, int]] = {}
    for line in block.splitlines()[1:]:
        if line.startswith("- "):
            match = _EXCEPTION.match(line)
            assert match is not None, f"docs/architecture.md: not an exception line: {line}"
            found[match["name"]] = (match["unit"], int(match["most"]))
    return found


def size_offences(sources: dict[str, str], exceptions: dict[str, tuple[str, int]]) -> list[str]:
    """Modules over `MAX_MODULE_STATEMENTS` and classes over `MAX_CLASS_METHODS` with no exception or past its most,
    and exceptions that name no module or class past the limit (an exception outlived is taken out)."""
    found, used = [], set()
    for relative, text in sorted(sources.items()):
        tree = ast.parse(text)
        statements = sum(isinstance(node, ast.stmt) for node in ast.walk(tree))
        unit, most = exceptions.get(relative, ("statements", MAX_MODULE_STATEMENTS))
        if statements > MAX_MODULE_STATEMENTS:
            used.add(relative)
        if statements > most or unit != "statements":
            found.append(f"assistant/{relative}: {statements} statements (at most {most})")
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) for item in node.body)
                unit, most = exceptions.get(node.name, ("methods", MAX_CLASS_METHODS))
                if methods > MAX_CLASS_METHODS:
                    used.add(node.name)
                if methods > most or unit != "methods":
                    found.append(f"assistant/{relative}:{node.lineno}: {node.name}: {methods} methods (at most {most})")
    found += [f"docs/architecture.md: {name} is not past the limit" for name in sorted(set(exceptions) - used)]
    return found


def test_no_module_or_class_is_past_its_size_without_a_reason():
    sources = {path.relative_to(PACKAGE).as_posix(): path.read_text() for path in PACKAGE.rglob("*.py")}
    exceptions = size_exceptions((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    assert size_offences(sources, exceptions) == []


def test_the_size_check_catches_a_long_module_a_big_class_and_an_outlived_exception():
    big = "class Big:\n" + "".join(f"    def m{n}(self):\n        pass\n" for n in range(31))
    planted = {"ui/big.py": big, "ui/long.py": "x = 1\n" * 601, "ui/ok.py": "class Small:\n    def m(self): pass\n"}
    assert size_offences(planted, {}) == [
        "assistant/ui/big.py:1: Big: 31 methods (at most 30)",
        "assistant/ui/long.py: 601 statements (at most 600)",
    ]
    assert size_offences(planted, {"Big": ("methods", 31), "ui/long.py": ("statements", 610)}) == []
    exceptions = {"Big": ("methods", 31), "Small": ("methods", 40), "ui/long.py": ("statements", 610)}
    assert size_offences(planted, exceptions) == ["docs/architecture.md: Small is not past the limit"]


def test_the_size_check_counts_statements_not_comments_or_lines():
    """A module's "why" comments and docstrings never count against it, and packing statements onto fewer lines
    gains nothing: 2,000 lines of comments and a docstring with one statement is small; 601 statements packed two
    to a line are not."""
    explained = '"""A module.\n\nIts docstring, long."""\n' + "# why this is so\n" * 2000 + "x = 1\n"
    packed = "x = 1; y = 2\n" * 300 + "z = 3\n"
    assert size_offences({"ui/explained.py": explained, "ui/packed.py": packed}, {}) == [
        "assistant/ui/packed.py: 601 statements (at most 600)"
    ]
    doc = "<!-- size-exceptions: x -->\n- `Big` (`ui/big.py`), at most 31 methods: why.\n<!-- /size-exceptions -->"
    assert size_exceptions(doc) == {"Big": ("methods", 31)}


def ui_message_offences(sources: dict[str, str]) -> list[str]:
    """Where the app's messages are not in one typed module: a `Message` subclass outside `ui/messages.py`, or a
    handler (`on_...`) whose message has no type."""
    found = []
    for relative, text in sorted(sources.items()):
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and relative != "ui/messages.py":
                if any(ast.unparse(base).endswith("Message") for base in node.bases):
                    found.append(f"assistant/{relative}:{node.lineno}: message {node.name} outside ui/messages.py")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("on_"):
                untyped = [arg.arg for arg in node.args.args[1:] if arg.annotation is None]
                if untyped or node.returns is None:
                    found.append(f"assistant/{relative}:{node.lineno}: handler {node.name} not typed")
    return found


def test_the_apps_messages_are_typed_in_one_module():
    sources = {path.relative_to(PACKAGE).as_posix(): path.read_text() for path in (PACKAGE / "ui").rglob("*.py")}
    assert ui_message_offences(sources) == []


def test_the_message_check_catches_a_stray_message_and_an_untyped_handler():
    planted = {
        "ui/app.py": "class Noticed(Message):\n    pass\n\n\nclass A:\n    def on_noticed(self, message) -> None:\n"
        "        pass\n\n    def on_mount(self):\n        pass\n",
        "ui/messages.py": "class Fine(Message):\n    pass\n",
    }
    assert ui_message_offences(planted) == [
        "assistant/ui/app.py:1: message Noticed outside ui/messages.py",
        "assistant/ui/app.py:6: handler on_noticed not typed",
        "assistant/ui/app.py:9: handler on_mount not typed",
    ]


def private_imports(sources: dict[str, str]) -> list[str]:
    """Where a module imports a private name (`_name`) of another module of the package: what two modules share is
    public in the module that owns it (and in its `__all__`, where it has one)."""
    return [
        f"assistant/{relative}:{node.lineno}: {node.module}.{alias.name}"
        for relative, text in sorted(sources.items())
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("assistant")
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def test_no_module_imports_another_modules_private_name():
    sources = {path.relative_to(PACKAGE).as_posix(): path.read_text() for path in PACKAGE.rglob("*.py")}
    assert private_imports(sources) == []


def test_the_private_import_check_catches_one():
    planted = {"ui/app.py": "from assistant.core.words.gameplay import _a, area_of\nfrom os import _exit\n"}
    assert private_imports(planted) == ["assistant/ui/app.py:1: assistant.core.words.gameplay._a"]


#: The most event classes a module imports by name: a module that handles every kind of event imports the module
#: (`from assistant.core.game import events`, then `events.Play`), so the block of twenty and more names stands
#: nowhere (it stood in six modules, each a copy of the list of kinds; what a kind decides is `words.kinds.KINDS`).
MAX_EVENT_NAMES = 8


def event_name_blocks(sources: dict[str, str]) -> list[str]:
    """Where a module imports more than `MAX_EVENT_NAMES` names from the events module."""
    return [
        f"assistant/{relative}:{node.lineno}: {len(node.names)} names"
        for relative, text in sorted(sources.items())
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ImportFrom) and node.module == "assistant.core.game.events"
        if len(node.names) > MAX_EVENT_NAMES
    ]


def test_no_module_imports_the_event_classes_as_a_block_of_names():
    sources = {path.relative_to(PACKAGE).as_posix(): path.read_text() for path in PACKAGE.rglob("*.py")}
    assert event_name_blocks(sources) == []


def test_the_event_block_check_catches_one():
    names = ", ".join(f"E{n}" for n in range(MAX_EVENT_NAMES + 1))
    planted = {"core/words/a.py": f"from assistant.core.game.events import {names}\n", "core/words/b.py": "x = 1\n"}
    assert event_name_blocks(planted) == [f"assistant/core/words/a.py:1: {MAX_EVENT_NAMES + 1} names"]


def unused_exports(sources: dict[str, str], folder: str = "core/words/") -> list[str]:
    """The names a module of `folder` exports (`__all__`) that no code of the package uses: named only where it is
    made and in `__all__` (a sentence no one says, or one only a test says, ships dead)."""
    words = {where: Counter(re.findall(r"\w+", text)) for where, text in sources.items()}  # each file's words, once
    found = []
    for relative, text in sorted(sources.items()):
        if not relative.startswith(folder):
            continue
        exported = [
            name
            for node in ast.parse(text).body
            if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"]
            for name in ast.literal_eval(node.value)
        ]
        for name in exported:
            elsewhere = any(name in counts for where, counts in words.items() if where != relative)
            if not elsewhere and words[relative][name] <= 2:
                found.append(f"assistant/{relative}: {name}")
    return found


def test_every_name_a_words_module_exports_is_used_by_the_app():
    sources = {path.relative_to(PACKAGE).as_posix(): path.read_text() for path in PACKAGE.rglob("*.py")}
    assert unused_exports(sources) == []


def test_the_unused_export_check_catches_a_dead_sentence():
    planted = {
        "core/words/share.py": '__all__ = ["SAID", "DEAD", "said"]\nSAID = "x"\nDEAD = "y"\n\n\ndef said():\n'
        "    return SAID\n",
        "ui/app.py": "from assistant.core.words.share import said\n",
    }
    assert unused_exports(planted) == ["assistant/core/words/share.py: DEAD"]

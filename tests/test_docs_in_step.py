"""The docs and the code in step: docs/architecture.md's "Where things live" names every module of the package, and
every file the code's docstrings and comments cite (a docs page, a module's path) exists. Each check collects every
miss before failing, so one run lists them all."""

from __future__ import annotations

import re
from pathlib import Path

import assistant

PACKAGE = Path(assistant.__path__[0])
ROOT = PACKAGE.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def where_things_live(doc: str) -> list[tuple[set[str], str]]:
    """The rows of the doc's "Where things live" table: the folders (under the repository, ending with `/`) its
    first cell names, and the row's whole text."""
    section = doc.split("## Where things live", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        first = line.split(" | ", 1)[0]
        folders = {p if p.endswith("/") else p.rsplit("/", 1)[0] + "/" for p in re.findall(r"`([\w/.]+)`", first)}
        rows.append(({f for f in folders if f.startswith("assistant/")}, line))
    return rows


def unnamed_modules(doc: str, modules: list[str]) -> list[str]:
    """The modules (paths under the repository) the doc does not name: neither by their path anywhere, nor in a row
    of "Where things live" for their folder as `name.py` or as `name` (the sentence modules are named so)."""
    rows = where_things_live(doc)
    missing = []
    for module in modules:
        folder, name = module.rsplit("/", 1)
        stem = name.removesuffix(".py")
        named = re.compile(rf"(?<![\w/.]){re.escape(name)}\b|`{re.escape(stem)}`")
        in_row = any(folder + "/" in folders and named.search(text) for folders, text in rows)
        if not (in_row or f"`{module}`" in doc):
            missing.append(module)
    return missing


def package_modules() -> list[str]:
    """Every module of the package but the packages' own `__init__.py` (the top one is a layer of its own)."""
    return sorted(
        p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" or p.parent == PACKAGE
    )


def test_the_architecture_doc_names_every_module():
    doc = ARCHITECTURE.read_text(encoding="utf-8")
    missing = unnamed_modules(doc, package_modules())
    assert not missing, "docs/architecture.md, 'Where things live', does not name: " + ", ".join(missing)


def test_the_module_check_finds_a_module_left_out():
    doc = (
        "## Where things live\n\n| where | what |\n| --- | --- |\n"
        "| `assistant/core/words/` | every sentence: `announce`, `help` |\n"
        "| `assistant/speech/` | the service (`service.py`), earcons |\n\n## Next\n"
        "`assistant/session.py` and `assistant/core/words/pace.py`."
    )
    modules = [
        "assistant/core/words/announce.py",
        "assistant/core/words/help.py",
        "assistant/core/words/repeats.py",  # not named
        "assistant/core/words/pace.py",  # named by its path, outside the table
        "assistant/speech/service.py",
        "assistant/speech/earcons.py",  # its subject is said, not its file
        "assistant/session.py",
        "assistant/ui/service.py",  # a file of the same name, in a folder with no row
    ]
    assert unnamed_modules(doc, modules) == [
        "assistant/core/words/repeats.py",
        "assistant/speech/earcons.py",
        "assistant/ui/service.py",
    ]


def test_every_file_the_code_cites_exists():
    """A docs page (`docs/x.md`, `X.md`) or a module's path (`assistant/….py`) named in the package's source."""
    cited = re.compile(r"(?<![\w/.-])((?:docs/)?[\w-]+\.md|assistant/[\w/]+\.py)\b")
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name in cited.findall(line):
                target = ROOT / name if "/" in name else ROOT / "docs" / name
                if not target.exists() and not (ROOT / name).exists():
                    missing.append(f"{path.relative_to(ROOT)}:{number}: {name}")
    assert not missing, "cited, but no such file: " + "; ".join(missing)


def resolves(dotted: str) -> bool:
    """A dotted name names a module of the package or something in one (`words.x`: a sentence module, or what one
    of them makes)."""
    import importlib
    import pkgutil

    import assistant.core.words

    if dotted.startswith("words."):  # a sentence module, or a name one of them makes (its `__all__`)
        rest = dotted.removeprefix("words.")
        modules = [m.name for m in pkgutil.iter_modules(assistant.core.words.__path__)]
        made = [m for m in modules if rest in importlib.import_module(f"assistant.core.words.{m}").__all__]
        return resolves(f"assistant.core.words.{rest}") or bool(made)
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_every_dotted_name_the_code_cites_exists():
    """`assistant.x.y` or `words.x` in a docstring or comment names a module, or something in one, that is there."""
    cited = re.compile(r"`((?:assistant|words)\.[\w.]*\w)")
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            missing += [f"{path.relative_to(ROOT)}:{number}: {n}" for n in cited.findall(line) if not resolves(n)]
    assert not missing, "cited, but not there: " + "; ".join(missing)

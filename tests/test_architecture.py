"""The core stays pure, and importing the package stays cheap."""

import subprocess
import sys

HEAVY = ["textual", "cv2", "zxingcpp", "pyzbar", "pyttsx3", "louis", "rapidfuzz", "numpy", "platformdirs"]


def _loaded_after(statement: str) -> list[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return result.stdout.split()


def test_core_imports_only_the_standard_library():
    import pkgutil

    import assistant.core

    modules = [f"assistant.core.{m.name}" for m in pkgutil.walk_packages(assistant.core.__path__)]
    assert modules, "the core has modules"
    statement = "; ".join(f"import {m}" for m in modules)
    assert _loaded_after(statement) == []


def test_importing_the_package_and_cli_loads_no_adapter_library():
    assert _loaded_after("import assistant, assistant.cli; assistant.cli.build_parser()") == []


def test_core_source_imports_nothing_outside_the_core_and_stdlib():
    import ast
    import pathlib

    import assistant.core

    root = pathlib.Path(assistant.core.__path__[0])
    offenders = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top == "assistant" and not name.startswith("assistant.core"):
                    offenders.append(f"{path.name}: {name}")
                elif top != "assistant" and top not in sys.stdlib_module_names and top != "__future__":
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []

"""scripts/setup.sh as a user meets it: an unsupported Python, and no root.

The script runs from a copy of the repository's scripts folder, with programs of this machine's own names first on
PATH standing in for the system (`id`, `sudo`, `dpkg-query`, `apt-get`, `python3`): nothing is installed, and what
would have been run is recorded.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def program(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def checkout(tmp_path: Path, python_version: str) -> tuple[Path, dict[str, str], Path]:
    """A copy of the scripts and pyproject.toml, an environment whose PATH starts with the stand-ins, and the
    file apt-get calls are written to."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup.sh", repo / "scripts" / "setup.sh")
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")
    bin_dir, calls = tmp_path / "bin", tmp_path / "apt-calls"
    bin_dir.mkdir()
    program(bin_dir, "id", 'if [ "$1" = -u ]; then echo 1000; else echo "uid=1000(player)"; fi')
    program(bin_dir, "sudo", "exit 1")  # sudo that asks for a password: `sudo -n true` fails
    program(bin_dir, "dpkg-query", "exit 1")  # nothing installed
    program(bin_dir, "apt-get", f'echo "$@" >> "{calls}"')
    program(
        bin_dir,
        "python3",
        f'if [ "$1" = -c ]; then case "$2" in *version_info*) [ "{python_version}" \\> "3.10.99" ]; exit $?;; '
        f'*python_version*) echo {python_version}; exit 0;; esac; fi; exec "{sys.executable}" "$@"',
    )
    for name in ("python3.11", "python3.12", "python3.13"):
        program(bin_dir, name, "exit 127")  # not installed
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}
    return repo, env, calls


def test_an_old_python_is_said_clearly_and_nothing_is_installed(tmp_path):
    repo, env, calls = checkout(tmp_path, "3.10.12")
    done = subprocess.run(["bash", "scripts/setup.sh"], cwd=repo, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "needs Python 3.11 or newer; this machine has Python 3.10.12." in done.stdout
    assert not (repo / ".venv").exists() and not calls.exists()


def test_without_root_the_administrators_line_is_printed_and_the_set_up_goes_on(tmp_path):
    repo, env, calls = checkout(tmp_path, "3.11.7")
    # An environment made before: the set-up goes on to it with what is there.
    venv = repo / ".venv" / "bin"
    venv.mkdir(parents=True)
    program(venv, "python", f'echo "{tmp_path / "site"}"')
    (tmp_path / "site").mkdir()
    (repo / ".venv" / ".installed").touch()
    os.utime(repo / "pyproject.toml", (1, 1))
    done = subprocess.run(["bash", "scripts/setup.sh"], cwd=repo, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    admin = lines[lines.index("Some system packages are missing. Ask the administrator to run, as root:") + 1]
    assert admin.startswith("  apt-get update && apt-get install -y libzbar0 espeak-ng ")
    assert "sudo" not in done.stdout
    assert "tmux" not in admin and "sox" not in admin  # only the tests need those
    assert not calls.exists()  # nothing was tried as root
    assert lines[-1] == "Ready. Start the app with: .venv/bin/table-assistant   (or: bash scripts/run.sh)"


def test_the_tests_set_up_asks_for_the_test_only_packages_too(tmp_path):
    repo, env, _ = checkout(tmp_path, "3.11.7")
    venv = repo / ".venv" / "bin"
    venv.mkdir(parents=True)
    program(venv, "python", f'echo "{tmp_path / "site"}"')
    (tmp_path / "site").mkdir()
    (repo / ".venv" / ".installed-tests").touch()
    os.utime(repo / "pyproject.toml", (1, 1))
    done = subprocess.run(
        ["bash", "scripts/setup.sh", "--with-tests"], cwd=repo, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert " tmux sox" in done.stdout


def test_the_readme_names_every_system_package_the_set_up_installs():
    import re

    script = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    listed = {
        name: re.search(rf'^{name}="([^"]*)"', script, re.MULTILINE).group(1).split() for name in ("debs", "test_debs")
    }
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## On a fresh Debian") : readme.index("## Keyboard")]
    named = set(re.findall(r"[a-z0-9][a-z0-9.+-]*[a-z0-9]", section))
    assert set(listed["debs"] + listed["test_debs"]) <= named, set(listed["debs"] + listed["test_debs"]) - named


READY = "Ready. Start the app with: .venv/bin/table-assistant   (or: bash scripts/run.sh)"


def made_before(repo: Path, tmp_path: Path) -> None:
    """An environment made and installed into before (the project's own install is not done again)."""
    venv = repo / ".venv" / "bin"
    venv.mkdir(parents=True)
    program(venv, "python", f'echo "{tmp_path / "site"}"')
    (tmp_path / "site").mkdir()
    for stamp in (".installed", ".installed-tests"):
        (repo / ".venv" / stamp).touch()
    os.utime(repo / "pyproject.toml", (1, 1))


def test_a_set_up_that_went_through_is_not_checked_again_until_a_file_it_depends_on_changes(tmp_path):
    """Every system package there: the first run checks them and stamps .venv; the next runs check nothing (the
    user guide's start in about a second) and still say the app is ready; a changed pyproject.toml or setup.sh
    is checked again, and the tests' set-up has a stamp of its own. A fresh clone has no .venv, so no stamp."""
    repo, env, _ = checkout(tmp_path, "3.11.7")
    queries = tmp_path / "queries"
    program(tmp_path / "bin", "dpkg-query", f'echo "$@" >> "{queries}"; printf "install ok installed"')
    made_before(repo, tmp_path)

    def checked(*args: str) -> bool:
        """Run the set-up; whether it asked about the system's packages."""
        done = subprocess.run(
            ["bash", "scripts/setup.sh", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert (done.stdout.splitlines()[-1:] == [READY]) is not bool(args)  # said by a plain set-up only
        asked = queries.exists()
        queries.unlink(missing_ok=True)
        return asked

    assert checked() and not checked() and not checked()
    assert not checked("--then-run")  # scripts/run.sh's set-up: the same stamp
    assert checked("--with-tests") and not checked("--with-tests")
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    os.utime(pyproject, (1, 1))  # changed, though no newer than the project's install
    assert checked() and not checked()
    script = repo / "scripts" / "setup.sh"
    script.write_text(script.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert checked() and not checked()


def test_a_set_up_that_left_system_packages_out_is_checked_again_each_time(tmp_path):
    """Without root the missing packages are left out: no stamp, so each run says the administrator's line again,
    and checks again once they are installed (python3-louis is then linked into .venv)."""
    repo, env, _ = checkout(tmp_path, "3.11.7")
    made_before(repo, tmp_path)
    for _ in range(2):
        done = subprocess.run(
            ["bash", "scripts/setup.sh"], cwd=repo, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert "Some system packages are missing. Ask the administrator to run, as root:" in done.stdout
    assert not (repo / ".venv" / ".set-up").exists()

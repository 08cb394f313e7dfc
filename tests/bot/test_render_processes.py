"""The drawing worker processes of `bot.render.PictureRenderer` end with the bot (issue 21,
item 6) and keep quiet on Ctrl-C (issue 14).

A child Python process runs the real renderer with two worker processes and draws an mmh
board in them; it then reports ready on stdout and waits. Its process family (the fork
server, the workers, multiprocessing's resource tracker) is read from /proc.

- SIGKILL of the child: every process of the family exits and the child's stdout pipe,
  which they all inherited, reaches end of file (a supervisor reading it is not left
  hanging). Waits are on those events (pidfd / pipe readable), bounded by a generous
  limit only so that a failure does not hang the suite.
- SIGINT to the child's whole process group (what Ctrl-C in a terminal does): the child
  (its handler standing for the bot's, `bot.app.stop_on_signals`) shuts its pool down
  and exits 0, and nothing (no worker's KeyboardInterrupt traceback)
  is written to stderr.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LIMIT = 120.0
"""Seconds after which a wait is given up as a failure (a hang guard, never a timing)."""

CHILD = """
import json, signal, threading

import engine.mmh  # registers the ruleset
from bot.render import PictureRenderer
from engine.core.ruleset import get_ruleset

if __name__ == "__main__":
    rules = get_ruleset("mmh")
    state, _ = rules.new_game(rules.parse_options({}), 2, 5)
    renderer = PictureRenderer(processes=2)
    picture = renderer.draw("mmh", "board", rules.public_view(state))
    assert picture.data.startswith(b"\\x89PNG")
    stop = threading.Event()  # SIGINT closes the renderer, as `heroes-table run` does
    signal.signal(signal.SIGINT, lambda number, frame: stop.set())
    print(json.dumps({"ready": True}), flush=True)
    stop.wait()
    renderer.close()
    print(json.dumps({"closed": True}), flush=True)
"""


def _family(pid: int) -> list[int]:
    """The descendants of ``pid`` (from /proc/<pid>/task/*/children), not ``pid`` itself."""
    found: list[int] = []
    queue = [pid]
    while queue:
        parent = queue.pop()
        for task in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                children = [int(c) for c in task.read_text().split()]
            except OSError:
                continue
            found += children
            queue += children
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _start(tmp_path: Path) -> tuple[subprocess.Popen[bytes], dict[int, int]]:
    """Start the child in its own process group, wait for its ready line; return it and
    its process family (``{pid: pidfd}``: a pidfd names that very process, never a later
    one given the same pid)."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=(tmp_path / "stderr.txt").open("wb"),
        start_new_session=True,
    )
    assert child.stdout is not None
    line = _read_line(child.stdout.fileno())
    assert json.loads(line) == {"ready": True}, line
    family = _family(child.pid)
    commands = [_command(pid) for pid in family]
    assert any("forkserver" in c for c in commands), commands
    assert sum("multiprocessing" in c and "forkserver" not in c for c in commands) >= 1, commands
    pidfds: dict[int, int] = {}
    for pid in family:
        with contextlib.suppress(ProcessLookupError):
            pidfds[pid] = os.pidfd_open(pid)
    return child, pidfds


def _read_line(fd: int) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], LIMIT)
        assert ready, f"no line from the child within {LIMIT} s (read so far: {data!r})"
        chunk = os.read(fd, 4096)
        assert chunk, f"the child's stdout closed before its line (read: {data!r})"
        data += chunk
    return data


def _read_to_end(fd: int) -> bytes:
    """Read ``fd`` until end of file (every writer gone)."""
    data = b""
    while True:
        ready, _, _ = select.select([fd], [], [], LIMIT)
        assert ready, f"the child's stdout pipe is still held open after {LIMIT} s"
        chunk = os.read(fd, 4096)
        if not chunk:
            return data
        data += chunk


def _wait_gone(family: dict[int, int]) -> None:
    """Wait until every process of ``family`` has exited (its pidfd becomes readable)."""
    for pid, fd in family.items():
        ready, _, _ = select.select([fd], [], [], LIMIT)
        assert ready, f"process {pid} ({_command(pid)}) still runs after {LIMIT} s"


def _kill_left(family: dict[int, int]) -> None:
    """Leave none of the child's processes running (they are all gone unless the test
    failed), and close the pidfds."""
    for fd in family.values():
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(fd, signal.SIGKILL)
        os.close(fd)


@pytest.mark.slow
def test_the_workers_and_the_fork_server_exit_when_the_bot_is_killed(tmp_path: Path) -> None:
    child, family = _start(tmp_path)
    try:
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait() == -signal.SIGKILL
        assert child.stdout is not None
        assert _read_to_end(child.stdout.fileno()) == b""  # EOF: nobody holds the pipe
        _wait_gone(family)
    finally:
        _kill_left(family)


@pytest.mark.slow
def test_ctrl_c_on_the_process_group_ends_the_workers_without_a_traceback(
    tmp_path: Path,
) -> None:
    child, family = _start(tmp_path)
    try:
        os.killpg(child.pid, signal.SIGINT)
        assert child.stdout is not None
        rest = _read_to_end(child.stdout.fileno())
        assert child.wait() == 0
        assert json.loads(rest) == {"closed": True}
        _wait_gone(family)
    finally:
        _kill_left(family)
    errors = (tmp_path / "stderr.txt").read_text()
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors, errors

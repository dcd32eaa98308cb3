"""``schemagen serve``: a resident process that runs ``generate`` for the commands that reach its
socket (``client``), with everything imported and the cache in memory (``cache.keep_in_memory``).

One server per cache folder, environment (the interpreter and the packages beside it), generator and
hash seed (``client.address``); a file lock beside the socket says whether it is running. Before each
run it checks that the generator on disk (its source, templates and libraries:
``generate._generator_digest``) is still the one it imported; if not, it refuses the run (the command
then runs itself) and stops. It stops too after ``idle`` seconds without a request, and on
``schemagen serve --stop``. Runs are answered one at a time; each keeps what the next may take back
(``resident``), and what it leaves to do (writing the cache's file, collecting garbage) waits until
no run has come for ``CHORES_AFTER`` seconds.
"""

from __future__ import annotations

import fcntl
import gc
import io
import json
import os
import socket
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from . import cache, client, resident

IDLE = 3600.0
CHORES_AFTER = 1.0
"""Seconds without a run after which the last run's chores are done (``_chores``)."""
START_TIMEOUT = 120.0

_runs = 0
"""Runs answered so far (a ping says it)."""


def main(*, background: bool, stop: bool, idle: float) -> int:
    path = client.address()
    if path is None:
        print(f"error: the cache is off ({cache.ENV}); a server is a cache kept in memory", file=sys.stderr)
        return 1
    if stop:
        answered = client.private(path.parent) and client.exchange(path, {"stop": True}) is not None
        print("schemagen: server stopped" if answered else "schemagen: no server was running", file=sys.stderr)
        return 0
    return _start(path, idle) if background else _serve(path, idle)


def _private_folder(folder: Path) -> bool:
    """Make ``folder`` (only this user may enter it) or check that an existing one is so; nothing is
    written into a folder others could have put a link in."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        print(f"error: cannot make {folder}: {exc}; no server started", file=sys.stderr)
        return False
    if not client.private(folder):
        print(f"error: {folder} is not a folder only you may write to; no server started", file=sys.stderr)
        return False
    return True


def _serve(path: Path, idle: float) -> int:
    if not _private_folder(path.parent):
        return 1
    with open(path.with_suffix(".lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            print(f"schemagen: a server is already running on {path}", file=sys.stderr)
            return 0
        path.unlink(missing_ok=True)  # left by a server that is gone (it held the lock otherwise)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            try:
                listener.bind(str(path))
            except OSError as exc:  # a socket path is at most 107 bytes
                print(f"error: cannot listen on {path}: {exc}; set XDG_RUNTIME_DIR to a shorter folder",
                      file=sys.stderr)
                return 1
            listener.listen(16)
            try:
                generator = _warm_up()
                print(f"schemagen: serving on {path}; it stops after {idle:g} s without a run "
                      "(or on `schemagen serve --stop`)", file=sys.stderr, flush=True)
                chores = False  # after a run: the cache's file to write, garbage to collect
                while True:
                    listener.settimeout(CHORES_AFTER if chores else idle)
                    try:
                        conn, _ = listener.accept()
                    except TimeoutError:
                        if not chores:
                            break
                        _chores()
                        chores = False
                        continue
                    with conn:
                        if not _answer(conn, generator):
                            break
                        chores = True
                _chores()
            finally:
                path.unlink(missing_ok=True)
    return 0


def _warm_up() -> str:
    """Import what a run needs, keep the cache in memory; the generator's digest as imported."""
    import black  # noqa: F401
    import yaml  # type: ignore[import-untyped]  # noqa: F401

    from . import generate, render, validate

    cache.keep_in_memory()
    resident.enable()
    validate.validator()
    render.environment(None)
    return generate._generator_digest()


def _answer(conn: socket.socket, generator: str) -> bool:
    """Answer one request; ``False`` when the server is to stop."""
    global _runs
    from . import generate

    try:
        request = json.loads(client.read_all(conn))
    except (OSError, ValueError):
        return True
    if not isinstance(request, dict):
        return True
    if request.get("stop"):
        _send(conn, {"stopped": True})
        return False
    if request.get("ping"):
        _send(conn, {"pid": os.getpid(), "runs": _runs})
        return True
    generate._generator_digest.cache_clear()
    if generate._generator_digest() != generator:
        _send(conn, {"stale": True})  # the command runs itself, with the generator on disk
        return False
    argv, cwd = request.get("argv"), request.get("cwd")
    if not (isinstance(argv, list) and all(isinstance(a, str) for a in argv) and isinstance(cwd, str)):
        return True
    code, output = _run(argv, cwd)
    _runs += 1
    _send(conn, {"code": code, "output": output})
    resident.next_run()
    return True


def _chores() -> None:
    """What a run leaves to do once it has answered and no other run is waiting: write the cache's
    file (its entries are in memory meanwhile), collect garbage."""
    cache.flush()
    gc.collect()


def _run(argv: list[str], cwd: str) -> tuple[int, list[tuple[int, str]]]:
    """``schemagen argv`` run in ``cwd``: its exit code and what it wrote (1: stdout, 2: stderr)."""
    from . import cli

    output: list[tuple[int, str]] = []
    here = os.getcwd()
    try:
        os.chdir(cwd)
        with redirect_stdout(_Stream(1, output)), redirect_stderr(_Stream(2, output)):
            code = cli.main(argv)
    except OSError as exc:
        output.append((2, f"error: {exc}\n"))
        code = 1
    finally:
        os.chdir(here)
    return code, output


class _Stream(io.TextIOBase):
    """Text written to one stream, kept in order with the other's."""

    def __init__(self, number: int, output: list[tuple[int, str]]) -> None:
        self.number = number
        self.output = output

    def write(self, text: str) -> int:
        if self.output and self.output[-1][0] == self.number:
            self.output[-1] = (self.number, self.output[-1][1] + text)
        else:
            self.output.append((self.number, text))
        return len(text)


def _send(conn: socket.socket, reply: dict[str, Any]) -> None:
    try:
        conn.sendall(json.dumps(reply).encode())
    except OSError:
        pass  # the command went away; it gets no answer


def _start(path: Path, idle: float) -> int:
    """Start a server in the background and wait until it answers."""
    if client.private(path.parent) and client.exchange(path, {"ping": True}) is not None:
        print(f"schemagen: a server is already running on {path}", file=sys.stderr)
        return 0
    if not _private_folder(path.parent):
        return 1
    log = path.with_suffix(".log")
    package_parent = Path(__file__).resolve().parent.parent  # `-m generator` is this generator
    folder = cache.location()
    env = {**os.environ, cache.ENV: str(folder.resolve())} if folder is not None else dict(os.environ)
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--idle", str(idle)],
                                   cwd=package_parent, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                   start_new_session=True)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            print(f"error: the server did not start:\n{log.read_text(errors='replace')}", file=sys.stderr)
            return 1
        if client.exchange(path, {"ping": True}) is not None:
            print(f"schemagen: serving on {path} (log: {log}); `schemagen serve --stop` stops it", file=sys.stderr)
            return 0
        time.sleep(0.05)
    print(f"error: the server did not answer within {START_TIMEOUT:g} s (log: {log})", file=sys.stderr)
    return 1

"""Handing ``schemagen generate`` to a resident server (``schemagen serve``), when one is running.

A server keeps the generator, black, Jinja and jsonschema imported and the cache's entries in memory
(``serve``): a regeneration after an edit then costs what changed, not a start-up. This module
imports only the standard library, so that a run the server answers starts in a few milliseconds.
Whenever the server cannot answer (none running, another generator or interpreter, a socket in a
folder others could write to, the server gone mid-run), the caller runs the command itself: the
server is a speed-up, never a requirement, and its answer is the one the command would give.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
from pathlib import Path

from .cache import digest, location

FORWARDED = frozenset({"generate"})
SWITCH = "SCHEMAGEN_SERVE"
"""``off``: never hand a command to a server."""
_OPTIONS_WITH_VALUE = frozenset({"--project"})


def main() -> int:
    """The ``schemagen`` command: answered by a server when one is running, else run here."""
    code = forward(sys.argv[1:])
    if code is None:
        from .cli import main as run_here

        code = run_here()
    return code


def address() -> Path | None:
    """The socket of the server for this cache folder, environment (the interpreter and the packages
    installed beside it: ``sys.prefix``, however it is reached), generator and hash seed.
    ``None`` when the cache is off: a server is its cache in memory."""
    folder = location()
    if folder is None:
        return None
    key = digest(str(folder.resolve()), os.path.realpath(sys.prefix), sys.version,
                 str(Path(__file__).resolve().parent), os.environ.get("PYTHONHASHSEED", ""))
    return runtime_folder() / f"{key[:24]}.sock"


def runtime_folder() -> Path:
    """Where sockets live: a folder only this user may enter (created so by ``serve``), in
    ``$XDG_RUNTIME_DIR``, else ``$TMPDIR``, else ``/tmp`` (not ``tempfile``: importing it costs more
    than a run the server answers without work)."""
    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    return Path(base) / f"schemagen-{os.getuid()}"


def private(folder: Path) -> bool:
    """``folder`` is this user's and nobody else may write to it (a socket there is the server's)."""
    try:
        info = folder.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o022


def forward(argv: list[str]) -> int | None:
    """The exit code of ``argv`` run by the server, its output written here; ``None`` when no server
    answered (nothing was written then, and the caller runs the command)."""
    if os.environ.get(SWITCH, "").strip().lower() in ("off", "0", "no") or command(argv) not in FORWARDED:
        return None
    path = address()
    if path is None or not private(path.parent) or not path.exists():
        return None
    reply = exchange(path, {"argv": argv, "cwd": os.getcwd()})
    if not isinstance(reply, dict) or not isinstance(reply.get("code"), int):
        return None  # gone mid-run, or it refused: the server's generator is not this one any more
    for stream, text in reply["output"]:
        (sys.stdout if stream == 1 else sys.stderr).write(text)
    return int(reply["code"])


def exchange(path: Path, request: dict[str, object]) -> object:
    """Send one request, read the whole reply; ``None`` when there is no answer."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.connect(str(path))
            conn.sendall(json.dumps(request).encode())
            conn.shutdown(socket.SHUT_WR)
            data = read_all(conn)
        return json.loads(data) if data else None
    except (OSError, ValueError):
        return None


def read_all(conn: socket.socket) -> bytes:
    parts = []
    while chunk := conn.recv(1 << 20):
        parts.append(chunk)
    return b"".join(parts)


def command(argv: list[str]) -> str | None:
    """The subcommand ``argv`` names (the first word that is neither an option nor an option's value)."""
    words = iter(argv)
    for word in words:
        if word in _OPTIONS_WITH_VALUE:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None

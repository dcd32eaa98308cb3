"""The inputs of a project as IR: in the working tree, or as they were at a git revision.

A revision is read with ``git`` itself: ``pyproject.toml``, the schema folder (where overlays are
found) and the schema and overlay files it names are copied, byte for byte as committed, into a
temporary folder, which is then read exactly like a working tree: ``config.load``,
``inputs.discover``, and each input lowered as ``generate`` lowers it (through
``project.link.Linker``, so that references between inputs resolve).
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import tempfile
from pathlib import Path, PurePosixPath

from .. import ir
from ..diagnostics import Diagnostic, SchemaError
from ..project import config as configuration
from ..project.inputs import discover
from ..project.link import Linker


class RevisionError(Exception):
    """git could not give us the revision (no repository, no such revision, no git)."""


def then_and_now(root: Path, rev: str) -> tuple[dict[str, ir.Module], dict[str, ir.Module]]:
    """``modules_at(root, rev)`` and ``modules(root)``; the problems of both sides are raised together."""
    problems: list[Diagnostic] = []
    then: dict[str, ir.Module] = {}
    now: dict[str, ir.Module] = {}
    try:
        then = modules_at(root, rev)
    except SchemaError as exc:
        problems.extend(exc.diagnostics)
    try:
        now = modules(root)
    except SchemaError as exc:
        problems.extend(exc.diagnostics)
    if problems:
        raise SchemaError(problems)
    return then, now


def modules(root: Path) -> dict[str, ir.Module]:
    """Every input of the project at ``root``, lowered: output package → IR (warnings are dropped)."""
    return _lower(configuration.load(root))


def modules_at(root: Path, rev: str) -> dict[str, ir.Module]:
    """The same for the project as committed at ``rev``. An input (or the schema folder) that did
    not exist then is left out; problems name their file as ``rev:path``."""
    commit = _commit(root, rev)
    prefix = _git(root, "rev-parse", "--show-prefix").stdout.decode().strip()
    with tempfile.TemporaryDirectory(prefix="schemagen-") as folder:
        repository = Path(folder)
        copy = repository.joinpath(*PurePosixPath(prefix).parts)  # where `root` is in the repository
        copy.mkdir(parents=True, exist_ok=True)
        try:
            _extract(root, commit, ["pyproject.toml"], repository)
            # The schema folder first: it holds the overlays found beside inputs and the folders
            # `refs` maps URLs to (which loading checks); an input may be, or list overlays, elsewhere.
            _extract(root, commit, [os.path.relpath(configuration.schema_folder(copy), copy)], repository)
            cfg = configuration.load(copy)
            wanted = [copy / p for spec in cfg.inputs or () for p in (spec.path, *spec.overlays)]
            if wanted:
                _extract(root, commit, [os.path.relpath(p, copy) for p in wanted], repository)
            if cfg.inputs is None and not cfg.schemas.is_dir():
                return {}
            if cfg.inputs is not None:
                cfg = dataclasses.replace(cfg, inputs=tuple(
                    dataclasses.replace(s, overlays=tuple(o for o in s.overlays if (copy / o).is_file()))
                    for s in cfg.inputs if (copy / s.path).exists()))
            return _lower(cfg)
        except SchemaError as exc:
            raise SchemaError([_at(rev, d) for d in exc.diagnostics]) from None


def _lower(cfg: configuration.Config) -> dict[str, ir.Module]:
    found: dict[str, ir.Module] = {}
    errors: list[Diagnostic] = []
    sources = discover(cfg)
    linker = Linker(sources, cfg)
    for source in sources:
        try:
            found[source.name], _ = linker.lower(source)
        except SchemaError as exc:
            errors.extend(exc.diagnostics)
    if errors:
        raise SchemaError(errors)
    return found


def _at(rev: str, diagnostic: Diagnostic) -> Diagnostic:
    location = dataclasses.replace(diagnostic.location, path=f"{rev}:{diagnostic.location.path}")
    return dataclasses.replace(diagnostic, location=location)


def _git(root: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=root, input=stdin, capture_output=True)
    except FileNotFoundError:
        raise RevisionError("git is not installed (or not on PATH); `diff` reads revisions with it") from None
    except NotADirectoryError:
        raise RevisionError(f"{root} is not a folder") from None


def _commit(root: Path, rev: str) -> str:
    """The commit ``rev`` names, as a full hash."""
    if not root.is_dir():
        raise RevisionError(f"{root} is not a folder")
    inside = _git(root, "rev-parse", "--is-inside-work-tree")
    if inside.returncode != 0 or inside.stdout.strip() != b"true":
        raise RevisionError(f"{root.resolve()} is not in a git working tree; `diff` compares with a git revision")
    found = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if found.returncode != 0:
        raise RevisionError(f"unknown revision {rev!r}: no commit by that name in this repository "
                            "(a branch, tag or commit hash; `HEAD` needs a first commit)")
    return found.stdout.decode().strip()


def _extract(root: Path, commit: str, paths: list[str], repository: Path) -> None:
    """Write the files under ``paths`` (relative to ``root``) as committed in ``commit`` into the
    folder ``repository``, at their place in the repository.

    Paths that did not exist then are skipped; symbolic links and submodules are not followed.
    """
    listing = _git(root, "--literal-pathspecs", "ls-tree", "-r", "-z", "--full-name", "--end-of-options",
                   commit, "--", *paths)
    if listing.returncode != 0:
        raise RevisionError(f"git ls-tree failed: {listing.stderr.decode(errors='replace').strip()}")
    blobs: list[tuple[str, str]] = []
    for entry in filter(None, listing.stdout.split(b"\0")):
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha = meta.decode().split()
        if kind == "blob" and mode != "120000":
            blobs.append((sha, os.fsdecode(path)))
    if not blobs:
        return
    batch = _git(root, "cat-file", "--batch", stdin="".join(f"{sha}\n" for sha, _ in blobs).encode())
    if batch.returncode != 0:
        raise RevisionError(f"git cat-file failed: {batch.stderr.decode(errors='replace').strip()}")
    data, at = batch.stdout, 0
    for _, name in blobs:
        header_end = data.index(b"\n", at)
        size = int(data[at:header_end].split()[2])
        content = data[header_end + 1:header_end + 1 + size]
        at = header_end + 1 + size + 1
        target = repository.joinpath(*PurePosixPath(name).parts)  # git never stores `..` or `/x`
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)

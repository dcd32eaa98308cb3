"""The command line: ``generate``, ``lint``, ``render``, ``ir``, ``diff``, ``compare``, ``validate``. Problems are
reported, never raised at the user."""

from __future__ import annotations

import dataclasses
import sys
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from .arguments import Arguments, parse
from .diagnostics import Diagnostic, SchemaError
from .diagnostics.positions import locate
from .project import config as configuration, write
from .project.ignores import of_one_input
from .project.plan import plan
from .render.format import FormatError

#: Schemas nest; the pipeline recurses with them. A thread with a deep stack keeps a
#: thousand-level schema from ending in RecursionError; deeper still is a clean error.
STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 60_000


def run() -> None:
    """The ``schemagen`` command: ``main``, then the process ends without freeing what it made (which
    took 0.06-0.08 s after OpenAI's description; every file and cache write is closed by then)."""
    import os

    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # (the reader of the output went away, or it was closed: nothing more to say)
        code = code or 1
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    outcome: list[int] = []
    threading.stack_size(STACK_BYTES)
    worker = threading.Thread(target=lambda: outcome.append(_main(argv)))
    worker.start()
    worker.join()
    return outcome[0] if outcome else 1


def _main(argv: list[str] | None) -> int:
    sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        args = parse(sys.argv[1:] if argv is None else argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    if args.project is None and getattr(args, "path", None) is not None:  # `render`, `ir`, `lint`: PATH's project
        args.path = args.path.absolute()
        args.project = configuration.find_root(args.path)
    elif args.project is None and not getattr(args, "own_projects", False):
        args.project = Path(".")
    try:
        return COMMANDS[args.command](args)
    except SchemaError as exc:
        _report(exc.diagnostics, args.project)
        if args.debug:
            _traceback()
        return 1
    except RecursionError:
        print("error: the schema nests too deeply for schemagen to follow", file=sys.stderr)
        if args.debug:
            _traceback()
        return 1
    except MemoryError:  # a bug (every stage is linear in its input), or a machine too small for the input
        print("error: schemagen ran out of memory; nothing was written - please report it with the input",
              file=sys.stderr)
        if args.debug:
            _traceback()
        return 1
    except FormatError as exc:
        print(f"internal error, please report it: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader of the output went away (`| head`): the rest is not wanted
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _traceback() -> None:
    """``--debug``: the traceback of the exception being handled."""
    import traceback

    traceback.print_exc()


def _generate(args: Arguments) -> int:
    cfg = configuration.load(args.project)
    if args.jobs is not None:
        cfg = dataclasses.replace(cfg, jobs=args.jobs)
    result = plan(cfg)
    _warn(args, result.warnings)
    changes = write.compare(cfg.output, result.files)
    label = cfg.output.resolve().relative_to(cfg.root.resolve()).as_posix()
    if args.check:
        stale = changes.written + changes.removed
        if stale:
            sys.stdout.write(write.diff(cfg.output, result.files, changes, label))
            missing = [p for p in changes.written if not (cfg.output / p).exists()]
            for title, paths in (("missing", missing), ("extra (their input is gone)", changes.removed)):
                if paths:
                    print(f"{title}:", *(f"  {label}/{p.as_posix()}" for p in paths), sep="\n", file=sys.stderr)
            run = cfg.options.command
            print(f"{label}/ is stale: {len(stale)} file(s) differ from what `{run}` writes; run `{run}`",
                  file=sys.stderr)
            return 1
        print(f"{label}/ is up to date ({len(changes.unchanged)} files)", file=sys.stderr)
        return 0
    write.apply(cfg.output, result.files, changes)
    ignored = f" ({result.ignored} ignored by [tool.schemagen] ignore)" if result.ignored else ""
    print(f"{label}/: {len(changes.written)} written, {len(changes.unchanged)} unchanged, "
          f"{len(changes.removed)} removed, {len(result.warnings)} warnings{ignored}", file=sys.stderr)
    return 0


def _lint(args: Arguments) -> int:
    """The warnings ``generate`` (or ``render PATH``) would print, at their lines; nothing is written."""
    cfg = configuration.load(args.project)
    if args.path is None:
        warnings = plan(cfg).warnings
    else:
        from .project.link import one_input

        source, linker = one_input(cfg, cfg.root / args.path)
        warnings = of_one_input(linker.lower(source)[1], cfg.ignore, source.ignore, cfg.root)
    warnings = list(dict.fromkeys(warnings))
    for w in warnings:
        print(_located(w, cfg.root), file=sys.stderr)
    if warnings:
        print(_count(warnings), file=sys.stderr)
    return 1 if warnings else 0


def _one(args: Arguments, emit: Callable[..., str]) -> int:
    from .project.link import one_input  # (here: `generate` with nothing to do imports no stage)

    cfg = configuration.load(args.project)
    source, linker = one_input(cfg, cfg.root / args.path, args.dialect)
    module, warnings = linker.lower(source)
    _warn(args, of_one_input(warnings, cfg.ignore, source.ignore, cfg.root))
    sys.stdout.write(emit(module, source.label, cfg))
    return 0


def _render(args: Arguments) -> int:
    from .project.pipeline import Renderer

    return _one(args, lambda module, display, cfg: Renderer(cfg.templates, cfg.options, root=cfg.root).render(
        module, args.variant, display))


def _ir(args: Arguments) -> int:
    from .ir.dump import dumps

    return _one(args, lambda module, display, cfg: dumps(module))


def _diff(args: Arguments) -> int:
    """The inputs at ``--base`` and in the working tree, lowered and compared; one line per change."""
    from .review import changes, report, revision

    try:
        old, new = revision.then_and_now(args.project, args.base)
    except revision.RevisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    found = changes.compare_all(old, new)
    sys.stdout.write(report.markdown(found) if args.format == "markdown" else report.text(found))
    print(report.summary(found, args.base), file=sys.stderr)
    return 1 if args.fail_on_breaking and any(c.breaking for c in found) else 0


def _compare(args: Arguments) -> int:
    """Both sides lowered, in their own projects (or ``--project``), and compared in both directions."""
    from .compare import compare, report, sides

    loaded = []
    for letter, spec in (("A", args.a), ("B", args.b)):
        try:
            loaded.append(sides.load(spec, args.project))
        except sides.CompareError as exc:
            print(f"error: {letter}: {exc}", file=sys.stderr)
            return 1
        except SchemaError as exc:
            _report(exc.diagnostics, sides.project_of(spec, args.project))
            return 1
    found = compare(*loaded)
    formats = {"text": report.text, "markdown": report.markdown, "json": report.as_json}
    sys.stdout.write(formats[args.format](found))
    print(report.summary(found), file=sys.stderr)
    return 1 if args.fail_on_incompatible and found.count("a->b") else 0


def _validate(args: Arguments) -> int:
    """Each payload read by the input's models (as msgspec decodes), the problems grouped by their place."""
    from .compare import sides
    from .evidence.command import run

    try:
        return run(args.target, args.payloads, args.project, args.format, args.suggest_overlay, args.variant)
    except SchemaError as exc:
        _report(exc.diagnostics, sides.project_of(args.target, args.project))
        return 1


def _warn(args: Arguments, warnings: list[Diagnostic]) -> None:
    """Print each distinct warning once, then how many of each kind; with ``--strict`` they are errors
    (nothing is written)."""
    warnings = list(dict.fromkeys(warnings))
    if args.strict and warnings:
        raise SchemaError([dataclasses.replace(w, severity="error") for w in warnings])
    _report(warnings)
    if warnings:
        print(_count(warnings), file=sys.stderr)


def _count(warnings: list[Diagnostic]) -> str:
    """``3 warnings: 2 untagged unions, 1 unsupported keyword`` (most frequent first)."""
    kinds = Counter(w.kind or "other" for w in warnings)
    each = ", ".join(f"{n} {kind}{'s' if n > 1 else ''}" for kind, n in kinds.most_common())
    return f"{_plural(len(warnings), 'warning')}: {each}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _report(diagnostics: list[Diagnostic], root: Path | None = None) -> None:
    """One line each; an error in a file gets the line and column of its pointer."""
    for d in diagnostics:
        print(_located(d, root) if root is not None and d.severity == "error" else d, file=sys.stderr)


def _located(d: Diagnostic, root: Path) -> Diagnostic:
    """``d`` with the line and column of its pointer in its file, where they can be found."""
    if d.location.line is None and d.location.in_document:
        position = locate(root / d.location.path, d.location.pointer)
        if position is not None:
            return dataclasses.replace(d, location=dataclasses.replace(d.location, line=position[0], column=position[1]))
    return d


COMMANDS: dict[str, Callable[[Arguments], int]] = {
    "generate": _generate, "lint": _lint, "render": _render, "ir": _ir, "diff": _diff, "compare": _compare,
    "validate": _validate}

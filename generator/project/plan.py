"""The main job: every input, every variant, into the output package, in memory; written only when
all succeed (``write``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from ..cache.fingerprint import Results, fingerprint
from ..cache.store import Cache
from ..diagnostics import Diagnostic, SchemaError
from ..frontend.read import schema_files
from .config import Config
from .ignores import Ignore, sift, stale
from .inputs import Input, discover
from .write import MARKER, Files, digest


def package_init(command: str) -> str:
    """The ``__init__.py`` of the output package and of each input's package."""
    return f"{MARKER}. Do not edit; run `{command}`.\n"


@dataclass
class Result:
    files: Files
    """Output path (relative to the output folder) → content."""
    warnings: list[Diagnostic] = field(default_factory=list)
    """Those no ``ignore`` entry acknowledges, and the entries that matched none (``stale ignore``)."""
    ignored: int = 0
    """How many distinct warnings the ``ignore`` entries acknowledged."""
    restorable: dict[Path, tuple[str, str]] = field(default_factory=dict)
    """The files the render memo can put together again without lowering anything (``Memo.restore``): each
    with its input's label and variant. A result is kept with a reference to each instead of its text."""


@dataclass(frozen=True)
class _Kept:
    """What the cache keeps of a result for a run with nothing to do (the texts are kept apart)."""

    digests: dict[Path, str]
    warnings: list[Diagnostic]
    ignored: int


def plan(config: Config) -> Result:
    """Everything generation would write, in memory; raises ``SchemaError`` with all problems.

    When the inputs, templates, configuration and generator are exactly those of the last run (see
    ``cache.fingerprint``), that run's result is taken from the cache: nothing is lowered, rendered or
    formatted. Otherwise the stages run, with the cache's speed-ups (``pipeline``).
    """
    sources = discover(config)
    store = Cache.from_environment()
    try:
        return _plan(config, sources, store)
    finally:
        if store is not None:
            store.close()


def _plan(config: Config, sources: list[Input], store: Cache | None) -> Result:
    # what a run may read from the folders `refs` maps URLs to, and the files of the schema folder that
    # are no input (a split project's, say): a changed referenced document is a run to do
    mapped = [(f"refs {prefix}", schema_files(folder, nested=True)) for prefix, folder in config.refs]
    if config.schemas.is_dir():
        mapped.append(("schema folder", schema_files(config.schemas, nested=True)))
    # its text, not only its settings: a kept warning names a line of it (a `stale ignore` entry)
    mapped.append(("configuration", [p for p in [config.root / "pyproject.toml"] if p.is_file()]))
    key = fingerprint(repr(config), config.templates,
                      [(repr(s), [*s.files, *(o.path for o in s.overlays)]) for s in sources] + mapped)
    results = Results(store, repr(config), key) if store is not None and key is not None else None
    kept = results.summary() if results is not None else None
    if isinstance(kept, _Kept) and key is not None:
        return Result(Files(kept.digests, lambda: _kept_texts(config, sources, key, kept.digests)), kept.warnings,
                      kept.ignored)
    result = _made(config, sources, store)
    if results is not None:
        texts = {path: result.restorable.get(path) or text for path, text in result.files.items()}
        results.put(_Kept(result.files.digests, result.warnings, result.ignored), texts)
    return result


def _kept_texts(config: Config, sources: list[Input], key: str, digests: dict[Path, str]) -> dict[Path, str]:
    """The texts of a kept result, read from the cache when a file is to be written (a module the render memo
    put together, put together again from it); made again if the cache no longer holds them (another run
    replaced them, or it was removed meanwhile)."""
    store = Cache.from_environment()
    try:
        texts = Results(store, repr(config), key).texts() if store is not None else None
        if isinstance(texts, dict) and texts.keys() == digests.keys():
            found = {p: _restored(t, config, store) if isinstance(t, tuple) else t for p, t in texts.items()}
            if all(isinstance(t, str) and digest(t.encode()) == digests[p] for p, t in found.items()):
                return found  # type: ignore[return-value]
        return dict(_made(config, sources, store).files)
    finally:
        if store is not None:
            store.close()


def _restored(reference: tuple[object, ...], config: Config, store: Cache | None) -> str | None:
    """The text of the module ``reference`` names (its input's label and variant), from the render memo."""
    from ..cache.fingerprint import generator_digest
    from ..cache.memo import Memo

    if store is None or len(reference) != 2 or not all(isinstance(part, str) for part in reference):
        return None
    return Memo(store, generator_digest(), repr(config)).restore(str(reference[0]), str(reference[1]), config.options)


def _made(config: Config, sources: list[Input], store: Cache | None) -> Result:
    try:
        return _render_all(config, sources, store)
    finally:
        gc.unfreeze()


def _render_all(config: Config, sources: list[Input], store: Cache | None) -> Result:
    from .link import Linker  # (here: a run with nothing to do imports no stage)
    from .parallel import Outcome, cores, render_all
    from .pipeline import Renderer, Stages

    init = package_init(config.options.command)
    files: dict[Path, str] = {Path("__init__.py"): init, Path("py.typed"): ""}
    if "dataclass" in config.variants:  # the converter its dataclass modules import: one for the package
        from ..render import runtime
        files[Path("_runtime.py")] = runtime(init.rstrip("\n"))
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    ignored: list[Diagnostic] = []
    used: set[Ignore] = set()
    stages = Stages.cached(store, str(config.root.resolve()), len(sources), config.jobs or cores())
    linker = Linker(sources, config, stages)
    lowered: list[Input] = []
    for source in sources:
        try:
            with _collector_paused():
                found = linker.warnings(source)
        except SchemaError as exc:
            errors.extend(exc.diagnostics)
            continue
        kept, acknowledged = sift(found, [*config.ignore, *source.ignore], used)
        warnings.extend(kept)
        ignored.extend(acknowledged)
        lowered.append(source)
    # (a user's template can fail: for each input, and each variant)
    made_from = {s.label: linker.wholes[s.display] for s in sources if s.display in linker.wholes}
    renderer = Renderer(config.templates, config.options, store, scope=repr(config), root=config.root,
                        made_from=made_from, passed=stages.passed,
                        written=partial(_written, config.output, {source.label: source for source in lowered}))
    outcomes: dict[tuple[str, str], Outcome] = {}
    jobs = []
    for source in lowered:
        for variant in config.variants:
            text = renderer.kept(variant, source.label)
            if text is not None:
                outcomes[source.display, variant] = text
                continue
            with _collector_paused():  # (an IR kept is read only now, for the modules to write)
                module, _ = linker.lower(source)
            jobs.append(((source.display, variant), (module, variant, source.label)))
    outcomes.update(zip((at for at, _ in jobs), render_all([job for _, job in jobs], renderer, config.jobs)))
    restorable: dict[Path, tuple[str, str]] = {}
    known: dict[Path, str] = {}  # (the digests of the texts the memo put together: not worked out again)
    encoded: dict[Path, bytes] = {}  # (and their bytes: not encoded again)
    for source in lowered:
        for variant in config.variants:
            outcome = outcomes[source.display, variant]
            path = _module(source, variant)
            if isinstance(outcome, str):
                files.setdefault(path.parent / "__init__.py", init)
                files[path] = outcome
                made = renderer.restorable(source.label, variant)
                if made is not None:
                    restorable[path] = (source.label, variant)
                    known[path], encoded[path] = made
            else:
                errors.extend(outcome)
    if errors:
        raise SchemaError(list(dict.fromkeys(errors)))
    # A file that several inputs read (shared definitions) says the same in each: once is enough.
    warnings += stale([*config.ignore, *(e for s in sources for e in s.ignore)], used, config.root)
    return Result(Files.of(files, known, encoded), list(dict.fromkeys(warnings)), len(set(ignored) - set(warnings)),
                  restorable)


def _module(source: Input, variant: str) -> Path:
    """Where the module of ``source`` in ``variant`` is written, in the output folder."""
    return Path(source.name) / f"{variant}_models.py"


def _written(output: Path, sources: dict[str, Input], label: str, variant: str) -> bytes | None:
    """The bytes of the module of the input ``label`` (of ``sources``, by label) in ``variant``, as they are in
    the ``output`` folder; ``None`` if there is none, or it cannot be read."""
    source = sources.get(label)
    try:
        return None if source is None else (output / _module(source, variant)).read_bytes()
    except OSError:
        return None


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Lowering builds a large graph of objects (a big input: millions) and little cyclic garbage; the
    cycle collector would walk the growing graph again and again. It is paused meanwhile, and what
    was built is then left out of its later walks (``gc.freeze``) while the modules are rendered."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


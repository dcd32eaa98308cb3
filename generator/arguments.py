"""The command line's words: argparse's parser of every command, and a quick reading of the call that
``make generate`` makes.

Both fill an ``Arguments``: ``command`` names the command, the rest are its options. ``quick`` reads
``generate`` with its option and the global ones, written out in full (``--debug``, ``--strict``,
``--project DIR``, ``--check``), and gives what the parser gives (a test compares the two); any other
call, or any doubt (an abbreviation, ``--``, a value that starts with ``-``), is the parser's. Building
the parser costs more than the rest of a run with nothing to do, bar the imports: seven parsers, a
help formatter for each option (which imports shutil), gettext's look-ups for every message.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

from .project.config import ALL_VARIANTS, DIALECTS

if TYPE_CHECKING:
    import argparse

GLOBAL_FLAGS = {"--debug": "debug", "--strict": "strict"}


class Arguments(SimpleNamespace):
    """What the command line says: ``command``, and the options of the command and the global ones."""


def parse(argv: list[str]) -> Arguments:
    """``argv`` read, quickly if it can be; raises ``SystemExit`` as argparse does (help, version, a mistake)."""
    return quick(argv) or argument_parser().parse_args(argv, Arguments())


def quick(argv: list[str]) -> Arguments | None:
    """``[--debug] [--strict] [--project DIR] generate [--check]`` (each option any number of times, the
    global ones in any order) as the parser reads it; ``None`` for anything else (``-j N`` among it)."""
    args = Arguments(debug=False, strict=False, project=None)
    words = iter(argv)
    for word in words:
        if word in GLOBAL_FLAGS:
            setattr(args, GLOBAL_FLAGS[word], True)
        elif word == "--project" or word.startswith("--project="):
            value = word.partition("=")[2] if "=" in word else next(words, None)
            if value is None or (value.startswith("-") and "=" not in word):
                return None
            args.project = Path(value)
        elif word == "generate":
            break
        else:
            return None
    else:
        return None  # no command
    args.check, args.jobs = False, None
    for word in words:
        if word != "--check":
            return None
        args.check = True
    args.command = "generate"
    return args


def argument_parser() -> argparse.ArgumentParser:
    """The parser of every command (``quick`` reads one call of them without it)."""
    import argparse

    class Version(argparse.Action):
        """``--version``: ``schemagen 0.1.0``, looked up only when asked (a run imports no metadata machinery)."""

        def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
            super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=str(kwargs.get("help")))

        def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
            print(f"schemagen {version()}")
            parser.exit()

    parser = argparse.ArgumentParser(prog="schemagen", description="Typed Python models from JSON Schema and OpenAPI.")
    parser.add_argument("--version", action=Version, help="print schemagen's version and exit")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--project", type=Path, metavar="DIR",
                        help="project root, where pyproject.toml is (default: the working directory; for render "
                             "and ir, the folder above PATH whose pyproject.toml holds [tool.schemagen])")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    generate = commands.add_parser("generate", help="write every input's models into the output package")
    generate.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff if stale")
    generate.add_argument("-j", "--jobs", type=_processes, metavar="N",
                          help="parse long YAML, check definitions and render in at most N processes "
                               "(default: [tool.schemagen] jobs, else one per core)")
    generate.set_defaults(command="generate")

    lint = commands.add_parser("lint", help="print the warnings of the inputs (or of PATH), writing nothing; "
                                            "exit 1 if there are any")
    lint.add_argument("path", type=Path, nargs="?", help="one input (default: every input of the project)")
    lint.set_defaults(command="lint")

    render = commands.add_parser("render", help="print one variant of one input")
    render.add_argument("path", type=Path)
    render.add_argument("--variant", choices=ALL_VARIANTS, required=True)
    render.add_argument("--dialect", choices=DIALECTS, default="auto")
    render.set_defaults(command="render")

    ir = commands.add_parser("ir", help="print one input's intermediate representation as JSON")
    ir.add_argument("path", type=Path)
    ir.add_argument("--dialect", choices=DIALECTS, default="auto")
    ir.set_defaults(command="ir")

    diff = commands.add_parser("diff", help="list the model changes since a git revision, breaking ones first")
    diff.add_argument("--base", default="HEAD", metavar="REV", help="the git revision to compare with (default: HEAD)")
    diff.add_argument("--format", choices=("text", "markdown"), default="text")
    diff.add_argument("--fail-on-breaking", action="store_true", help="exit 1 when a change is breaking")
    diff.set_defaults(command="diff")

    compare = commands.add_parser("compare", help="where one input's models refuse payloads another's accept")
    compare.add_argument("a", metavar="A", help="PATH[#Name]: an input file or folder, and a declaration in it "
                                                "(default: its root)")
    compare.add_argument("b", metavar="B", help="PATH[#Name], the same for the other side")
    compare.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    compare.add_argument("--fail-on-incompatible", action="store_true",
                         help="exit 1 when a payload A accepts may be refused by B (an a->b difference)")
    compare.set_defaults(command="compare", own_projects=True)  # each side is read in the project it is in

    validate = commands.add_parser("validate", help="read recorded payloads with one input's models; "
                                                    "exit 1 when one is refused")
    validate.add_argument("target", metavar="PATH#Name", help="an input file or folder, and a declaration in it "
                                                              "(default: its root)")
    validate.add_argument("payloads", metavar="PAYLOAD", nargs="+",
                          help="a JSON file (one body), or a JSON Lines or server-sent events file (a body a line)")
    validate.add_argument("--variant", choices=ALL_VARIANTS, default="msgspec",
                          help="whose generated models read the payloads (default: msgspec)")
    validate.add_argument("--format", choices=("text", "json"), default="text")
    validate.add_argument("--suggest-overlay", type=Path, metavar="FILE",
                          help="write the OpenAPI Overlay that would make the models accept the payloads")
    validate.set_defaults(command="validate", own_projects=True)

    return parser


def version() -> str:
    """The installed distribution's version; from a source tree that is not installed, its
    ``pyproject.toml``'s; else ``unknown``."""
    import importlib.metadata

    try:
        return importlib.metadata.version("schemagen")
    except importlib.metadata.PackageNotFoundError:
        pass
    import tomllib

    try:
        project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text("utf-8"))["project"]
    except (OSError, ValueError, KeyError, TypeError):
        return "unknown"
    found = project.get("version") if isinstance(project, dict) and project.get("name") == "schemagen" else None
    return found if isinstance(found, str) else "unknown"


def _processes(text: str) -> int:
    """``-j N``: a whole number of processes, 1 or more."""
    import argparse

    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes (1 or more)")
    return int(text)

"""``schemagen serve``: a resident server answers ``generate`` exactly as the command would itself,
and whenever it cannot (stale, gone, another folder's socket) the command runs itself."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from golden import ROOT
from generator import client

SEED = ROOT / "schemas" / "chat_completion_out.json"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A cache and a socket folder of this test's own (a socket path must stay short: /tmp)."""
    runtime = Path(tempfile.mkdtemp(prefix="sg", dir="/tmp"))
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.delenv(client.SWITCH, raising=False)
    yield dict(os.environ)
    subprocess.run([sys.executable, "-m", "generator", "serve", "--stop"], cwd=ROOT, env=dict(os.environ),
                   capture_output=True)
    shutil.rmtree(runtime, ignore_errors=True)


def project(folder: Path) -> Path:
    (folder / "schemas").mkdir(parents=True)
    shutil.copy(SEED, folder / "schemas" / SEED.name)
    (folder / "pyproject.toml").write_text('[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\n')
    return folder


def start(env: dict[str, str], *extra: str, package: Path = ROOT) -> None:
    done = subprocess.run([sys.executable, "-m", "generator", "serve", "--background", *extra], cwd=package,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def here(proj: Path, *args: str) -> tuple[int, str, str, dict[str, bytes]]:
    """The command run by itself (no server), in a cache of its own: code, stdout, stderr, files."""
    env = {**os.environ, client.SWITCH: "off", "SCHEMAGEN_CACHE_DIR": str(proj.parent / f"{proj.name}-cache")}
    done = subprocess.run([sys.executable, "-m", "generator", "--project", str(proj), *args],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr, files(proj)


def served(proj: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str, dict[str, bytes]]:
    """The command as the server answers it (the test fails if none answers)."""
    capsys.readouterr()
    code = client.forward(["--project", str(proj), *args])
    assert code is not None, "the server did not answer"
    out, err = capsys.readouterr()
    return code, out, err, files(proj)


def files(proj: Path) -> dict[str, bytes]:
    out = proj / "generated"
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.py"))} if out.is_dir() else {}


def edit(proj: Path, change: dict[str, object]) -> None:
    path = proj / "schemas" / SEED.name
    schema = json.loads(path.read_text())
    schema["definitions"].update(change)
    path.write_text(json.dumps(schema, indent=2))


def test_the_server_answers_as_the_command_would_after_each_edit(tmp_path: Path, env: dict[str, str],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    ours, theirs = project(tmp_path / "a"), project(tmp_path / "b")
    start(env)
    edits: list[dict[str, object]] = [
        {},
        {"Extra": {"type": "object", "description": "added", "properties": {"n": {"type": "integer"}}}},
        {"Extra": {"type": "string", "enum": ["x", "y"]}},
        {"Extra": {"$ref": "#/definitions/Nowhere"}},  # an error: nothing written, the same message
        {"Extra": {"type": "boolean"}},
    ]
    for change in edits:
        edit(ours, change)
        edit(theirs, change)
        assert served(ours, capsys, "generate") == here(theirs, "generate")
        edit(ours, {"Extra": {"type": "integer"}})
        edit(theirs, {"Extra": {"type": "integer"}})
        assert served(ours, capsys, "generate", "--check") == here(theirs, "generate", "--check")


def test_only_generate_is_handed_over_and_never_without_a_server(tmp_path: Path, env: dict[str, str],
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    proj = project(tmp_path / "p")
    assert client.forward(["--project", str(proj), "generate"]) is None  # none running
    start(env)
    assert served(proj, capsys, "generate")[0] == 0  # it does answer generate: the Nones below mean something
    assert client.forward(["--project", str(proj), "ir", str(SEED)]) is None
    assert client.forward(["serve", "--stop"]) is None
    monkeypatch.setenv(client.SWITCH, "off")
    assert client.forward(["--project", str(proj), "generate"]) is None


def test_the_client_knows_every_global_option_that_takes_a_value() -> None:
    """``client.command`` skips their values to find the subcommand; one it did not know would make it
    take a value for the command."""
    from generator import cli

    takes_value = {s for action in cli._parser()._actions if action.option_strings and action.nargs != 0
                   and not action.__class__.__name__.startswith("_SubParsers") for s in action.option_strings}
    assert takes_value == client._OPTIONS_WITH_VALUE


def test_a_socket_in_a_folder_others_may_write_to_is_not_used(tmp_path: Path, env: dict[str, str],
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    proj = project(tmp_path / "p")
    start(env)
    assert served(proj, capsys, "generate")[0] == 0
    address = client.address()
    assert address is not None
    address.parent.chmod(0o777)
    try:
        assert client.forward(["--project", str(proj), "generate"]) is None
    finally:
        address.parent.chmod(0o700)


def test_a_server_whose_generator_changed_refuses_and_stops(tmp_path: Path, env: dict[str, str]) -> None:
    """A copy of the generator serves; a change to its source makes it refuse the next run."""
    package = tmp_path / "copy"
    shutil.copytree(ROOT / "generator", package / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "templates", package / "templates")
    proj = project(tmp_path / "p")
    start(env, package=package)
    ask = [sys.executable, "-c", "import sys; from generator import client; "
           f"print(client.forward(['--project', {str(proj)!r}, 'generate']))"]
    first = subprocess.run(ask, cwd=package, env=env, capture_output=True, text=True)
    assert first.stdout.splitlines()[-1] == "0", first.stderr
    with (package / "generator" / "names.py").open("a") as source:
        source.write("\n# changed\n")
    second = subprocess.run(ask, cwd=package, env=env, capture_output=True, text=True)
    assert second.stdout.splitlines()[-1] == "None", second.stderr  # the command then runs itself
    address = subprocess.run([sys.executable, "-c", "from generator import client; print(client.address())"],
                             cwd=package, env=env, capture_output=True, text=True).stdout.strip()
    assert _gone(Path(address))


def test_an_idle_server_stops_by_itself(tmp_path: Path, env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    proj = project(tmp_path / "p")
    start(env, "--idle", "1")
    address = client.address()
    assert address is not None and address.exists()
    assert _gone(address)
    assert client.forward(["--project", str(proj), "generate"]) is None


def test_stop(tmp_path: Path, env: dict[str, str]) -> None:
    start(env)
    start(env)  # a second start finds the first running
    address = client.address()
    assert address is not None and address.exists()
    done = subprocess.run([sys.executable, "-m", "generator", "serve", "--stop"], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert "server stopped" in done.stderr
    assert _gone(address)


def _gone(address: Path, within: float = 20.0) -> bool:
    deadline = time.monotonic() + within
    while address.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not address.exists()


def test_a_relative_cache_folder_names_one_folder(tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``SCHEMAGEN_CACHE_DIR=.cache`` started from the project: the server is the project's."""
    proj = project(tmp_path / "p")
    monkeypatch.chdir(proj)
    monkeypatch.setenv("SCHEMAGEN_CACHE_DIR", ".cache")
    done = subprocess.run([sys.executable, "-m", "generator", "serve", "--background"], cwd=proj,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    try:
        assert served(proj, capsys, "generate")[0] == 0
        assert (proj / ".cache").is_dir()
    finally:
        subprocess.run([sys.executable, "-m", "generator", "serve", "--stop"], cwd=proj,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True)


def test_the_environment_reached_through_a_link_is_the_same(tmp_path: Path, env: dict[str, str]) -> None:
    """A project whose .venv links to this one (as bench/run.py makes them) reaches the same server."""
    start(env)
    link = tmp_path / "venv"
    link.symlink_to(Path(sys.prefix))
    python = link / "bin" / Path(sys.executable).name
    ask = "from generator import client; print(client.address())"
    through_link = subprocess.run([str(python), "-c", ask], cwd=ROOT, env=env, capture_output=True, text=True)
    assert through_link.stdout.strip() == str(client.address()), through_link.stderr


def test_no_server_starts_in_a_folder_others_may_write_to(tmp_path: Path, env: dict[str, str]) -> None:
    """Nothing is written there (another user could have put a link where the log goes)."""
    address = client.address()
    assert address is not None
    address.parent.mkdir(mode=0o700)
    address.parent.chmod(0o777)
    for extra in (("--background",), ()):
        done = subprocess.run([sys.executable, "-m", "generator", "serve", *extra], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and "not a folder only you may write to" in done.stderr, done.stderr
    assert list(address.parent.iterdir()) == []


def test_a_socket_path_too_long_is_a_clear_error(tmp_path: Path, env: dict[str, str]) -> None:
    deep = Path(env["XDG_RUNTIME_DIR"]) / ("d" * 100)
    done = subprocess.run([sys.executable, "-m", "generator", "serve"], cwd=ROOT,
                          env={**env, "XDG_RUNTIME_DIR": str(deep)}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "cannot listen on" in done.stderr and "Traceback" not in done.stderr, done.stderr

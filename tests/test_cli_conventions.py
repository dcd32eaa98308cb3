"""What a user of a tool of this kind expects of it: ``--version``, a ``lint`` command, messages that name the
command the project runs, and warnings of a vendored spec that can be acknowledged once."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

import pytest

from schemagen import cli
from golden import ROOT
from test_cli import run


# --version -------------------------------------------------------------------------------------

def test_version_prints_the_installed_version_and_exits_0(tmp_path: Path) -> None:
    result = run(tmp_path, "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"schemagen {importlib.metadata.version('schemagen')}\n"


def test_version_without_an_installed_distribution(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """From a source tree, its pyproject.toml's version; from anywhere else, ``unknown``."""
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert cli.version() == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\nversion = "9"\n')
    monkeypatch.setattr(cli, "__file__", str(tmp_path / "generator" / "cli.py"))
    assert cli.version() == "unknown"

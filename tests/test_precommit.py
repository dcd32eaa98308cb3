"""The pre-commit hook as a user's project meets it: ``pre-commit try-repo`` installs this repository into an
environment of its own (``language: python``) and runs ``schemagen generate --check`` there.

The repository given to ``try-repo`` is this working tree committed in a temporary folder: given the checkout,
``try-repo`` would commit its tracked changes only, not its new files. Each ``try-repo`` installs the hook anew,
into a temporary store of its own, with the pins of requirements.lock (``PIP_CONSTRAINT``) so that the hook formats
with the versions that wrote the expected output. ``PRE_COMMIT_HOME`` and virtualenv's app data are temporary
folders too: nothing lands in the user's caches but pip's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from schemagen.project import config as configuration, write
from schemagen.project.plan import plan
from install_tools import LOCK, environment, run, user_project, working_tree

GIT = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "test",
       "GIT_AUTHOR_EMAIL": "test@example.invalid", "GIT_COMMITTER_NAME": "test",
       "GIT_COMMITTER_EMAIL": "test@example.invalid"}
"""git as on a machine without a configuration of its own."""


def commit_all(folder: Path) -> None:
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "snapshot"]):
        subprocess.run(["git", *command], cwd=folder, env={**os.environ, **GIT}, check=True, capture_output=True)


@pytest.fixture(scope="module")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This working tree as a repository of one commit."""
    repo = working_tree(tmp_path_factory.mktemp("hooks") / "schemagen")
    commit_all(repo)
    return repo


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A user's git project whose generated/ this checkout wrote, all committed."""
    folder = user_project(tmp_path / "project")
    config = configuration.load(folder)
    files = plan(config).files
    write.apply(config.output, files, write.compare(config.output, files))
    commit_all(folder)
    return folder


def try_repo(hooks_repo: Path, project: Path) -> subprocess.CompletedProcess[str]:
    work = project.parent
    env = environment(**GIT, PRE_COMMIT_HOME=str(work / "pre-commit"), PRE_COMMIT_COLOR="never",
                      VIRTUALENV_OVERRIDE_APP_DATA=str(work / "virtualenv"), PIP_CONSTRAINT=str(LOCK),
                      SCHEMAGEN_CACHE_DIR=str(work / "cache"))
    return run([sys.executable, "-m", "pre_commit", "try-repo", hooks_repo, "schemagen-check", "--all-files"],
               project, env)


def test_the_hook_passes_when_generated_is_up_to_date(hooks_repo: Path, project: Path) -> None:
    result = try_repo(hooks_repo, project)
    assert result.returncode == 0 and "Passed" in result.stdout, f"{result.stdout}\n{result.stderr}"
    head = run(["git", "rev-parse", "HEAD"], hooks_repo, environment()).stdout.strip()
    assert f"rev: {head}" in result.stdout  # the working tree's snapshot, not the checkout's last commit


def test_the_hook_fails_with_the_diff_after_a_schema_edit_without_regenerating(hooks_repo: Path,
                                                                                project: Path) -> None:
    schema = project / "schemas" / "items.yaml"
    schema.write_text(schema.read_text().replace("A priced item.", "A priced thing."))
    result = try_repo(hooks_repo, project)
    assert result.returncode == 1 and "Failed" in result.stdout, f"{result.stdout}\n{result.stderr}"
    changed = [line for line in result.stdout.splitlines() if line.startswith(("-", "+")) and "priced" in line]
    assert changed == ['-    """A priced item."""', '+    """A priced thing."""'] * 3, result.stdout

"""What the install tests share: this working tree copied out, a user's project, and commands run as a user would.

Nothing is built or written inside the checkout: a build in place would leave build/ and *.egg-info there, and
``pre-commit try-repo`` on the checkout itself would miss its untracked files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from golden import ROOT

LOCK = ROOT / "requirements.lock"
PYPROJECT = '[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\n'
SCHEMAS = {
    "chat_completion_out.json": ROOT / "schemas" / "chat_completion_out.json",
    "items.yaml": ROOT / "tests" / "golden" / "dialects" / "input.openapi31.yaml",  # OpenAPI 3.1, YAML
}
"""The inputs of a user's project: a JSON Schema file and an OpenAPI document in YAML."""


def working_tree(dest: Path) -> Path:
    """The files of this working tree that git would commit (tracked or new, not ignored), copied to ``dest``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():  # not a tracked file deleted in the working tree
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def user_project(dest: Path) -> Path:
    """A project of a schemagen user: a ``pyproject.toml`` with a ``[tool.schemagen]`` table and ``schemas/``."""
    (dest / "schemas").mkdir(parents=True)
    (dest / "pyproject.toml").write_text(PYPROJECT)
    for name, source in SCHEMAS.items():
        shutil.copy(source, dest / "schemas" / name)
    return dest


def environment(**extra: str) -> dict[str, str]:
    """This process's environment without a way back to the checkout (no ``PYTHONPATH``), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return {**env, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **extra}


def run(command: Sequence[str | Path], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True)


def pip(command: Sequence[str | Path], cwd: Path, env: dict[str, str], what: str) -> None:
    """Run a pip ``command``; a failure names its likeliest cause (no PyPI here: the build backend and the pinned
    dependencies come from there, or from pip's cache) and shows pip's own words."""
    result = run(command, cwd, env)
    if result.returncode != 0:
        raise AssertionError(f"pip could not {what} (exit {result.returncode}). Does this machine reach PyPI? The "
                             f"build needs the backend pinned in [build-system], the install the pins of "
                             f"requirements.lock.\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def shared(path: str) -> Path:
    """A file of ../shared; the calling test is skipped when it is absent (a user's clone)."""
    target = SHARED / path
    if not target.exists():
        pytest.skip(f"../shared/{path} is not here")
    return target

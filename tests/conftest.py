from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

# The generator's persistent cache, for this test run only (and the commands it starts): tests never
# read what an earlier run left, nor fill the user's own cache.
if "SCHEMAGEN_CACHE_DIR" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="schemagen-test-cache-")
    os.environ["SCHEMAGEN_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, ignore_errors=True)

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def shared(path: str) -> Path:
    """A file of ../shared; the calling test is skipped when it is absent (a user's clone)."""
    target = SHARED / path
    if not target.exists():
        pytest.skip(f"../shared/{path} is not here")
    return target

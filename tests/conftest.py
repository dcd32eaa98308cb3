from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

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
        pytest.skip(f"needs ../shared/{path} (a public test corpus beside the checkout), which is missing; "
                    "docs/conformance.md, 'The corpora', says where it comes from and how to lay it out")
    return target


def bench_module(name: str) -> ModuleType:
    """``bench/<name>.py``, imported once, as ``schemagen_bench_<name>`` (bench/ is no package)."""
    qualified = f"schemagen_bench_{name}"
    if qualified not in sys.modules:
        spec = importlib.util.spec_from_file_location(qualified, ROOT / "bench" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[qualified] = module
        spec.loader.exec_module(module)
    return sys.modules[qualified]

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import Phase, settings
from hypothesis.database import DirectoryBasedExampleDatabase

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

# The generator's persistent cache, for this test run only (and the commands it starts): tests never
# read what an earlier run left, nor fill the user's own cache.
if "SCHEMAGEN_CACHE_DIR" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="schemagen-test-cache-")
    os.environ["SCHEMAGEN_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, ignore_errors=True)

# Hypothesis, for every property test: by default (`make test`, CI) the same examples every run, nothing
# remembered between runs, a deadline per example and no shrinking: a failure shows the first failing
# example (shrinking a random schema took over 5 minutes). SCHEMAGEN_FUZZ_EXAMPLES=N (`make fuzz`) is a
# long random run instead: N examples a test, shrunk, the failures kept in $TMPDIR/schemagen-hypothesis
# and replayed first next time. Each test sets its own max_examples with ``examples(default)``.
FUZZ_EXAMPLES = os.environ.get("SCHEMAGEN_FUZZ_EXAMPLES")
settings.register_profile("schemagen", derandomize=True, database=None, deadline=timedelta(seconds=60),
                          phases=[Phase.explicit, Phase.generate, Phase.target], print_blob=True)
settings.register_profile("schemagen-long", derandomize=False, deadline=timedelta(seconds=60), print_blob=True,
                          database=DirectoryBasedExampleDatabase(Path(tempfile.gettempdir()) / "schemagen-hypothesis"))
settings.load_profile("schemagen-long" if FUZZ_EXAMPLES else "schemagen")


def examples(default: int) -> int:
    """A property test's ``max_examples``: ``default``, or SCHEMAGEN_FUZZ_EXAMPLES where it is set."""
    return int(FUZZ_EXAMPLES) if FUZZ_EXAMPLES else default


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

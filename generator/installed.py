"""The version of an installed distribution, read without importing ``importlib.metadata``.

What a cache entry depends on includes the versions of black and of the validator. Importing
``importlib.metadata`` to ask costs some 15 ms (it brings ``email``, ``socket``, ``csv``...): a tenth of
what a small edit of a large input spends on imports. The packaging standard names an installed
distribution's folder ``<name>-<version>.dist-info``, beside its package; that name says the version.
"""

from __future__ import annotations

import importlib.util
import os
import re
from functools import cache


@cache
def version(distribution: str, package: str | None = None) -> str:
    """``importlib.metadata.version(distribution)``: off the one ``.dist-info`` folder of ``distribution``
    beside its package (``package``: its import name, when another), without importing the package; from
    the metadata where that folder is not found, or not one."""
    spec = importlib.util.find_spec(package or distribution)
    if spec is not None and spec.origin:
        site = os.path.dirname(os.path.dirname(spec.origin))
        prefix = re.sub(r"[-_.]+", "_", distribution).lower() + "-"  # (the name as the folder spells it)
        found = [n for n in os.listdir(site) if n.lower().startswith(prefix) and n.endswith(".dist-info")]
        if len(found) == 1:
            return found[0][len(prefix):].removesuffix(".dist-info")
    from importlib.metadata import version as from_metadata

    return from_metadata(distribution)

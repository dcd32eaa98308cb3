"""The IR as stable JSON (``python -m schemagen ir PATH``): for reading, diffing and tests."""

from __future__ import annotations

import json
from typing import Any

from ..frozen import Frozen, fields
from . import nodes as ir


def to_data(node: Any) -> Any:
    if isinstance(node, Frozen):
        data: dict[str, Any] = {"node": type(node).__name__}
        for f in fields(node):
            data[f.name] = to_data(getattr(node, f.name))
        return data
    if isinstance(node, (tuple, list)):
        return [to_data(n) for n in node]
    return node


def dumps(module: ir.Module) -> str:
    return json.dumps(to_data(module), indent=2, ensure_ascii=False) + "\n"

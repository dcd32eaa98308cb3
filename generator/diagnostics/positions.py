"""Line and column of a JSON pointer in a JSON, YAML or TOML file, for messages (computed on demand)."""

from __future__ import annotations

from pathlib import Path

from .errors import tokens


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of the character at ``offset`` of ``text``."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def locate(file: Path, pointer: str) -> tuple[int, int] | None:
    """1-based (line, column) of the value at ``pointer``, or of its nearest parent that exists."""
    return locate_all(file, [pointer]).get(pointer)


def locate_all(file: Path, pointers: list[str]) -> dict[str, tuple[int, int]]:
    """``locate`` of each pointer, the file read once."""
    if file.suffix == ".toml":  # pyproject.toml
        from .toml_positions import locate_toml

        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return {}
        return {p: found for p in pointers if (found := locate_toml(text, p)) is not None}
    import yaml  # only when there is something to report

    try:
        top = yaml.compose(file.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    if top is None:
        return {}
    out = {}
    for pointer in pointers:
        node = top
        for token in tokens(pointer):
            child = None
            if isinstance(node, yaml.MappingNode):
                child = next((value for key, value in node.value if getattr(key, "value", None) == token), None)
            elif isinstance(node, yaml.SequenceNode) and token.isdigit() and int(token) < len(node.value):
                child = node.value[int(token)]
            if child is None:
                break
            node = child
        out[pointer] = (node.start_mark.line + 1, node.start_mark.column + 1)
    return out

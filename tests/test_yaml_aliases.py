"""YAML aliases may repeat a value, within bounds (generator/frontend/aliases.py): a text that stands for
more than ``RATIO`` values per character is refused where it is read, and counting them costs linear time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from schemagen.cache import yaml_pieces
from schemagen.cache.store import Cache
from schemagen.diagnostics import SchemaError
from schemagen.frontend import aliases, read, yaml_core
from test_cli import user_env

HANG = 120
"""Seconds after which a run that should have refused the document at once is taken to be walking it."""


def doubling(levels: int, use: str = "v{last}") -> str:
    """An OpenAPI document whose ``x-values`` double at every level (``v{k}`` holds ``v{k-1}`` twice), and
    whose one property's default is ``use``: a text linear in ``levels``, a value of ``2 ** levels``."""
    lines = ["openapi: 3.1.0", "info: {title: t, version: '1'}", "paths: {}", "x-values:", "  v0: &v0 [1, 2]"]
    lines += [f"  v{k}: &v{k} [*v{k - 1}, *v{k - 1}]" for k in range(1, levels + 1)]
    lines += ["components:", "  schemas:", "    Thing:", "      type: object", "      properties:",
              "        a:", "          type: array", f"          default: *{use.format(last=levels)}"]
    return "\n".join(lines) + "\n"


def written_out(value: Any) -> int:
    """The values ``value`` holds as a tree (each mapping key one): the oracle, walked naively."""
    if isinstance(value, dict):
        return 1 + sum(1 + written_out(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(written_out(v) for v in value)
    return 1


def counted(text: str) -> int:
    """What the check counts of ``text``: over the node graph as the loader leaves it (merge keys merged)."""
    loader = yaml_core.loader()(text)
    try:
        loader.get_single_data()
        root = loader.root
    finally:
        loader.dispose()
    sizes, _, _ = aliases._counted(root, 10 ** 18)
    return sizes.get(id(root), 1)


def test_aliases_of_aliases_are_refused_where_they_are_read(tmp_path: Path) -> None:
    """Sixty levels stand for 2**60 values: refused at once, at the first anchored value too large alone."""
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "api.yaml").write_text(doubling(60))
    (tmp_path / "pyproject.toml").write_text("[tool.schemagen]\n")
    result = subprocess.run([sys.executable, "-m", "schemagen", "generate"], capture_output=True, text=True,
                            env=user_env(), cwd=tmp_path, timeout=HANG)
    err = result.stderr
    assert result.returncode == 1 and "Traceback" not in err, err
    assert not (tmp_path / "generated").exists()
    first = next(k for k in range(61) if 3 * 2 ** k + 2 ** k - 1 > aliases.RATIO * len(doubling(60)))
    line, column = 5 + first, len(f"  v{first}: ") + 1
    assert f"schemas/api.yaml:{line}:{column}: #/x-values/v{first}: through YAML aliases, the value anchored here " \
           f"stands in 3 places" in err
    assert "`$ref`" in err


def test_what_aliases_stand_for_is_counted_once_a_node() -> None:
    """The count grows with the text, not with what it stands for: each node's children are walked once."""
    walked: list[int] = []
    real = aliases._children

    def children(node: Any) -> Any:
        walked.append(1)
        if len(walked) > 100_000:  # (2**100 values walked as a tree would never end)
            raise RuntimeError("walked the values, not the nodes")
        return real(node)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(aliases, "_children", children)
        steps = []
        for levels in (100, 200, 400):
            walked.clear()
            with pytest.raises(aliases.Overgrown):
                read.load_yaml(doubling(levels))
            steps.append(len(walked))
    assert steps[1] <= 2.2 * steps[0] and steps[2] <= 2.2 * steps[1], steps


def test_repeated_blocks_within_bounds_are_read() -> None:
    """What real documents do with anchors: a block merged into many mappings, a schema used in many places."""
    text = "common: &common {type: object, properties: {code: {type: integer}, message: {type: string}}}\n" \
           "paths:\n" + "".join(f"  /p{i}: {{get: {{responses: {{'4XX': *common, '5XX': {{<<: *common}}}}}}}}\n"
                                for i in range(300))
    value = read.load_yaml(text)
    assert value["paths"]["/p299"]["get"]["responses"]["5XX"]["properties"]["code"] == {"type": "integer"}
    assert written_out(value) < aliases.RATIO * len(text)


@st.composite
def anchored_texts(draw: st.DrawFn) -> str:
    """A YAML mapping of entries, each a scalar, a sequence or a mapping of scalars and aliases of the
    entries before it: values shared any number of times."""
    lines = []
    for k in range(draw(st.integers(1, 8))):
        parts = draw(st.lists(st.one_of(st.integers(0, 9).map(str), st.integers(0, max(k - 1, 0)).map(
            lambda j, k=k: f"*a{j}" if k else "x")), max_size=4))
        if draw(st.booleans()):
            lines.append(f"e{k}: &a{k} [{', '.join(parts)}]")
        else:
            lines.append(f"e{k}: &a{k} {{{', '.join(f'k{i}: {p}' for i, p in enumerate(parts))}}}")
    return "\n".join(lines) + "\n"


@settings(max_examples=200, deadline=None)
@given(anchored_texts())
def test_the_count_is_the_tree_written_out(text: str) -> None:
    assert counted(text) == written_out(yaml.safe_load(text))


def test_merged_keys_are_counted_as_merged() -> None:
    text = "a: &a {x: 1, y: [1, 2, 3]}\nb: {<<: *a, z: 2}\n"
    assert read.load_yaml(text)["b"] == {"x": 1, "y": [1, 2, 3], "z": 2}
    assert counted(text) == written_out(read.load_yaml(text))
    overridden = "a: &a {x: 1, y: [1, 2, 3]}\nb: {<<: *a, x: 2}\n"  # (the merged x is counted, though b's own wins)
    assert counted(overridden) == written_out(read.load_yaml(overridden)) + 2


def test_a_text_without_anchors_is_not_walked() -> None:
    assert not aliases.anchored("description: 'R&D, a & b, https://x.org/?a=1&b=2, **bold** and *it*'\n")
    assert aliases.anchored("&a [1]\n") and aliases.anchored("k: [&a 1, *a]\n") and aliases.anchored("{k:&a 1}")


def test_a_document_read_by_pieces_is_refused_as_the_whole_is(tmp_path: Path) -> None:
    """The pieces are each within bounds, or the whole text is read and refused: one verdict either way."""
    filler = "".join(f"    S{i}:\n      type: string\n      description: {'text ' * 20}\n" for i in range(500))
    text = doubling(60).replace("components:\n  schemas:\n", "components:\n  schemas:\n" + filler)
    assert len(text) >= yaml_pieces.PIECES_FROM
    with pytest.raises(aliases.Overgrown) as whole:
        read.load_yaml(text)
    for _ in range(2):  # cold, then with what the cold run kept
        with pytest.raises(aliases.Overgrown) as pieces:
            yaml_pieces.load(text, read.load_yaml, Cache(tmp_path / "cache"), read.yaml_version())
        assert (pieces.value.pointer, pieces.value.line) == (whole.value.pointer, whole.value.line)
    path = tmp_path / "api.yaml"
    path.write_text(text)
    with pytest.raises(SchemaError) as error:
        yaml_pieces.read_document(path, "api.yaml", Cache(tmp_path / "cache"))
    assert error.value.diagnostics[0].location.pointer == whole.value.pointer


def test_an_anchor_inside_itself_is_left_to_the_nesting_check() -> None:
    with pytest.raises(SchemaError) as error:
        read.parse("a: &a [1, *a]\n", ".yaml", "loop.yaml")
    assert "nests more than" in error.value.diagnostics[0].message
    assert counted("a: &a [1, *a]\n") == 5  # the mapping, its key, the sequence, 1, and the sequence again

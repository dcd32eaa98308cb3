"""YAML inputs are read with the YAML 1.2 core schema, whole (``frontend.read``) and piece by piece
(``cache.yaml_pieces``) alike; merge keys (``<<``) are kept as an extension."""

from __future__ import annotations

import math
import pickle
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemagen.cache import yaml_pieces
from schemagen.cache.store import Cache
from schemagen.frontend import read
from test_cli import run

INF = float("inf")
NAN = float("nan")


@pytest.fixture
def cache(tmp_path: Path) -> Cache:
    return Cache(tmp_path / "cache")


@pytest.fixture(autouse=True)
def cut_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_pieces, "SPLIT", 0)  # cut every mapping entry, however small


def typed(value: Any) -> Any:
    """``value`` with every scalar's type beside it (``1`` is not ``1.0`` nor ``True``; ``-0.0`` is not
    ``0.0``; a NaN is a NaN), for comparing what was read with what was meant."""
    if isinstance(value, dict):
        return ["dict", [(typed(k), typed(v)) for k, v in value.items()]]
    if isinstance(value, list):
        return ["list", [typed(v) for v in value]]
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, repr(value))


def read_both(text: str, cache: Cache) -> Any:
    """The plain read of ``text``, after checking that reading it piece by piece (cold, then from the
    cache) gives the same bytes, and that it really was cut into pieces."""
    whole = read.load_yaml(text)
    texts: list[str] = []

    def counting(piece: str) -> Any:
        texts.append(piece)
        return read.load_yaml(piece)

    for _ in range(2):
        got = yaml_pieces.load(text, counting, cache, read.yaml_version())
        assert pickle.dumps(got) == pickle.dumps(whole)
    assert len(texts) > 1, "the text was parsed whole, not piece by piece"
    return whole


def test_example_10_9_core_tag_resolution(cache: Cache) -> None:
    text = textwrap.dedent("""\
        A null: null
        Also a null: # Empty
        Not a null: ""
        Booleans: [ true, True, false, FALSE ]
        Integers: [ 0, 0o7, 0x3A, -19 ]
        Floats: [ 0., -0.0, .5, +12e03, -2E+05 ]
        Also floats: [ .inf, -.Inf, +.INF, .NAN ]
        """)
    assert typed(read_both(text, cache)) == typed({
        "A null": None, "Also a null": None, "Not a null": "",
        "Booleans": [True, True, False, False],
        "Integers": [0, 7, 58, -19],
        "Floats": [0.0, -0.0, 0.5, 12000.0, -200000.0],
        "Also floats": [INF, -INF, INF, NAN],
    })


def test_example_2_19_integers(cache: Cache) -> None:
    text = "canonical: 12345\ndecimal: +12345\noctal: 0o14\nhexadecimal: 0xC\n"
    assert typed(read_both(text, cache)) == typed({"canonical": 12345, "decimal": 12345, "octal": 12, "hexadecimal": 12})


def test_example_2_20_floats(cache: Cache) -> None:
    text = ("canonical: 1.23015e+3\nexponential: 12.3015e+02\nfixed: 1230.15\n"
            "negative infinity: -.inf\nnot a number: .nan\n")
    assert typed(read_both(text, cache)) == typed({
        "canonical": 1230.15, "exponential": 1230.15, "fixed": 1230.15, "negative infinity": -INF, "not a number": NAN,
    })


def test_what_yaml_1_1_reads_otherwise(cache: Cache) -> None:
    text = textwrap.dedent("""\
        switches: [on, off, On, OFF, yes, no, Yes, NO, y, n, Y, N]
        octal-looking: 0777
        signed-zero-padded: -010
        sexagesimal: 1:20
        sexagesimal-float: 1:20.5
        small: 1e-08
        large: 1e+09
        no-dot: 1E3
        date: 2001-12-14
        timestamp: 2001-12-14t21:59:43.10-05:00
        underscored: 1_000
        binary: 0b101
        signed-hex: -0x1F
        value-key: =
        quoted: ['1e-08', "on", '0777', "null", 'true', '']
        """)
    assert typed(read_both(text, cache)) == typed({
        "switches": ["on", "off", "On", "OFF", "yes", "no", "Yes", "NO", "y", "n", "Y", "N"],
        "octal-looking": 777,
        "signed-zero-padded": -10,
        "sexagesimal": "1:20",
        "sexagesimal-float": "1:20.5",
        "small": 1e-08,
        "large": 1e09,
        "no-dot": 1000.0,
        "date": "2001-12-14",
        "timestamp": "2001-12-14t21:59:43.10-05:00",
        "underscored": "1_000",
        "binary": "0b101",
        "signed-hex": "-0x1F",
        "value-key": "=",
        "quoted": ["1e-08", "on", "0777", "null", "true", ""],
    })


def test_mapping_keys_resolve_like_values(cache: Cache) -> None:
    text = "enum-names:\n  on: 1\n  off: 2\n  yes: 3\n  n: 4\n  0777: 5\n  true: 6\n  ~: 7\n"
    assert typed(read_both(text, cache)) == typed({"enum-names": {"on": 1, "off": 2, "yes": 3, "n": 4, 777: 5, True: 6, None: 7}})


def test_explicit_tags_take_the_1_2_forms(cache: Cache) -> None:
    text = "a: !!int 0777\nb: !!float 1\nc: !!str 1e-08\nd: !!int 0x1f\n"
    assert typed(read_both(text, cache)) == typed({"a": 777, "b": 1.0, "c": "1e-08", "d": 31})
    with pytest.raises(yaml.YAMLError):  # not a 1.2 integer: a located YAML error, not a ValueError
        read.load_yaml("a: !!int 0b101\n")


def test_merge_keys_are_kept(cache: Cache) -> None:
    text = textwrap.dedent("""\
        base:
          x: &defaults {type: number, minimum: 1e-08}
          y:
            <<: *defaults
            maximum: 1e+09
        other: 1
        """)
    got = read_both(text, cache)
    assert typed(got["base"]["y"]) == typed({"type": "number", "minimum": 1e-08, "maximum": 1e09})


def test_pieces_read_by_the_1_1_loader_are_not_reused(cache: Cache) -> None:
    """The loader's version is in a piece's cache key: what an earlier loader left is not taken."""
    text = "a: on\nb: 1e-08\nc: 0777\n"

    class Loader11(yaml.CSafeLoader):  # the YAML 1.1 reading, timestamps removed, and its version
        yaml_implicit_resolvers = {first: [(tag, regexp) for tag, regexp in resolvers if not tag.endswith(":timestamp")]
                                   for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}

    yaml_pieces.load(text, lambda piece: yaml.load(piece, Loader=Loader11), cache, f"{yaml.__version__} CSafeLoader no-timestamps")
    assert read.yaml_version() != f"{yaml.__version__} CSafeLoader no-timestamps"
    assert typed(yaml_pieces.load(text, read.load_yaml, cache, read.yaml_version())) == typed({"a": "on", "b": 1e-08, "c": 777})


def test_an_openapi_yaml_document_with_1_2_numbers_and_words_generates(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "knobs.yaml").write_text(textwrap.dedent("""\
        openapi: 3.1.0
        info: {title: Knobs, version: '1'}
        paths: {}
        components:
          schemas:
            Knob:
              type: object
              required: [level, switch]
              properties:
                level:
                  type: number
                  minimum: 1e-08
                  maximum: 1e+09
                switch:
                  type: string
                  enum: [on, off]
        """))
    (tmp_path / "pyproject.toml").write_text('[tool.schemagen]\nschemas = "schemas"\noutput = "generated"\n')
    result = run(tmp_path, "generate")
    assert result.returncode == 0, result.stderr
    assert "0 warnings" in result.stderr and "warning" not in result.stderr.replace("0 warnings", "")
    out = tmp_path / "generated" / "knobs"
    msgspec_models = (out / "msgspec_models.py").read_text()
    assert "level: Annotated[float, Meta(ge=1e-08, le=1000000000.0)]" in msgspec_models
    for variant in ("dataclass", "typeddict", "msgspec"):
        assert 'switch: Literal["on", "off"]' in (out / f"{variant}_models.py").read_text(), variant

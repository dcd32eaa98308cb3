"""No shape of schema costs more than linear work (#22): each shape of bench/shapes.py, grown ×2 twice;
and the limits on nesting that keep it so.

Work is counted, not timed: the Python calls that reading, lowering, the passes and laying out all
variants make (``sys.setprofile``), the same on a busy machine as on an idle one. What a run
costs whatever the size (imports, the meta-schemas, the templates) cancels out of the difference
between two sizes; the test holds ``work(4n) - work(2n)`` to about twice ``work(2n) - work(n)``:
linear growth gives 2, quadratic 4. Black's share is measured by bench/growth.py (``make bench``).

Schemagen writes each ``allOf`` flat (every class lists the fields it takes from its parents), so an
``allOf`` chain of n links is a module of n²/2 fields: there the work per field written is held.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from schemagen.diagnostics import Location
from schemagen.frontend import validate
from schemagen.frontend.nesting import MAX_NESTING
from schemagen.frontend.schema import Definition, wrap
from schemagen.lower import literals
from schemagen.ir import Model, Module

from conftest import ROOT, bench_module

GROWTH = bench_module("growth")
SHAPES: dict[str, Callable[[int], dict[str, Any]]] = GROWTH.SHAPES
SIZES = (12, 24, 48)
SCALE = {"long enum": 8, "wide object": 4}
"""Shapes whose every unit costs so few calls (an enum value: about ten) that at ``SIZES`` a step in some
fixed cost (some fifty calls, seen between 24 and 48 values) weighs as much as the growth, or so many
(a field: hundreds) that work squared in their number shows only further up (the pydantic variant's
names of a class, made again for each of its fields, passed at 48 fields and failed at 192): counted
at ``SIZES`` times this."""
LINEAR = 2.4
"""The most ``work(4n) - work(2n)`` may be over ``work(2n) - work(n)``: 2 is linear, 4 quadratic."""


def _run(document: dict[str, Any], folder: Path) -> Module:
    return GROWTH.generate(document, folder, black=False)  # type: ignore[no-any-return]


def _work(document: dict[str, Any], folder: Path) -> tuple[int, Module]:
    """The Python calls ``_run`` makes, and its module."""
    calls = 0

    def count(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(count)  # type: ignore[arg-type]
    try:
        module = _run(document, folder)
    finally:
        sys.setprofile(None)
    return calls, module


def _linear(work: list[int]) -> bool:
    return work[2] - work[1] <= LINEAR * max(work[1] - work[0], 0)


def _fields(module: Module) -> int:
    return sum(len(d.fields) if isinstance(d, Model) else 1 for d in module.declarations)


def _measure(shape: str, folder: Path) -> tuple[list[int], list[int]]:
    """The calls and the fields written at each of ``SIZES``."""
    sizes = [n * SCALE.get(shape, 1) for n in SIZES]
    _run(SHAPES[shape](sizes[0]), folder)  # what a first run does once (caches, imports) is not counted
    measured = [_work(SHAPES[shape](n), folder) for n in sizes]
    return [calls for calls, _ in measured], [_fields(module) for _, module in measured]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_doubling_a_shape_at_most_doubles_the_work(shape: str, tmp_path: Path) -> None:
    """Counted in a process of its own, capped (``MEMORY``): a cost gone exponential fails, quickly."""
    paths = os.pathsep.join([str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, __file__, shape, str(tmp_path)], capture_output=True, text=True,
                          timeout=300, preexec_fn=_capped, env={**os.environ, "PYTHONPATH": paths})
    assert done.returncode == 0, done.stderr[-3000:]
    calls, sizes = json.loads(done.stdout)
    if shape == "allOf chain":  # its output is quadratic (see above): the work per field written
        assert sizes[2] > 3 * sizes[1] > 9 * sizes[0], sizes  # still flat: else this branch is not needed
        per_field = [w / s for w, s in zip(calls, sizes)]
        assert per_field[2] <= 1.15 * per_field[1], (shape, calls, sizes)
        return
    assert calls[1] > calls[0], calls
    assert _linear(calls), f"{shape}: {calls} calls for sizes {SIZES}: more than linear"


def test_the_count_sees_quadratic_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The measure can fail: enum values told apart by comparing each with all kept before it (as
    ``lower.shapes.distinct`` did until #22) are caught at these sizes."""
    def quadratic(values: list[Any]) -> list[Any]:
        seen: list[Any] = []
        for v in values:
            if not any(v == s and type(v) is type(s) for s in seen):
                seen.append(v)
        return seen

    monkeypatch.setattr(literals, "distinct", quadratic)
    _run(SHAPES["long enum"](SIZES[0]), tmp_path)
    work = [_work(SHAPES["long enum"](n * SCALE["long enum"]), tmp_path)[0] for n in SIZES]
    assert not _linear(work), work


DEEPEST = {"depth": ((MAX_NESTING - 1) // 2, "msgspec"), "anyOf in anyOf": ((MAX_NESTING - 3) // 2 - 1, "dataclass")}
"""Each nesting shape at the most the nesting limit lets through (a level is two: a keyword, then a
value), and the variant it is rendered in (every stage runs for any of them; each takes seconds)."""
MEMORY = 2 * 1024**3
"""The address space the command may take, its 512 MB stack included: an exponential cost ends in a
MemoryError here, within seconds, not with the machine's memory."""


def _write(path: Path, document: dict[str, Any]) -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(10 * MAX_NESTING)  # json.dumps recurses with the document
    try:
        path.write_text(json.dumps(document), encoding="utf-8")
    finally:
        sys.setrecursionlimit(limit)


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _render(path: Path, variant: str = "msgspec") -> subprocess.CompletedProcess[str]:
    """``schemagen render`` of ``path``, in a process capped at ``MEMORY``."""
    return subprocess.run([sys.executable, "-m", "schemagen", "render", "--variant", variant, str(path)],
                          capture_output=True, text=True, timeout=300, preexec_fn=_capped)


@pytest.mark.parametrize("shape", sorted(DEEPEST))
def test_the_deepest_document_the_limit_lets_through_is_generated(shape: str, tmp_path: Path) -> None:
    """Until #22, a 2 KB document of inline objects 26 deep took 1.3 GB and one 50 deep all the memory."""
    path = tmp_path / "deep.json"
    size, variant = DEEPEST[shape]
    _write(path, SHAPES[shape](size))
    done = _render(path, variant)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("class ") >= size


def test_a_document_past_the_limit_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    _write(path, SHAPES["depth"](MAX_NESTING // 2 + 1))
    done = _render(path)
    assert done.returncode == 1 and "Traceback" not in done.stderr and done.stdout == ""
    assert done.stderr.startswith(f"{path.name}:1:") and "/properties/x/properties/x" in done.stderr, done.stderr
    assert f"the document nests more than {MAX_NESTING} levels deep" in done.stderr


def test_an_annotation_nests_at_most_64_types_and_a_flattened_union_is_one(tmp_path: Path) -> None:
    """The limit is the annotation's, not the schema's: ``anyOf`` in ``anyOf`` 100 deep is one flat
    union (it was refused as 'more than 64 levels deep'); 70 arrays in each other are refused."""
    _write(tmp_path / "unions.json", SHAPES["anyOf in anyOf"](100))
    done = _render(tmp_path / "unions.json")
    assert done.returncode == 0 and done.stdout.count("class ") == 101, done.stderr
    items: dict[str, Any] = {"type": "string"}
    for _ in range(70):
        items = {"type": "array", "items": items}
    _write(tmp_path / "lists.json", {"title": "L", "type": "object", "properties": {"l": items}})
    done = _render(tmp_path / "lists.json")
    assert done.returncode == 1 and done.stdout == "", done.stdout
    assert done.stderr.strip() == ("lists.json:1:54: #/properties/l: a type nested 70 levels deep, more than the 64 an "
                                   "annotation may - give an inner level a name of its own")


def test_a_value_shared_through_anchors_is_walked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """YAML anchors make one value the child of many: 16 levels of two aliases each are 65,536 paths
    to the innermost list, and a walk per path (the nesting check before this test) is exponential in
    the document's size; each container is walked a bounded number of times now. (The reader refuses
    this text, which stands for more values than ``aliases.RATIO`` a character: the check is run here on
    PyYAML's own value, as it is on any value shared within the bound.)"""
    import yaml

    from schemagen.frontend import nesting

    text = "a0: &a0 [1]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n" for i in range(1, 17))
    walked: list[object] = []
    items = nesting._items
    monkeypatch.setattr(nesting, "_items", lambda value: (walked.append(value), items(value))[1])
    document = yaml.safe_load(text)
    nesting.check(document, text, False, "x.yaml")
    assert document["a16"][0] is document["a16"][1] is document["a15"]  # one value, many parents
    assert len(walked) <= 3 * 18, len(walked)


def test_a_document_within_the_limit_that_this_process_cannot_read_is_not_said_to_pass_it() -> None:
    """Read in a process with Python's own recursion limit (a test, a library caller), 995 levels
    fail inside ``json.loads``: that is said as what it is, not as more than the 1,000 levels."""
    from schemagen.diagnostics import SchemaError
    from schemagen.frontend.read import parse

    depth = MAX_NESTING - 5
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(MAX_NESTING)
    try:
        with pytest.raises(SchemaError) as caught:
            parse("[" * depth + "]" * depth, ".json", "x.json")
    finally:
        sys.setrecursionlimit(limit)
    assert "recursion limit (1000)" in str(caught.value) and "more than 1000" not in str(caught.value)


if __name__ == "__main__":  # what test_doubling_a_shape_at_most_doubles_the_work runs: SHAPE FOLDER
    print(json.dumps(_measure(sys.argv[1], Path(sys.argv[2]))))


def test_defaults_along_a_ref_chain_are_looked_up_once_a_target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """n properties that refer to the head of an n-link ``$ref`` chain: each property's default is
    looked for along the chain (``lower.references.default``), a loop whose steps make no call, so the
    schema look-ups are counted. Each target answered once, they grow as the schema does."""
    from schemagen.diagnostics import Reporter
    from schemagen.frontend.schema import Schema
    from schemagen.project.inputs import Input
    from schemagen.project.pipeline import to_ir

    def chain(n: int) -> dict[str, Any]:
        defs: dict[str, Any] = {f"R{i}": {"$ref": f"#/$defs/R{i + 1}"} for i in range(n)}
        defs[f"R{n}"] = {"type": "object", "properties": {"x": {"type": "string"}}}
        return {"title": "Refs", "type": "object", "$defs": defs,
                "properties": {f"p{i}": {"$ref": "#/$defs/R0"} for i in range(n)}}

    looked = [0]
    get = Schema.get
    monkeypatch.setattr(Schema, "get", lambda self, *a: (looked.__setitem__(0, looked[0] + 1), get(self, *a))[1])
    work = []
    for n in (50, 100, 200):
        path = tmp_path / f"chain{n}.json"
        path.write_text(json.dumps(chain(n)), encoding="utf-8")
        looked[0] = 0
        to_ir(Input("chain", path, path.name), tmp_path, Reporter())
        work.append(looked[0])
    assert _linear(work), work


def _hiding_work(n: int, folder: Path) -> tuple[int, int]:
    """The lines ``compare.hiding`` runs (lines, not calls: a loop over all differences makes no call)
    while ``compare`` and its text report treat two responses whose choice's message differs in ``n``
    properties, all hidden by the ``refusal`` one side's closed message lacks; and how many are hidden."""
    from compare_tools import side
    from schemagen.compare import compare, hiding, report

    def response(message: dict[str, Any]) -> dict[str, Any]:
        choice = {"type": "object", "required": ["message"], "properties": {"message": message}}
        return {"title": "R", "type": "object", "properties": {"choices": {"type": "array", "items": choice}}}

    parts = {f"p{i}": {"type": "integer"} for i in range(n)}
    a = response({"type": "object", "required": ["refusal"], "properties": {"refusal": {"type": "string"}, **parts}})
    b = response({"type": "object", "additionalProperties": False,
                  "properties": {k: {"type": "string"} for k in parts}})
    one, other = side(folder / f"a{n}", a), side(folder / f"b{n}", b)
    lines = 0

    def local(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal lines
        if event == "line":
            lines += 1
        return local

    def trace(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_globals.get("__name__") == hiding.__name__ else None

    sys.settrace(trace)
    try:
        found = compare(one, other)
        report.text(found)
    finally:
        sys.settrace(None)
    return lines, sum(d.hidden_by is not None for d in found.differences)


def test_the_meta_schema_s_problems_are_put_in_order_with_one_pass_over_a_mapping() -> None:
    """Each of ``n`` properties has a problem: their order in the document is found by numbering the
    properties once, not by looking for each problem's key among them (``n`` problems × ``n`` keys).
    (Counted by the mapping's own iterations: that search runs in one Python call, which the call
    count of the shapes above cannot see.)"""
    class Counted(dict[str, Any]):
        walks = 0

        def __iter__(self) -> Any:
            Counted.walks += 1
            return super().__iter__()

    walks = []
    for n in (50, 100, 200):
        schema = wrap(SHAPES["wide warnings"](n), Location("w.json"))
        schema["properties"] = Counted(schema["properties"])
        Counted.walks = 0
        assert len(validate.problems(Definition("#", "Warned", schema))) == n
        walks.append(Counted.walks)
    assert walks[0] == walks[1] == walks[2], walks


def test_finding_which_difference_hides_which_is_linear_in_the_differences(tmp_path: Path) -> None:
    """One look-up per difference, not each difference against every other: a difference hidden by
    another, n of them each way, doubled twice."""
    sizes = [n * 4 for n in SIZES]
    measured = [_hiding_work(n, tmp_path) for n in sizes]
    assert [hidden for _, hidden in measured] == [2 * n + 1 for n in sizes]  # each p_i both ways, the unknown keys
    work = [lines for lines, _ in measured]
    assert work[1] > work[0] and _linear(work), work


def test_the_line_count_sees_each_difference_compared_with_every_other(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The measure can fail: the same hiders, found after reading every difference's place once per
    difference, are caught at these sizes."""
    from schemagen.compare import hiding

    found = hiding.hiders

    def pairwise(spots: list[hiding.Spot], again: Any) -> list[int | None]:
        for _ in spots:
            for other in spots:
                hiding._unlabelled(other.segments)
        return found(spots, again)

    monkeypatch.setattr(hiding, "hiders", pairwise)
    work = [_hiding_work(n * 4, tmp_path)[0] for n in SIZES]
    assert not _linear(work), work

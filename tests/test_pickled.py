"""What the cache keeps, pickled by constructor (``cache.pickled``), reads back as what was kept: the IR
of every golden case and its lowering's units, each object made again by its class from its fields."""

from __future__ import annotations

import pickle
import pickletools
from dataclasses import dataclass, field

import pytest

from schemagen import ir
from schemagen.cache import pickled
from schemagen.diagnostics import Reporter, SchemaError
from schemagen.frontend.schema import SchemaSet
from schemagen.lower import External, lowering, units
from schemagen.names import Naming
from schemagen.project import pipeline
from schemagen.project.inputs import Input

from golden import ROOT, Case, cases


def _built(data: bytes) -> bool:
    """Some object in ``data`` is read back through ``__setstate__`` (``BUILD``): not by its constructor."""
    return any(op.name == "BUILD" for op, _, _ in pickletools.genops(data))


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_the_ir_and_units_of_a_golden_case_read_back_as_they_were(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    for source in case.inputs:
        item = Input("case", source, source.relative_to(ROOT).as_posix(), case.dialect,  # type: ignore[arg-type]
                     required_defaults=case.settings.get("required_defaults"))  # type: ignore[arg-type]
        found = []

        def keep(schemas: SchemaSet, reporter: Reporter, external: External | None = None,
                 names: Naming = "schema") -> ir.Module:
            whole = lowering.lowered(schemas, reporter, external, names)
            found.append(units.record(whole, units.Reads(schemas.definitions)))
            return lowering.finished(whole.declarations, whole.spans, whole.declared_in, whole.scope.names.get("#"),
                                     names)

        monkeypatch.setattr(pipeline, "lower", keep)
        reporter = Reporter()
        try:
            module = pipeline.to_ir(item, ROOT, reporter)
        except SchemaError:
            continue
        for kept in (module, found, reporter.warnings):
            data = pickled.dumps(kept)
            assert not _built(data)
            assert pickle.loads(data) == kept
        assert repr(pickle.loads(pickled.dumps(module))) == repr(module)  # (what the render memo's keys are made of)


def test_a_class_not_made_from_its_fields_alone_is_refused() -> None:
    @dataclass(frozen=True)
    class Counted:
        n: int
        twice: int = field(init=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "twice", 2 * self.n)

    with pytest.raises(TypeError, match="Counted"):
        pickled.by_constructor(Counted)

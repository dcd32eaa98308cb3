"""A module spliced from the text before (generator/cache/spliced.py) is what ``chunks.splice`` makes of all
its stretches, and each starts where ``spliced.starts`` says: whatever was kept, made anew, moved, added or
dropped, and however the blank lines around each stretch fall."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from schemagen.cache.format.chunks import KINDS, splice
from schemagen.cache.spliced import Before, digest, layout, starts

KIND = st.sampled_from(sorted(KINDS))


@st.composite
def stretches(draw: Any, text: str) -> tuple[str, int, str, int, str]:
    return (draw(KIND), draw(st.integers(0, 3)), draw(KIND), draw(st.integers(0, 3)),
            text * draw(st.integers(1, 3)) + "\n")


@st.composite
def edits(draw: Any) -> tuple[Any, list[tuple[str, Any]], list[tuple[str, Any]]]:
    """A head, the declarations before (name, stretch) and after: some kept, some made anew, moved, added, dropped."""
    names = [f"D{i}" for i in range(draw(st.integers(1, 12)))]
    old = [(name, draw(stretches(f"{name} = 1"))) for name in names]
    new = list(old)
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["make", "move", "add", "drop"]))
        at = draw(st.integers(0, max(len(new) - 1, 0)))
        if kind == "make" and new:
            new[at] = (new[at][0], draw(stretches(f"{new[at][0]} = 2")))
        elif kind == "move" and new:
            new.insert(draw(st.integers(0, len(new) - 1)), new.pop(at))
        elif kind == "add":
            name = f"N{len(new)}{at}"
            new.insert(at, (name, draw(stretches(f"{name} = 3"))))
        elif kind == "drop" and len(new) > 1:
            new.pop(at)
    return draw(stretches("import x")), old, new


@settings(max_examples=300, deadline=None)
@given(edits())
def test_a_module_spliced_from_the_text_before_is_all_its_stretches_spliced(edit: Any) -> None:
    head, old, new = edit
    text = splice([head, *(stretch for _, stretch in old)])
    names = [name for name, _ in old]
    layouts = [layout(stretch) for _, stretch in old]
    index = ("", head, tuple(names), tuple(f"key {name} {stretch}" for name, stretch in old), tuple(layouts),
             tuple(((), (), ()) for _ in old), tuple(starts(head, layouts)), digest(text.encode()))
    before = Before.of(index, lambda: text.encode())
    assert before is not None
    kept = dict(old)
    pieces = [(name, None if kept.get(name) == stretch else stretch) for name, stretch in new]
    made, at = before.splice(head, pieces)
    assert made == splice([head, *(stretch for _, stretch in new)])
    assert at == starts(head, [layout(stretch) for _, stretch in new])


def test_other_bytes_than_the_index_was_kept_with_are_not_spliced_from() -> None:
    head = ("import", 0, "import", 0, "import x\n")
    stretch = ("class", 0, "class", 0, "class A:\n    x: int\n")
    text = splice([head, stretch])
    index = ("", head, ("A",), ("k",), (layout(stretch),), (((), (), ()),), tuple(starts(head, [layout(stretch)])),
             digest(text.encode()))
    assert Before.of(index, lambda: text.encode()) is not None
    for other in (text + "\n", text.replace("int", "str"), "", None):
        assert Before.of(index, lambda: None if other is None else other.encode()) is None
    wrong = (*index[:4], ((*layout(stretch)[:4], 99),), *index[5:])  # a layout that does not fit the text
    assert Before.of(wrong, lambda: text.encode()) is None

"""Turning schema strings into Python names: valid, unsurprising and deterministic."""

from __future__ import annotations

import builtins
import keyword
import re
import unicodedata
from collections import Counter
from collections.abc import Container, Iterable, Mapping, MutableSet
from functools import lru_cache
from typing import Literal, TypeVar

K = TypeVar("K")
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\W_]+")
#: Names a class must not take: keywords, soft keywords and builtins (it would shadow them).
RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
#: Names a field must not take. A field is a class attribute: it shadows a name inside its class
#: body, and for type checkers in its annotations. So: keywords, the builtins annotations use (at
#: run time too: ``typing.get_type_hints`` finds a class attribute before a builtin), the names
#: annotations use (``Any``, ``Literal``, ``Annotated``, ``UnsetType``) and those the class bodies
#: call (``field(...)``, ``= UNSET``), the dataclass variant's methods (``from_dict``, ``to_dict``), and
#: ``mro``, the one attribute every class has from ``type``, which ``dataclasses`` takes for the default
#: of a field of that name (``getattr(cls, name)``): a required ``mro`` would read as present. Each
#: is shown to break in tests/test_field_names.py. Other names
#: (``id``, ``type``, ``self``, ``annotations``) stay as the wire has them; the classes a model's
#: annotations name are reserved for that model only (``passes.naming``).
FIELD_RESERVED = frozenset(keyword.kwlist) | {"str", "int", "float", "bool", "list", "dict", "tuple"} \
    | {"Any", "Annotated", "Literal", "UNSET", "UnsetType", "field", "from_dict", "to_dict", "mro"}
#: How classes are named (the ``names`` setting): as the schema names them, or as the official SDKs do
#: (``lower.sdk``, ``lower.shorten``, ``passes.naming``).
Naming = Literal["schema", "sdk"]
NAMINGS: tuple[Naming, ...] = ("schema", "sdk")
#: Names the annotation of a value with this format uses: a field of the same class must not take them.
FORMAT_NAMES = {"date-time": "datetime", "date": "datetime", "time": "datetime", "duration": "datetime",
                "uuid": "uuid", "decimal": "decimal", "base64": "bytes"}


def words(text: str) -> list[str]:
    ascii_text = text if text.isascii() else unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _WORDS.findall(ascii_text)


def as_written(doc: str | None, name: str) -> str:
    """The docstring of a class whose name is not the schema's: the schema's name said at its end."""
    said = f"The schema's name: `{name}`."
    return f"{doc.rstrip()}\n\n{said}" if doc else said


def alike(name: str) -> tuple[str, ...]:
    """The words ``name`` says, in lower case: names that say the same words in any case or spelling
    (``FooBar``, ``foo_bar``, ``FOO-BAR``) are alike."""
    return tuple(w.lower() for w in words(name))


def claimed_once(wanted: Mapping[K, str], said: Iterable[str]) -> dict[K, str]:
    """The entries of ``wanted`` whose name no other entry wants and no name of ``said`` says alike:
    so a name taken depends on the set of names, never on the order they come in."""
    claims = Counter(alike(name) for name in wanted.values())
    taken = {alike(name) for name in said}
    return {key: name for key, name in wanted.items() if claims[alike(name)] == 1 and alike(name) not in taken}


def pascal(text: str) -> str:
    """``chat_completion-out`` → ``ChatCompletionOut``; an existing capital stays (``HTTPCode``)."""
    return "".join(w[0].upper() + w[1:] for w in words(text))


def after(hint: str, word: str) -> str:
    """``word`` after ``hint``, the words they share said once: ``ToolResources`` after
    ``AssistantToolResources`` is ``AssistantToolResources``, ``ConfigurationFile`` ``…ToolResourcesConfigurationFile``."""
    theirs = words(word)
    end = hint.lower()
    if not any(end.endswith(w.lower()) for w in theirs):  # (most often: no word to share, and no walk of `hint`)
        return hint + word
    ours = [w.lower() for w in words(hint)]
    for k in range(min(len(ours), len(theirs)), 0, -1):
        if ours[-k:] == [w.lower() for w in theirs[:k]]:
            return hint + pascal("_".join(theirs[k:]))
    return hint + word


#: How an English plural ends, and what its singular ends with instead (``None``: it is no plural),
#: the first ending that matches deciding: rules of endings, not a dictionary of words (the few
#: whole words are singulars that the rules below them would cut).
_ENDINGS: tuple[tuple[str, str | None], ...] = (
    ("series", None), ("species", None), ("news", None), ("alias", None), ("canvas", None),
    ("ss", None), ("us", None), ("is", None),
    ("iases", "ias"), ("sses", "ss"), ("auses", "ause"), ("ouses", "ouse"), ("uses", "us"),
    ("xes", "x"), ("aches", "ache"), ("ches", "ch"), ("shes", "sh"), ("zzes", "zz"),
    ("ies", "y"), ("s", ""),
)


def singular(word: str) -> str | None:
    """The singular of an English plural word (``choices`` → ``choice``, ``entries`` → ``entry``,
    ``statuses`` → ``status``, ``matches`` → ``match``), its case kept; ``None`` for a word that
    reads as no plural (``data``, ``status``, ``analysis``, ``series``, ``content``)."""
    lower = word.lower()
    if len(lower) < 3 or not lower.isalpha():
        return None
    for ending, instead in _ENDINGS:
        if lower.endswith(ending):
            if instead is None or len(word) - len(ending) < 2:
                return None
            return word[: len(word) - len(ending)] + (instead.upper() if word.isupper() else instead)
    return None


def snake(text: str) -> str:
    """``ChatCompletionOut`` / ``chat-completion out`` → ``chat_completion_out``."""
    return "_".join(w.lower() for w in words(text))


def identifier(text: str, *, style: str, reserved: Container[str] = RESERVED) -> str:
    """A valid Python identifier close to ``text`` that is not in ``reserved``.

    A valid ASCII identifier is kept as it is; anything else is rebuilt from its words in
    ``style`` (``"pascal"`` for classes, ``"snake"`` for fields).
    """
    name = _identifier(text, style)
    if style == "pascal" and name in reserved and pascal(name) not in reserved:
        name = pascal(name)  # a schema's `list` is class `List`
    if name in reserved or keyword.iskeyword(name) or name.startswith("__"):
        name += "_"
    return name


@lru_cache(maxsize=1 << 16)
def _identifier(text: str, style: str) -> str:
    """``identifier`` before ``reserved`` is looked at (the words of a text: found once per process)."""
    fallback = "Model" if style == "pascal" else "field"
    if not words(text):
        return fallback  # `_`, `__`, `-`: no word to build a name from (and `_` is a soft keyword)
    if text.isidentifier() and text.isascii():
        return text
    name = (pascal if style == "pascal" else snake)(text) or fallback
    return fallback + ("" if style == "pascal" else "_") + name if name[0].isdigit() else name


def unique(name: str, taken: MutableSet[str]) -> str:
    """``name``, or ``name_2``, ``name_3``… : the first not in ``taken`` (which it joins)."""
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}_{n}" if not name.endswith("_") else f"{name}{n}"
    taken.add(candidate)
    return candidate


class Both:
    """Two sets of names seen as one, without copying the large one (for each model, say)."""

    def __init__(self, large: Container[str], small: Container[str]) -> None:
        self.large, self.small = large, small

    def __contains__(self, name: object) -> bool:
        return name in self.small or name in self.large


#: What a dataclass module imports from its package's converter (``render.dataclass.runtime``).
RUNTIME_NAMES = ("DecodeError", "SchemagenModel", "convert", "to_builtins")
#: Names that generated modules import or use; a class the schema names must not shadow them.
OUTPUT_NAMES = frozenset(
    {"annotations", "Any", "Annotated", "Literal", "NotRequired", "Required", "TypedDict", "TypeAlias",
     "dataclass", "field", "dataclasses", "msgspec", "Meta", "Struct", "UNSET", "UnsetType", "typing",
     "StrEnum", "IntEnum", "BaseModel", "Field", "AfterValidator", "TypeVar", "Omittable", "pydantic"}
) | frozenset(RUNTIME_NAMES)
#: The modules of the format types: a class ``datetime`` would hide ``datetime.date`` from the whole
#: module (a field hides it only in its class: see ``FORMAT_NAMES``).
MODULE_NAMES = frozenset(FORMAT_NAMES.values())


def portable_wire_name(wire: str) -> bool:
    """Can every variant carry this key? msgspec refuses renamed fields with ``"``, ``\\`` or controls."""
    return _UNPORTABLE.search(wire) is None


_UNPORTABLE = re.compile(r'["\\\x00-\x1f]')


def enum_member(value: str | int, taken: set[str]) -> str:
    """An UPPER_SNAKE member name for an enum value: ``"tool_calls"`` → ``TOOL_CALLS``, ``2`` → ``VALUE_2``."""
    text = str(value)
    if isinstance(value, int) or text[:1].isdigit() or text[:1] == "-":
        text = "value " + text.replace("-", "minus ")
    name = snake(text).upper() or "VALUE"
    if keyword.iskeyword(name):
        name += "_"
    return unique(name, taken)

"""A mapping that notes what is read of it: for reusing a result while what it read is unchanged
(``memo``: a declaration's text)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Reads(Mapping[K, V], Generic[K, V]):
    """``inner``, noting each key read (with ``stamp(key)``, or ``None`` when it was not there) and
    whether its size was asked (``if enums:``); iterating it reads everything."""

    def __init__(self, inner: Mapping[K, V], stamp: Callable[[K], Any]) -> None:
        self.inner = inner
        self.stamp = stamp
        self.read: dict[K, Any] = {}
        self.size: int | None = None
        self.everything = False

    def __getitem__(self, key: K) -> V:
        self._note(key)
        return self.inner[key]

    def get(self, key: K, default: Any = None) -> Any:
        self._note(key)
        return self.inner.get(key, default)

    def __contains__(self, key: object) -> bool:
        self._note(key)  # type: ignore[arg-type]
        return key in self.inner

    def _note(self, key: K) -> None:
        if key not in self.read:
            self.read[key] = self.stamp(key) if key in self.inner else None

    def __iter__(self) -> Iterator[K]:
        self.everything = True
        return iter(self.inner)

    def __len__(self) -> int:
        self.size = len(self.inner)
        return self.size

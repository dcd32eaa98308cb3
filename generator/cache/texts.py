"""A module's formatted text remembered across runs, kept by what its input's IR was made from.

The text of an input's module in a variant is a pure function of the input's IR, the variant, the
header's label of the input, the options and the generator (its templates and black among its
libraries). Where the IR is known by a key of everything it is made from (``cache.lowered``: an
input of a project of several), that key stands for the IR, and an input kept or lowered the same is
written without laying out or formatting anything. One entry per project, input and variant,
replaced when the text is made again.
"""

from __future__ import annotations

from .store import Cache, digest

NAMESPACE = "module"
SCHEME = "1"


class Texts:
    def __init__(self, store: Cache, salt: str, scope: str) -> None:
        """``salt``: the generator's digest; ``scope``: whose entries these are (the project)."""
        self.store = store
        self.salt = salt
        self.scope = scope

    def key(self, made_from: str, variant: str, label: str, options: str) -> str:
        """The key of a module's text: its IR's key (``made_from``), the variant, the input's label and the
        options (their ``repr``)."""
        return digest(SCHEME, self.salt, made_from, variant, label, options)

    def get(self, source: str, variant: str, key: str) -> str | None:
        """The text kept for input ``source`` in ``variant``, if it was made under ``key``."""
        data = self.store.get(NAMESPACE, self._slot(source, variant))
        if data is None or not data.startswith(key.encode() + b"\n"):
            return None
        try:
            return data[len(key) + 1:].decode()
        except UnicodeDecodeError:
            return None

    def put(self, source: str, variant: str, key: str, text: str) -> None:
        self.store.put_many(NAMESPACE, {self._slot(source, variant): key.encode() + b"\n" + text.encode()})

    def _slot(self, source: str, variant: str) -> str:
        return digest(NAMESPACE, SCHEME, self.scope, source, variant)

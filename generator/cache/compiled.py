"""The templates compiled to Python once, kept across runs (Jinja's bytecode cache, in the store).

Jinja compiles a template's source to Python each time an environment loads it: some 12 ms for the
built-in ones, which a run after a one-component edit needs all the same (each module's head, and the
fragments made anew). Jinja itself tells a template's code apart by its name, file and source (the
``Bucket``'s key and checksum) and by the Python version (its magic header); the generator's digest
(``salt``) stands for the environment's settings, which Jinja does not. An entry of another kind is
compiled again and replaced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .store import Cache, digest

if TYPE_CHECKING:
    import jinja2

NAMESPACE = "jinja"
SCHEME = "1"


def bytecode_cache(store: Cache, salt: str) -> jinja2.BytecodeCache:
    """A Jinja bytecode cache that keeps each template's code in ``store``. (Jinja is imported here: a run
    with nothing to do never renders.)"""
    import jinja2

    class Compiled(jinja2.BytecodeCache):
        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            data = store.get(NAMESPACE, _key(bucket))
            mark = salt.encode() + b"\n"
            if data is not None and data.startswith(mark):
                bucket.bytecode_from_string(data[len(mark):])  # (Jinja checks the rest: a mismatch is a miss)

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            store.put(NAMESPACE, _key(bucket), salt.encode() + b"\n" + bucket.bytecode_to_string())

    return Compiled()


def _key(bucket: jinja2.bccache.Bucket) -> str:
    return digest(NAMESPACE, SCHEME, bucket.key)

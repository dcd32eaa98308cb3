"""Speed-ups, behind one boundary: they wrap the stages from the outside.

Every stage (``frontend``, ``lower``, ``passes``, ``render``) is a pure function of its inputs and
imports nothing of this package; the application layer (``project``) asks the cache for a stage's
result, or calls the stage and stores what it returned. Every entry is content-addressed (keyed by a
digest of all it depends on) or checked against what it was made from, so a run with the cache gives
the bytes a run without it gives (``SCHEMAGEN_CACHE_DIR=off``); tests hold each speed-up to that.
"""

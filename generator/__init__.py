"""schemagen: typed Python models (dataclasses, TypedDict, msgspec) from JSON Schema and OpenAPI documents.

The folders are the pipeline: ``frontend`` (files → one canonical schema form) → ``lower`` (→ ``ir``)
→ ``passes`` → ``render``; ``project`` runs them for a project's inputs and writes the output package,
``review`` compares two revisions, ``cache`` holds the speed-ups that wrap the stages from outside.
"""

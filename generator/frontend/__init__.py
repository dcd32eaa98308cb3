"""The front end: input files into one canonical ``SchemaSet`` (JSON Schema 2020-12 in a fixed shape).

``read`` parses JSON and YAML; ``dialects`` rewrites JSON Schema drafts, OpenAPI and Swagger into the
canonical form of ``schema``; ``bundle`` adds what a document needs from schema files that are not
inputs; ``validate`` checks every definition against the meta-schema. Nothing after this stage knows
a dialect.
"""

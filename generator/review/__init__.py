"""Reviewing a schema update: the model changes between two revisions of a project (``schemagen diff``)."""

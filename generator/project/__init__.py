"""The application: a project's configuration and inputs, the stages run over them, and what is written."""

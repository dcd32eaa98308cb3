# schemagen: `make generate` after a schema update, `make test` before you push.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)

.PHONY: generate check test golden clean-venv

generate: $(STAMP)
	$(PY) -m generator generate

check: $(STAMP)
	$(PY) -m generator generate --check

test: $(STAMP)
	$(PY) -m generator generate --check
	$(PY) -m pytest -q

# Rewrite the expected outputs of tests/golden/ from the current generator.
# Read `git diff tests/golden` before you commit the result.
golden: $(STAMP)
	SCHEMAGEN_UPDATE_GOLDEN=1 $(PY) -m pytest -q tests/test_golden.py

# (Re)create the virtual environment when it is missing or pyproject.toml changed.
$(STAMP): pyproject.toml
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $@

clean-venv:
	rm -rf $(VENV)

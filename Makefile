# schemagen: `make generate` after a schema update, `make test` before you push.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml requirements.lock | cksum | cut -d' ' -f1)

.PHONY: generate check test golden lock clean-venv

generate: $(STAMP)
	$(PY) -m generator generate

check: $(STAMP)
	$(PY) -m generator generate --check

test: $(STAMP)
	$(PY) -m generator generate --check
	$(PY) -m pytest -q -n 2 --dist loadfile

# Rewrite the expected outputs of tests/golden/ from the current generator.
# Read `git diff tests/golden` before you commit the result.
golden: $(STAMP)
	SCHEMAGEN_UPDATE_GOLDEN=1 $(PY) -m pytest -q tests/test_golden.py

# (Re)create the virtual environment when it is missing or the pins changed (the stamp
# name is a checksum of pyproject.toml and requirements.lock).
$(STAMP):
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -c requirements.lock -e '.[dev]'
	touch $@

# Re-resolve the pins after a change to the dependencies in pyproject.toml.
lock:
	rm -rf $(VENV) && $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	(echo "# Exact versions of every package in .venv (constraints for pip). Refresh: make lock"; \
	 $(PY) -m pip freeze --exclude-editable --disable-pip-version-check | grep -v '^-e') > requirements.lock
	touch $(VENV)/.installed-$$(cat pyproject.toml requirements.lock | cksum | cut -d' ' -f1)

clean-venv:
	rm -rf $(VENV)

# schemagen: `make generate` after a schema update, `make test` before you push.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(firstword $(shell cat pyproject.toml requirements.lock | cksum))

.PHONY: generate check test golden lock clean-venv review-setup

generate: $(STAMP) review-setup
	$(PY) -m schemagen generate

# generated/ is up to date, and generator/ passes `mypy --strict` (the settings are pyproject's [tool.mypy]).
check: $(STAMP)
	$(PY) -m schemagen generate --check
	$(PY) -m mypy

test: check review-setup
	$(PY) -m pytest -q -n 2 --dist loadfile

# The generator on every SchemaStore schema (or `make corpus CORPUS=<folder>` with json/, test/,
# negative_test/), beside datamodel-code-generator: a Markdown table on stdout, details in
# $(CORPUS_REPORT).
CORPUS ?= ../shared/corpora/schemastore
CORPUS_REPORT ?= $${TMPDIR:-/tmp}/corpus-report.md
corpus: $(STAMP)
	$(PY) bench/corpus.py --corpus "$(CORPUS)" --report "$(CORPUS_REPORT)"

# A long random fuzzing run (tests/test_fuzz.py; `make test` runs a short derandomized one).
FUZZ_EXAMPLES ?= 2000
fuzz: $(STAMP)
	SCHEMAGEN_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -q tests/test_fuzz.py

.PHONY: corpus fuzz

# schemagen beside datamodel-code-generator (cold, no-op and one-component-edit runs on the seeds and
# on OpenAI's description, and subsets of it; the pydantic variant beside its pydantic v2 output): one
# Markdown table on stdout, and side tables. Takes minutes; not part of `make test`.
# `make bench BENCH=--quick`: one repetition, smaller subsets.
BENCH ?=
bench: $(STAMP)
	$(PY) bench/run.py $(BENCH)

.PHONY: bench

# git's default diff (myers) shows a regenerated module as big blocks removed and added again;
# histogram shows the classes that changed. git cannot take the algorithm from a committed file, so
# this sets it in this clone's .git/config, unless a diff.algorithm is set already (here, globally
# or for the system): then it says so only when run by name. `make generate` and `make test` run
# it; outside git it does nothing. See docs/reviewing.md.
# It runs before every `make generate`, so it asks git as little as it can (each call is some 3 ms of a
# run with nothing to do): not at all where no `.git` is here or above and GIT_DIR is unset (git could
# find no repository: only a bare one, which holds no project); once in a clone's top folder whose
# diff.algorithm is set (the question of the next branches, asked in one call).
ALREADY = echo "diff.algorithm is already $$current: left as it is"
review-setup:
	@cd -P . && up=$$PWD/ && found= && while [ -n "$$up" ]; do up=$${up%/*}; \
	  if [ -e "$$up/.git" ]; then found=1; break; fi; done; \
	if [ -z "$$found$${GIT_DIR+set}" ]; then :; \
	elif [ -e .git ] && current=$$(git config diff.algorithm 2>/dev/null); then \
	  $(if $(filter review-setup,$(MAKECMDGOALS)),! git rev-parse --git-dir >/dev/null 2>&1 || $(ALREADY),:); \
	elif ! git rev-parse --git-dir >/dev/null 2>&1; then :; \
	elif current=$$(git config diff.algorithm); then \
	  $(if $(filter review-setup,$(MAKECMDGOALS)),$(ALREADY),:); \
	else git config diff.algorithm histogram && \
	  echo "git config diff.algorithm histogram: git diff shows generated/ as the classes that changed (docs/reviewing.md)"; fi

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

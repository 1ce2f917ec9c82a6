# The two commands of the README: `make run` and `make test`. Each sets itself up.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BENCH ?=
PORT ?= 8000

.PHONY: run test setup setup-venv bench lint mutate fuzz worker clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -r requirements.txt
	touch $@

setup-venv: $(VENV)/.installed

setup: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py loadcatalog

# Serves the app on the embedded default (SQLite, jobs on a filesystem broker) with
# a Celery worker (and beat) in separate processes; Ctrl-C or TERM to make stops them all
# (config/devrun.py: each in its own process group, TERM then KILL after a few seconds).
run: setup
	$(PY) manage.py collectstatic --noinput -v0
	@echo "Serving on http://127.0.0.1:$(PORT)/ (Ctrl-C stops the server and the worker)"
	@exec $(PY) -m config.devrun $(PORT)

worker: $(VENV)/.installed
	$(PY) -m celery -A config worker --loglevel=info

# axe-core for the accessibility checks in the browser tests, pinned, from npm (never a CDN).
AXE_VERSION := 4.14.1
tests/vendor/axe.min.js:
	npm install --no-save --no-audit --no-fund --prefix var/npm axe-core@$(AXE_VERSION)
	mkdir -p tests/vendor && cp var/npm/node_modules/axe-core/axe.min.js $@

# TEST_PROCESSES test processes at once (pytest-xdist; each with its own test database and broker,
# config/settings_test.py), a test module per process at a time; TEST_PROCESSES=0 runs in this process alone.
TEST_PROCESSES ?= 2
test: $(VENV)/.installed tests/vendor/axe.min.js
	@$(PY) -c "import shutil,sys; sys.exit(0 if shutil.which('chromium') else 1)" || ./.ci/install-chromium
	$(PY) -m pytest $(if $(filter 0,$(TEST_PROCESSES)),,-n $(TEST_PROCESSES) --dist loadfile) $(PYTEST_ARGS)

bench: $(VENV)/.installed
	@for f in bench/$(if $(BENCH),$(BENCH),*).py; do $(PY) $$f || exit 1; done

# Style, the house's import contracts (pyproject.toml, docs/architecture.md) and the engines' types.
lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

# A small mutation run over both engines (docs/testing.md), not part of `make test`: each hand-written mutant of
# tests/mutation/mutants.py breaks one rule, and the engine's scenario tests must catch it. Prints the kill ratio
# and the survivors; fails on a survivor that is not documented as equivalent. `make mutate MUTANTS=dd-` runs the
# mutants whose id starts with dd-; MUTATE_JOBS (default 2) sets how many run at once.
mutate: $(VENV)/.installed
	$(PY) -m tests.mutation.run $(MUTANTS)

# The full API fuzz (docs/testing.md), not part of `make test`: Schemathesis's command line with every check against a
# live server with the rate limits off, anonymously and with a token (tests/fuzz.py). FUZZ_EXAMPLES (default 100)
# cases per operation and phase; FUZZ_ARGS passes more options to `schemathesis run`.
FUZZ_EXAMPLES ?= 100
fuzz: $(VENV)/.installed
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m tests.fuzz $(FUZZ_ARGS)

clean:
	rm -rf $(VENV) var staticfiles

# pgfacts: the two commands are `make demo` and `make test`. Everything else supports them.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PGFACTS := $(VENV)/bin/pgfacts
PYTHON ?= python3
BENCH_SIZE ?= full

.PHONY: demo test test-long lint unit bench bench-smoke schema upgrade-check venv runtime-deps db-up db-down db-status migrate clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

venv: $(VENV)/.installed

# The local runtime needs debootstrap; install it when missing (Debian/Ubuntu, as root).
runtime-deps:
	@if [ -z "$$PGFACTS_DSN" ] && ! command -v debootstrap >/dev/null; then \
	  echo "installing debootstrap for the local runtime"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; \
	fi

db-up: venv runtime-deps
	@if [ -z "$$PGFACTS_DSN" ]; then $(PGFACTS) db up >/dev/null; fi

db-down: venv
	$(PGFACTS) db down

db-status: venv
	$(PGFACTS) db status

migrate: db-up
	$(PGFACTS) migrate

demo: migrate
	$(PGFACTS) demo

lint: db-up
	$(VENV)/bin/ruff check python tests bench
	$(VENV)/bin/ruff format --check python tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/sqlfluff lint sql migrations
	$(PY) -m tests.lint_layers
	$(PY) -m tests.lint_sql

# The suite on parallel workers, a module per worker (--dist loadfile: the runtime tests
# share one port, so they run on one worker, in order); each worker clones its own template
# database. TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= 3
unit: db-up
	$(VENV)/bin/pytest -q -n $(TEST_WORKERS) --dist loadfile

# The long property runs: the graph projection verified after 10,000 random operations.
test-long: db-up
	PGFACTS_GRAPH_OPERATIONS=10000 $(VENV)/bin/pytest -q -n 0 tests/test_graph_projection.py

bench-smoke: db-up
	$(PY) -m bench --size smoke

bench: db-up
	$(PY) -m bench --size $(BENCH_SIZE)

# schema/pgfacts.sql: the installed schema of a fresh install, normalised (commit it;
# tests/test_schema_snapshot.py fails when it is stale).
schema: db-up
	$(PY) -m tests.catalog schema/pgfacts.sql

# An install of release FROM (a git revision) upgraded to this checkout equals a fresh one.
upgrade-check: db-up
	$(PY) -m tests.upgrade_from $(FROM)

test: lint unit bench-smoke

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

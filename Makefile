# pgfacts: the two commands are `make demo` and `make test`. Everything else supports them.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PGFACTS := $(VENV)/bin/pgfacts
PYTHON ?= python3
BENCH_SIZE ?= full

.PHONY: demo test test-long lint lint-static lint-db unit test-db-up bench bench-smoke bench-versions schema upgrade-check core venv runtime-deps db-up db-down db-status migrate image clean

# The package alone (psycopg, psycopg-pool, typer, rich): all the runtime, migrate and the
# demo need. The test extras come after it, and on a fresh machine make test installs them
# while db-up builds the runtime's root (make -j2 below).
$(VENV)/.core: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed: $(VENV)/.core
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

core: $(VENV)/.core

venv: $(VENV)/.installed

# The local runtime needs debootstrap; install it when missing (Debian/Ubuntu, as root).
runtime-deps:
	@if [ -z "$$PGFACTS_DSN" ] && ! command -v debootstrap >/dev/null; then \
	  echo "installing debootstrap for the local runtime"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; \
	fi

db-up: core runtime-deps
	@if [ -z "$$PGFACTS_DSN" ]; then $(PGFACTS) db up >/dev/null; fi

db-down: core
	$(PGFACTS) db down

db-status: core
	$(PGFACTS) db status

migrate: db-up
	$(PGFACTS) migrate

demo: migrate
	$(PGFACTS) demo

# lint-static needs no database, lint-db does; make test runs them with -j2, so on a fresh
# machine the static checks (sqlfluff is the slow one) run while the runtime's root is built.
lint: lint-static lint-db

lint-static: venv
	$(VENV)/bin/ruff check python tests bench examples
	$(VENV)/bin/ruff format --check python tests bench examples
	$(VENV)/bin/mypy
	$(VENV)/bin/sqlfluff lint --processes 0 sql migrations  # 0: a process per core
	$(PY) -m tests.lint_layers

lint-db: venv db-up
	$(PY) -m tests.lint_sql

# The suite on parallel workers, test by test (--dist loadgroup: tests that must share a
# worker carry an xdist_group mark, such as the runtime tests, which share one port); each
# worker clones its own template database. TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= 3
unit: venv test-db-up
	$(TEST_SERVER) $(VENV)/bin/pytest -q -n $(TEST_WORKERS) --dist loadgroup

# The suite's own server (unless PGFACTS_DSN names one): the local runtime on TEST_PORT,
# the same PostgreSQL and extensions, with fsync off in that instance only, as PostgreSQL's
# own regression runs have it. Hundreds of test databases are cloned and dropped, each a
# checkpoint, and waiting for the disk took a fifth of the suite's time (pytest on 3
# workers, minutes apart: 282 to 294 s with fsync on, 233 to 247 s with it off);
# nothing a test checks survives only by fsync (a server killed and restarted keeps the
# OS's cached writes; the restart tests start servers of their own, fsync on).
# TEST_PORT: the runtime's port + 1 unless given.
TEST_PORT ?= $(shell echo $$(( $${PGFACTS_PORT:-54317} + 1 )))
TEST_SERVER = $(if $(PGFACTS_DSN),,PGFACTS_PORT=$(TEST_PORT))
test-db-up: core runtime-deps
	@if [ -z "$$PGFACTS_DSN" ]; then \
	  PGFACTS_PORT=$(TEST_PORT) $(PGFACTS) db up >/dev/null && \
	  PGFACTS_PORT=$(TEST_PORT) $(PGFACTS) db psql -qAtX -c "ALTER SYSTEM SET fsync = off" \
	    -c "SELECT pg_reload_conf()" >/dev/null; \
	fi

# The property and fuzz tests with ten times make test's cases, and the graph projection
# verified after 10,000 random operations (about 12 minutes on 2 cores); make test keeps
# the counts written in the tests.
test-long: venv test-db-up
	$(TEST_SERVER) PGFACTS_EXAMPLES=300 PGFACTS_FUZZ_EXAMPLES=20000 PGFACTS_GRAPH_OPERATIONS=10000 \
	  $(VENV)/bin/pytest -q -n $(TEST_WORKERS) --dist loadgroup tests/test_fuzz.py \
	  tests/test_knowledge_streams.py tests/test_knowledge_purge.py tests/test_graph_projection.py \
	  tests/test_integration_langgraph.py

bench-smoke: venv db-up
	$(PY) -m bench --size smoke

bench: venv db-up
	$(PY) -m bench --size $(BENCH_SIZE)

# Two versions in one run (docs/operations.md, "Benchmarks"): git revision BEFORE against
# AFTER (default: this working tree), each installed by its own migrator into a database of
# its own, store_fact, ingest and search taking turns call by call.
bench-versions: venv db-up
	@if [ -z "$(BEFORE)" ]; then echo "usage: make bench-versions BEFORE=<git rev> [AFTER=<git rev>]"; exit 2; fi
	$(PY) -m bench.versions --before $(BEFORE) $(if $(AFTER),--after $(AFTER)) --size $(BENCH_SIZE)

# schema/pgfacts.sql: the installed schema of a fresh install, normalised, and the role
# matrix of docs/role-matrix.md generated from its grants (commit both;
# tests/test_schema_snapshot.py fails when it is stale).
schema: venv db-up
	$(PY) -m tests.catalog schema/pgfacts.sql
	$(PY) -m tests.role_matrix

# docker/Dockerfile built with Docker, or with podman where no Docker engine answers
# (docker/engine.sh installs, configures and starts it; the base image is the runtime's
# cached root). make test builds it too, in tests/test_image.py, beside the suite.
image: venv runtime-deps
	PGFACTS_PYTHON=$(PY) sh docker/engine.sh build

# An install of release FROM (a git revision) upgraded to this checkout equals a fresh one.
upgrade-check: venv db-up
	$(PY) -m tests.upgrade_from $(FROM)

# The suite and the smoke benchmark run side by side: the benchmark's checks (a wrong answer
# fails it) need no quiet machine, and its smoke timings are not measurements; its output
# is printed after the suite's. Either failing fails make test.
test:
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint test-db-up
	@log=$$(mktemp); $(TEST_SERVER) $(PY) -m bench --size smoke >"$$log" 2>&1 & bench=$$!; \
	$(TEST_SERVER) $(VENV)/bin/pytest -q -n $(TEST_WORKERS) --dist loadgroup; unit=$$?; \
	wait $$bench; smoke=$$?; echo; echo "== make bench-smoke (run beside the suite)"; \
	cat "$$log"; rm -f "$$log"; \
	if [ $$smoke -ne 0 ]; then echo "bench-smoke failed ($$smoke)"; fi; \
	[ $$unit -eq 0 ] && [ $$smoke -eq 0 ]

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

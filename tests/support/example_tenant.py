"""A fresh tenant for each hypothesis example of a property test.

A property test takes one database for the whole test function (the ``db`` fixture) and
runs each example in a tenant of its own, where it used to create a database per example
(CREATE DATABASE ... TEMPLATE and DROP DATABASE cost about 0.7 s an example, most of the
run time of these tests).

Why an example sees exactly what it would see in a fresh database:

* Every table that holds a tenant's data has ``tenant`` first in its keys and forced row
  level security (tests/lint_sql.py checks it for every schema of the install); every read
  path and every wait (``await_commits``, the advisory lock keys) is keyed by the tenant,
  as is the choice between an exact scan and the HNSW index (the tenant's own row counts).
  A tenant name this function returns was never used in the database: the database is the
  test function's own, cloned from the template, which holds no tenant's rows, and the
  counter never repeats within the process.
* The tables without a tenant (the migration ledger, the tool and setting registries) are
  written only by the migrations; no property test writes them. Per-database settings
  and roles are set up by the harness before the test and never changed by it.
* Each example opens its own connections and closes them, so no session setting or
  session state (set_context, prepared plans) carries over.
* Identity columns and sequences (fact, claim, entity, episode ids, etags, the knowledge
  event order) are shared by the database: an example's ids are larger than in a fresh
  database, in the same order. No property test compares an id with a number, only ids
  with ids of the same example.
* A superuser statement of an example (which bypasses row level security) names the
  example's tenant, or a subject id only that example holds.

What differs is only what no answer may depend on: table sizes and planner statistics
(other tenants' rows), and the ids' values.
"""

from __future__ import annotations

import itertools

_numbers = itertools.count(1)


def fresh_tenant(prefix: str = "ex") -> str:
    """A tenant name not used before in this process (so not in a test's own database)."""
    return f"{prefix}{next(_numbers)}"

"""Property test: random spawn forests and writes, checked against a pure-Python model.

The model is the scope contract in a few lines: a session sees shared facts and the
session facts of every session under its tree's root; stores overwrite per scope key,
deletes hide, re-stores revive.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import Database
from .support.caller import Caller
from .support.example_tenant import fresh_tenant
from .support.spawn_forest import SpawnForest

SESSIONS = [f"s{i}" for i in range(6)]
KEYS = ["a", "b", "c/1", "c/2"]


@dataclass
class Model(SpawnForest):
    facts: dict[str, tuple[str, object, str | None]] = field(default_factory=dict)  # live only

    def visible(self, session: str) -> dict[str, object]:
        tree = self.tree(session)
        return {
            scope_key: value
            for scope_key, (key, value, owner) in self.facts.items()
            if owner is None or owner in tree
        }


operation = st.one_of(
    st.tuples(
        st.just("store"),
        st.sampled_from(SESSIONS),
        st.sampled_from(KEYS),
        st.integers(0, 3),
        st.booleans(),
    ),
    st.tuples(
        st.just("delete"),
        st.sampled_from(SESSIONS),
        st.sampled_from(KEYS),
        st.just(0),
        st.booleans(),
    ),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    parents=st.lists(st.integers(-1, 5), min_size=6, max_size=6),
    operations=st.lists(operation, min_size=1, max_size=25),
)
def test_reads_match_the_model(
    db: Database,
    parents: list[int],
    operations: list[tuple],  # type: ignore[type-arg]
) -> None:
    # One database for every example, a tenant of its own for each (tests/support/
    # example_tenant.py says why that is as clean as a database per example).
    call = Caller(db, kind="agent", tenant=fresh_tenant())
    try:
        model = Model()
        # Session i may only hang below an earlier session: a forest, never a cycle.
        for i, session in enumerate(SESSIONS):
            parent = SESSIONS[parents[i]] if 0 <= parents[i] < i else None
            model.parent[session] = parent
            call("store_fact", {"key": "hello", "value": session}, session=session, parent=parent)
            model.facts[f"session:{session}:hello"] = ("hello", session, session)
        for kind, session, key, value, shared in operations:
            scope_key = f"shared:{key}" if shared else f"session:{session}:{key}"
            if kind == "store":
                call(
                    "store_fact",
                    {"key": key, "value": value, "shared": shared},
                    session=session,
                )
                model.facts[scope_key] = (key, value, None if shared else session)
            else:
                # Agents delete shared facts they stored; the manager deletes any.
                call(
                    "delete_fact",
                    {"key": key, "shared": shared},
                    session=session,
                    kind="facts_manager",
                )
                model.facts.pop(scope_key, None)
        for session in SESSIONS:
            got = call("read_facts", {"limit": 1000}, session=session)["facts"]
            assert {f["scopeKey"]: f["value"] for f in got} == model.visible(session)
    finally:
        call.close()

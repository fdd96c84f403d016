"""Property test: who sees which facts, and what known_at means for facts, on every read path.

Random spawn forests and random histories of session and shared facts (reserved intake/
keys among them) are written; then, for every agent kind, a few reader sessions (one
outside the forest, and none) and every scope, each read path's visible set is compared
with one small reference model:

* a reader sees the shared facts unless the scope is ``session``; the session facts of its
  own session (``session``), of its spawn tree, or of every session for the kinds that see
  every session (tuner, facts manager, operator, crawler) in ``accessible`` and
  ``descendants``; never a key its kind may not read (``intake/`` is the facts manager's
  and the tuner's); scope ``session`` without a session is refused (22023) everywhere;
* as of an instant, working memory is the state the history had then: the value of then,
  facts deleted since included, facts written since absent.

The read paths: read_facts, fact_history, read_facts_by_scope_keys, search, nearest,
similar_facts, find_keys, context_pack; and read_facts, search and nearest with known_at.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg.types.json import Jsonb

from .conftest import KINDS, Database
from .support.caller import Caller
from .support.example_tenant import fresh_tenant
from .support.spawn_forest import SpawnForest

SESSIONS = [f"s{i}" for i in range(5)]
READERS = [*SESSIONS, "stranger", None]
KEYS = ["fact/a", "fact/b", "fact/c-1", "intake/fact"]
SCOPES = ("accessible", "shared", "session", "descendants")
EVERY_SESSION = {"tuner", "facts_manager", "operator", "crawler"}
READ_INTAKE = {"tuner", "facts_manager"}
WORD = "zeta"  # in every value: a search for it finds every fact it may


@dataclass
class Model(SpawnForest):
    # scope key -> (key, value, session or None when shared), live facts only
    live: dict[str, tuple[str, str, str | None]] = field(default_factory=dict)
    states: list[dict[str, tuple[str, str, str | None]]] = field(default_factory=list)
    ever: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # key, session

    def sees(self, kind: str, caller: str | None, scope: str, key: str, owner: str | None) -> bool:
        if key.startswith("intake/") and kind not in READ_INTAKE:
            return False
        if owner is None:
            return scope != "session"
        if scope == "shared":
            return False
        if scope == "session":
            return owner == caller
        if kind in EVERY_SESSION:
            return True
        return caller is not None and owner in self.tree(caller)

    def visible(
        self, kind: str, caller: str | None, scope: str, state: dict[str, Any] | None = None
    ) -> dict[str, str]:
        return {
            sk: value
            for sk, (key, value, owner) in (self.live if state is None else state).items()
            if self.sees(kind, caller, scope, key, owner)
        }


def reader_of(db: Database, tenant: str, kind: str, session: str | None) -> Caller:
    """A caller acting as a kind and session of the tenant; every call its own transaction,
    with a similarity threshold low enough for the short test texts."""
    return Caller(
        db,
        tenant=tenant,
        kind=kind,
        session=session,
        local_settings={"pg_trgm.similarity_threshold": "0.05"},
    )


def _paths(r: Caller, scope: str, known_at: datetime | None = None) -> dict[str, dict[str, Any]]:
    """Each scoped read path's answer, scope key -> value (content for nearest)."""
    read = r.rows(
        "SELECT scope_key, value #>> '{}' FROM pgfacts.read_facts(\"limit\" => 1000, "
        "scope => %s, known_at => %s)",
        scope,
        known_at,
    )
    found = r.rows(
        "SELECT ref, value #>> '{}' FROM pgfacts.search(%s, \"limit\" => 100, scope => %s, "
        "item_kinds => '{fact}', known_at => %s)",
        WORD,
        scope,
        known_at,
    )
    near = r.rows(
        "SELECT ref, split_part(content, ': ', 2) FROM pgfacts.nearest('toy-4', '[1,0,0,0]', "
        "k => 1000, item_kinds => '{fact}', scope => %s, known_at => %s)",
        scope,
        known_at,
    )
    answers = {"read_facts": dict(read), "search": dict(found), "nearest": dict(near)}
    if known_at is None:
        keys = r.rows("SELECT scope_key FROM pgfacts.find_keys('fact', 100, %s)", scope)
        answers["find_keys"] = {k: None for (k,) in keys}
        pack = r.rows(
            'SELECT pgfacts.context_pack(%s, 1000000, scope => %s, "limit" => 100)', WORD, scope
        )[0][0]
        answers["context_pack"] = {i["ref"]: i["content"].split(": ", 1)[1] for i in pack["items"]}
    return answers


def _check_reader(model: Model, r: Caller, moments: list[tuple[int, datetime]]) -> None:
    kind, caller = r.kind, r.session
    for scope in SCOPES:
        if scope == "session" and caller is None:
            for path, sql in (
                ("read_facts", "SELECT * FROM pgfacts.read_facts(scope => 'session')"),
                ("search", f"SELECT * FROM pgfacts.search('{WORD}', scope => 'session')"),
                (
                    "nearest",
                    "SELECT * FROM pgfacts.nearest('toy-4', '[1,0,0,0]', scope => 'session')",
                ),
                ("find_keys", "SELECT * FROM pgfacts.find_keys('fact', 10, 'session')"),
                ("context_pack", f"SELECT pgfacts.context_pack('{WORD}', scope => 'session')"),
            ):
                assert r.refused(sql) == "22023", (path, kind)
            continue
        expected = model.visible(kind, caller, scope)
        for path, got in _paths(r, scope).items():
            want = {k: None for k in expected} if path == "find_keys" else expected
            assert got == want, (path, kind, caller, scope)
    # The paths without a scope read as scope accessible.
    visible = model.visible(kind, caller, "accessible")
    by_keys = r.rows(
        "SELECT scope_key, value #>> '{}' FROM pgfacts.read_facts_by_scope_keys(%s)",
        sorted(model.ever),
    )
    assert dict(by_keys) == visible, ("read_facts_by_scope_keys", kind, caller)
    for sk, (key, owner) in model.ever.items():
        sql = "SELECT count(*) FROM pgfacts.fact_history(%s, %s, %s)"
        if key.startswith("intake/") and kind not in READ_INTAKE:
            assert r.refused(sql, key, owner is None, owner) == "42501"
            continue
        seen = model.sees(kind, caller, "accessible", key, owner)
        count = r.rows(sql, key, owner is None, owner)[0][0]
        assert (count > 0) == seen, ("fact_history", sk, kind, caller)
    if visible:
        anchor = min(visible)
        similar = r.rows(
            "SELECT similar_scope_key, value #>> '{}' FROM pgfacts.similar_facts(%s, 100, 'toy-4')",
            anchor,
        )
        assert dict(similar) == {k: v for k, v in visible.items() if k != anchor}, (
            "similar_facts",
            kind,
            caller,
        )
    # As of each instant, every path answers the state of then: a version replaced or
    # deleted since is ranked by the vector its content had (kept when it was replaced).
    for i, instant in moments:
        then = model.visible(kind, caller, "accessible", model.states[i])
        answers = _paths(r, "accessible", instant)
        assert answers["read_facts"] == then, ("read_facts known_at", i, kind, caller)
        assert answers["search"] == then, ("search known_at", i, kind, caller)
        assert answers["nearest"] == then, ("nearest known_at", i, kind, caller)


def _write(
    writer: psycopg.Connection[Any],
    tenant: str,
    model: Model,
    sql: str,
    session: str,
    kind: str,
    *params: Any,
) -> datetime:
    """One write in its own transaction; the clock after it has committed."""
    with writer.transaction():
        writer.execute(
            "SELECT pgfacts.set_context(tenant => %s, session_id => %s, "
            "parent_session_id => %s, agent_kind => %s)",
            (tenant, session, model.parent[session], kind),
        )
        writer.execute(sql, params)
    row = writer.execute("SELECT clock_timestamp()").fetchone()
    assert row is not None
    _embed_queue(writer, tenant)
    return row[0]  # type: ignore[no-any-return]


def _embed_queue(writer: psycopg.Connection[Any], tenant: str) -> None:
    """Embed what the write queued, as a worker keeping up would (the facts manager, which
    reads every key): the same vector for every text, so nearest ranks every fact it may
    show, and an overwrite's embedding replaces the old content's vector."""
    with writer.transaction():
        writer.execute(
            "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'facts_manager')", (tenant,)
        )
        work = writer.execute(
            "SELECT item_kind, item_id, content_hash FROM pgfacts.claim_embedding_work(1000)"
        ).fetchall()
        if work:
            rows = [
                {"item_kind": k, "item_id": i, "content_hash": h, "embedding": [1, 0, 0, 0]}
                for k, i, h in work
            ]
            writer.execute("SELECT pgfacts.set_embeddings('toy-4', %s)", (Jsonb(rows),))


operation = st.tuples(
    st.sampled_from(["store", "store", "delete"]),
    st.sampled_from(SESSIONS),
    st.sampled_from(KEYS),
    st.booleans(),
)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    parents=st.lists(st.integers(-1, 4), min_size=5, max_size=5),
    operations=st.lists(operation, min_size=1, max_size=14),
    readers=st.lists(st.sampled_from(READERS), min_size=2, max_size=2, unique=True),
    sampled=st.lists(st.integers(0, 13), min_size=1, max_size=3, unique=True),
)
def test_every_read_path_sees_what_the_model_sees(
    db: Database,
    parents: list[int],
    operations: list[tuple[str, str, str, bool]],
    readers: list[str | None],
    sampled: list[int],
) -> None:
    # One database for every example, a tenant of its own for each (tests/support/
    # example_tenant.py says why that is as clean as a database per example).
    tenant = fresh_tenant()
    writer = db.connect("app", autocommit=True)
    try:
        model = Model()
        # Session i may only hang below an earlier session: a forest, never a cycle.
        for i, session in enumerate(SESSIONS):
            model.parent[session] = SESSIONS[parents[i]] if 0 <= parents[i] < i else None

        for session in SESSIONS:  # the forest, registered in order (parents first)
            _write(
                writer,
                tenant,
                model,
                "SELECT pgfacts.register_session(%s, %s)",
                session,
                "agent",
                session,
                model.parent[session],
            )
        _write(
            writer,
            tenant,
            model,
            "SELECT pgfacts.register_embedding_model('toy-4', 4)",
            SESSIONS[0],
            "operator",
        )
        instants: list[datetime] = []
        for n, (op, session, key, shared) in enumerate(operations):
            sk = f"shared:{key}" if shared else f"session:{session}:{key}"
            if op == "store":
                value = f"{WORD} {n}"  # every version's value is its own
                instants.append(
                    _write(
                        writer,
                        tenant,
                        model,
                        "SELECT pgfacts.store_fact(%s, %s, shared => %s)",
                        session,
                        "agent",
                        key,
                        Jsonb(value),
                        shared,
                    )
                )
                model.live[sk] = (key, value, None if shared else session)
                model.ever[sk] = (key, None if shared else session)
            else:
                # Agents delete the shared facts they stored; the manager deletes any.
                instants.append(
                    _write(
                        writer,
                        tenant,
                        model,
                        "SELECT pgfacts.delete_fact(%s, shared => %s)",
                        session,
                        "facts_manager",
                        key,
                        shared,
                    )
                )
                model.live.pop(sk, None)
            model.states.append(dict(model.live))
        # A few instants of the history (after op i), the last one always among them.
        moments = [(i, instants[i]) for i in sampled if i < len(instants) - 1]
        moments.append((len(instants) - 1, instants[-1]))
        for kind in KINDS:
            for session in readers:
                reader = reader_of(db, tenant, kind, session)
                try:
                    _check_reader(model, reader, moments)
                finally:
                    reader.close()
    finally:
        writer.close()

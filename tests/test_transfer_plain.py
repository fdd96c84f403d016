"""Plain lines from elsewhere (issue 26) meet the rules a live write meets: a fact new to
its key is inserted, one over another value supersedes it, one repeating what is stored or
an earlier line is a duplicate, one a live write would refuse is rejected with that
refusal's reason; the rejects file is valid input and gives itself back. Episodes with
claims go through ingest (entities named by kind and name), graph assertions through the
graph write path. The two worked examples of docs/transfer.md (examples/transfer/) run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from psycopg.types.json import Jsonb

from pgfacts import Context, queries, transfer
from pgfacts.client import FactStore

from .conftest import Database
from .support.caller import Caller

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "transfer"


def operator(tenant: str, session: str | None = "run-1") -> Context:
    return Context(tenant=tenant, session_id=session, agent_id="mover", agent_kind="operator")


def write_lines(path: Path, records: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def fact(key: str, value: Any, **more: Any) -> dict[str, Any]:
    return {"type": "fact", "key": key, "value": value, "shared": True, **more}


def test_facts_are_inserted_superseded_duplicated_or_rejected(db: Database, tmp_path: Path) -> None:
    op = Caller(db, tenant="plain", kind="operator", session="run-1")
    op.fact("prefs/tea", "green", shared=True)
    op.fact("prefs/milk", "none", shared=True)
    source = write_lines(
        tmp_path / "facts.jsonl",
        [
            fact("prefs/tea", "black"),  # superseded
            fact("prefs/milk", "none"),  # duplicate of what is stored
            fact("prefs/sugar", 2),  # inserted
            fact("prefs/sugar", 2),  # duplicate of the line before
            fact("prefs/sugar", 3),  # superseded: a later line wins, as a later write would
            fact("", 1),  # rejected: bad key
            fact("skills/deploy", "x"),  # rejected: the facts manager's namespace
            {"type": "fact", "key": "notes/mine", "value": "session scoped", "shared": False},
            "this line is no JSON",
            "",
            {"type": "telepathy"},
        ],
    )
    rejects = tmp_path / "facts.rejects.jsonl"
    answer = transfer.import_file(
        source, operator("plain"), db.dsn(), batch_size=4, rejects_path=rejects
    )
    assert {k: answer[k] for k in ("inserted", "superseded", "duplicate", "rejected")} == {
        "inserted": 2,
        "superseded": 2,
        "duplicate": 2,
        "rejected": 4,
    }
    assert op.one("SELECT value FROM pgfacts.read_facts('prefs/tea')") == "black"
    assert op.one("SELECT value FROM pgfacts.read_facts('prefs/sugar')") == 3
    assert op.one("SELECT count(*) FROM pgfacts.read_facts('notes/mine')") == 1
    history = op.rows("SELECT value FROM pgfacts.fact_history('prefs/tea', true)")
    assert [h[0] for h in history] == ["green", "black"]

    reasons = [
        (json.loads(line)["_error"]["reason"] if line.startswith("{") else line)
        for line in rejects.read_text().splitlines()
    ]
    assert reasons == [
        "bad_key",
        "key_not_writable",
        "this line is no JSON",
        "22023",
    ]
    # The rejects file is input: imported again, it is rejected again, line for line.
    again = tmp_path / "again.rejects.jsonl"
    second = transfer.import_file(rejects, operator("plain"), db.dsn(), rejects_path=again)
    assert second["rejected"] == 4 and second["inserted"] == 0
    assert again.read_text() == rejects.read_text()


def test_episodes_and_graph_assertions_go_through_their_write_paths(
    db: Database, tmp_path: Path
) -> None:
    anna = {"kind": "person", "name": "Anna", "external_ref": "crm:anna"}
    source = write_lines(
        tmp_path / "knowledge.jsonl",
        [
            {"type": "predicate", "name": "lives_in", "cardinality": "one"},
            {"type": "entity", "kind": "city", "name": "Lviv"},
            {
                "type": "episode",
                "episode": {"source_kind": "crm", "source_ref": "r1", "content_hash": "h1"},
                "claims": [
                    {
                        "subject": anna,
                        "predicate": "lives_in",
                        "object": "Kyiv",
                        "valid_from": "2026-01-01",
                    }
                ],
            },
            {
                "type": "episode",
                "episode": {"source_kind": "crm", "source_ref": "r2", "content_hash": "h2"},
                "claims": [
                    {
                        "subject": anna,
                        "predicate": "lives_in",
                        "object": "Lviv",
                        "valid_from": "2026-03-01",
                    }
                ],
            },
            {
                "type": "episode",
                "episode": {"source_kind": "crm", "source_ref": "r2", "content_hash": "h2"},
                "claims": [
                    {
                        "subject": anna,
                        "predicate": "lives_in",
                        "object": "Lviv",
                        "valid_from": "2026-03-01",
                    }
                ],
            },
            {
                "type": "episode",
                "episode": {"source_kind": "crm", "source_ref": "r3", "content_hash": "h3"},
                "claims": [
                    {
                        "subject": anna,
                        "predicate": "unknown_thing",
                        "object": 1,
                        "valid_from": "2026-03-01",
                    }
                ],
            },
            {"type": "graph_node", "kind": "person", "name": "Anna"},
            {"type": "graph_node", "kind": "city", "name": "Lviv"},
            {
                "type": "graph_edge",
                "from_key": "person:anna",
                "to_key": "city:lviv",
                "predicate": "lives in",
            },
            {
                "type": "graph_edge",
                "from_key": "person:anna",
                "to_key": "city:lviv",
                "predicate": "lives in",
            },
        ],
    )
    rejects = tmp_path / "knowledge.rejects.jsonl"
    answer = transfer.import_file(
        source, operator("known"), db.dsn(), batch_size=3, rejects_path=rejects
    )
    assert answer["rejected"] == 1 and answer["duplicate"] >= 1
    (rejected,) = [json.loads(line) for line in rejects.read_text().splitlines()]
    assert rejected["_error"]["reason"] == "PF002"  # the predicate is not defined
    k = Caller(db, tenant="known", kind="operator")
    subject = k.one("SELECT pgfacts.ensure_entity('person', 'Anna', external_ref => 'crm:anna')")
    current = k.one(
        "SELECT jsonb_agg(object_value) FROM pgfacts.as_of(%s, 'lives_in', '2026-04-01')", subject
    )
    assert current == ["Lviv"]
    edges = k.rows("SELECT observations FROM pgfacts.graph_search_edges(predicate => 'lives in')")
    assert edges == [(2,)]


def test_the_worked_examples_import(db: Database, tmp_path: Path) -> None:
    mem0 = transfer.import_file(
        EXAMPLES / "mem0.jsonl", operator("mem0"), db.dsn(), rejects_path=tmp_path / "m.rej"
    )
    assert (mem0["inserted"], mem0["duplicate"], mem0["rejected"]) == (5, 1, 1)
    assert "bad_tags" in (tmp_path / "m.rej").read_text()
    swarm = transfer.import_file(
        EXAMPLES / "pilotswarm.jsonl",
        operator("swarm"),
        db.dsn(),
        rejects_path=tmp_path / "p.rej",
    )
    assert (swarm["inserted"], swarm["rejected"]) == (6, 1)
    assert "key_not_writable" in (tmp_path / "p.rej").read_text()
    k = Caller(db, tenant="swarm", kind="operator")
    assert k.one("SELECT count(*) FROM pgfacts.graph_search_edges(predicate => 'owns')") == 1


def test_imported_facts_meet_every_rule_a_bulk_store_meets(db: Database, tmp_path: Path) -> None:
    """The import writes facts through the same rules as bulk_store_facts, and its cheaper
    steps (each line parsed once, the records passed on as an array, upsert_facts without
    its per-fact answer) change none of what they leave: the same rows, search documents,
    audit rows and refusals (a redaction placeholder, a reserved key, a long tag) as the
    same records stored by bulk_store_facts under the same caller."""
    records: list[dict[str, Any]] = [
        {"key": "notes/a", "value": {"text": "deploying the green release"}, "tags": ["ops"]},
        {"key": "notes/b", "value": "plain words", "tags": ["b", "a", "a"]},
        {"key": "notes/c", "value": [1, {"deep": "nested words"}], "shared": True},
        {"key": "notes/d", "value": {"mail": "write to [EMAIL] today"}, "shared": True},
        {"key": "notes/e", "value": 1, "tags": ["x" * 96]},
        {"key": "notes/f", "value": 1, "tags": ["x" * 101]},
        {"key": "skills/deploy", "value": "curated", "shared": True},
        {"key": "intake/topic/s", "value": "observed", "shared": True},
    ]
    lines = [{"type": "fact", **r} for r in records] + ["not json at all"]
    source = write_lines(tmp_path / "facts.jsonl", lines)
    answer = transfer.import_file(
        source, operator("imported"), db.dsn(), rejects_path=tmp_path / "rejects.jsonl"
    )
    stored = Caller(db, tenant="stored", kind="operator", session="run-1", agent="mover")
    report = stored.one("SELECT pgfacts.bulk_store_facts(records => %s)", Jsonb(records))
    assert answer["inserted"] == report["committed_count"] == 5
    text_lines = (tmp_path / "rejects.jsonl").read_text().splitlines()
    assert text_lines[-1] == "not json at all"  # as it came
    rejected = [json.loads(line) for line in text_lines[:-1]]
    assert (
        [r["_error"]["reason"] for r in rejected]
        == [f["reason"] for f in report["failures"]]
        == ["write_failed", "bad_tags", "key_not_writable"]
    )
    assert "redaction placeholder" in rejected[0]["_error"]["message"]

    with db.admin() as admin:

        def facts(tenant: str) -> list[tuple[Any, ...]]:
            return admin.execute(
                "SELECT scope_key, key, value, shared, session_id, agent_id, tags, writer_kind,"
                " search_doc::text, created_at = updated_at, lower(system_time) = updated_at,"
                " last_crawled_at IS NULL, deleted_at IS NULL"
                " FROM pgfacts_internal.facts WHERE tenant = %s ORDER BY scope_key",
                (tenant,),
            ).fetchall()

        def audit(tenant: str) -> list[tuple[Any, ...]]:
            return admin.execute(
                "SELECT a.operation, a.target, a.session_id, a.agent_id, a.agent_kind, a.before,"
                " a.after - 'etag', a.at = f.updated_at"
                " FROM pgfacts_internal.audit_log AS a"
                " JOIN pgfacts_internal.facts AS f"
                " ON f.tenant = a.tenant AND f.scope_key = a.target"
                " WHERE a.tenant = %s ORDER BY a.target",
                (tenant,),
            ).fetchall()

        assert facts("imported") == facts("stored")
        assert len(facts("imported")) == 5
        assert audit("imported") == audit("stored")
        assert [row[0] for row in audit("imported")] == ["store"] * 5


def test_a_batch_probes_the_tenants_facts_whatever_the_plan_costs(
    db: Database, tmp_path: Path
) -> None:
    """Each line of a batch looks up what its key holds by one index probe. As a join, the
    look-up was planned by the statistics of the moment: while a large import grew the
    tenant they fell behind, and the plan hashed the tenant's every fact for each batch
    (an import of 1,000,000 facts 1.2 times slower). With joins other than a nested loop
    priced out here (what stale statistics did), a batch still reads only the rows its
    keys hold."""
    ctx = operator("probed")
    first = write_lines(tmp_path / "first.jsonl", [fact(f"held/{n}", n) for n in range(2000)])
    assert transfer.import_file(first, ctx, db.dsn())["inserted"] == 2000
    second = write_lines(
        tmp_path / "second.jsonl", [fact(f"held/{n}", -n - 1) for n in range(0, 2000, 100)]
    )
    with db.connect(autocommit=True) as conn:
        store = FactStore(connection=conn, context=ctx)
        sha256, first_line = transfer.file_digest(second)
        store.import_open(sha256, first_line, second.name)
        with conn.cursor().copy(queries.COPY_IMPORT) as copy:
            copy.write(second.read_bytes())
        store.import_staged()
        conn.autocommit = False
        conn.execute("SET LOCAL enable_nestloop = off")
        answer = store.import_batch(100, None, None)
        read = conn.execute(
            "SELECT idx_tup_fetch + seq_tup_read FROM pg_stat_xact_user_tables"
            " WHERE relid = 'pgfacts_internal.facts'::regclass"
        ).fetchone()
    assert answer["superseded"] == 20 and answer["finished"]
    assert read is not None and read[0] <= 40, read


def test_keys_found_free_are_inserted_and_a_taken_one_upserts_its_chunk(
    db: Database, tmp_path: Path
) -> None:
    """A batch inserts the keys its tenant does not hold without ON CONFLICT (bulk_write's
    fresh runs). A key held only by a tombstone, or taken by another writer after the batch
    looked, fails that insert (23505); the chunk is then upserted, with the same result and
    no record refused."""
    op = Caller(db, tenant="fresh", kind="operator", session="run-1")
    op.fact("keys/3", "old", shared=True)
    op.one("SELECT pgfacts.delete_fact('keys/3', shared => true)")  # a tombstone
    source = write_lines(tmp_path / "fresh.jsonl", [fact(f"keys/{n}", n) for n in range(1, 7)])
    answer = transfer.import_file(source, operator("fresh"), db.dsn())
    assert (answer["inserted"], answer["rejected"]) == (6, 0)
    values = op.rows("SELECT key, value FROM pgfacts.read_facts('keys/*') ORDER BY key")
    assert values == [(f"keys/{n}", n) for n in range(1, 7)]
    history = op.rows("SELECT value FROM pgfacts.fact_history('keys/3', true)")
    assert [h[0] for h in history] == ["old", "old", 3]  # stored, deleted, imported
    # Called as a batch calls it, with keys/1 said to be free though it is held now.
    records = [Jsonb(fact(f"keys/{n}", -n)) for n in (1, 9)]
    with db.admin() as admin:
        admin.execute(
            "SELECT pgfacts.set_context(tenant => 'fresh', session_id => 'run-1', "
            "agent_kind => 'operator')"
        )
        failures = admin.execute(
            "SELECT pgfacts_internal.bulk_write(%s::jsonb[], ARRAY[1, 2]::bigint[], 'fresh', "
            "'run-1', 'mover', ARRAY[true, true])",
            [records],
        ).fetchone()
    assert failures is not None and failures[0] == []
    assert op.one("SELECT value FROM pgfacts.read_facts('keys/1')") == -1
    assert op.one("SELECT value FROM pgfacts.read_facts('keys/9')") == -9

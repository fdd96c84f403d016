"""Expiry of knowledge (issue 25, docs/governance.md "Expiry").

An episode ingested with ttl_seconds or expires_at expires; a claim row expires when every
episode supporting it has (never while one of them never expires). From that instant the
row reads as absent on every read path (as_of, current_claims, search, search_claims,
context_pack, the claim edges of the graph, graph evidence as stale; claim_history,
changes and explain_claim for every kind but the tuner and the operator), and the
retention maintenance purges the expired episodes through the purge path, replaying the
slots they touched.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller


def ingest(caller: Caller, ref: str, claims: list[dict[str, Any]], **episode: Any) -> Any:
    source = {
        "source_kind": "note",
        "source_ref": ref,
        "content_hash": f"hash-of-{ref}",
        "occurred_at": "2024-06-01T00:00:00Z",
    }
    return caller.one("SELECT pgfacts.ingest(%s, %s)", Jsonb(source | episode), Jsonb(claims))


def advance_clock(db: Database, seconds: int) -> None:
    """Let time pass for expiry: every expiry of episodes and claims moves that much closer
    (nothing else reads them), as waiting would."""
    with db.admin() as admin:
        for table in ("episodes", "claims"):
            admin.execute(
                f"UPDATE pgfacts_internal.{table} "
                "SET expires_at = expires_at - %s * interval '1 second' "
                "WHERE expires_at IS NOT NULL",
                (seconds,),
            )


def claim_expiry(db: Database, value: str) -> Any:
    with db.admin() as admin:
        row = admin.execute(
            "SELECT expires_at FROM pgfacts_internal.claims "
            "WHERE object_value = to_jsonb(%s::text) AND upper_inf(system_time)",
            (value,),
        ).fetchone()
    assert row is not None
    return row[0]


def likes(caller: Caller, subject: int) -> list[str]:
    return sorted(
        r[0]
        for r in caller.rows(
            "SELECT object_value #>> '{}' FROM pgfacts.current_claims(%s)", subject
        )
    )


@pytest.fixture
def people(db: Database) -> tuple[Caller, int, int]:
    operator = Caller(db, kind="operator")
    operator.one("SELECT pgfacts.define_predicate('likes', 'many')")
    operator.one("SELECT pgfacts.define_predicate('knows', 'many')")
    operator.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    return operator, operator.entity("ann"), operator.entity("bob")


def test_an_expired_claim_reads_as_absent_on_every_read_path(
    db: Database, people: tuple[Caller, int, int]
) -> None:
    operator, ann, bob = people
    ingest(
        operator,
        "chat/1",
        [
            {
                "subject": ann,
                "predicate": "likes",
                "object": "qzxlapsing",
                "text": "ann likes qzxlapsing",
            },
            {"subject": ann, "predicate": "knows", "object_entity": bob, "text": "ann knows bob"},
        ],
        ttl_seconds=1,
    )
    kept = ingest(
        operator, "chat/2", [{"subject": ann, "predicate": "likes", "object": "qzxlasting"}]
    )
    lapsing = operator.one(
        "SELECT claim_id FROM pgfacts.current_claims(%s) WHERE object_value = '\"qzxlapsing\"'", ann
    )
    edge = operator.one(
        "SELECT claim_id FROM pgfacts.current_claims(%s) WHERE predicate = 'knows'", ann
    )
    crawler = Caller(db, kind="crawler")
    crawler.one(
        "SELECT pgfacts.graph_upsert_node('topic', 'leisure', evidence => %s)",
        [f"claim:{lapsing}", f"claim:{kept['outcomes'][0]['claim_id']}"],
    )
    agent = Caller(db, kind="agent", session="s1")
    reads = {
        "as_of": ("SELECT object_value #>> '{}' FROM pgfacts.as_of(%s, 'likes')", ann),
        "as_of known now": (
            "SELECT object_value #>> '{}' "
            "FROM pgfacts.as_of(%s, 'likes', known_at => clock_timestamp())",
            ann,
        ),
        "current_claims": ("SELECT object_value #>> '{}' FROM pgfacts.current_claims(%s)", ann),
        "claim_history": (
            "SELECT object_value #>> '{}' FROM pgfacts.claim_history(%s, 'likes')",
            ann,
        ),
        "changes": ("SELECT object_value #>> '{}' FROM pgfacts.changes('-infinity')",),
        "explain_claim": ("SELECT pgfacts.explain_claim(%s) ->> 'object'", lapsing),
        "search": ("SELECT content FROM pgfacts.search('qzxlapsing')",),
        "search historical": (
            "SELECT content FROM pgfacts.search('qzxlapsing', intent => 'historical')",
        ),
        "search_claims": ("SELECT object_value #>> '{}' FROM pgfacts.search_claims('qzxlapsing')",),
        "context_pack": (
            "SELECT i ->> 'content' FROM jsonb_array_elements("
            "pgfacts.context_pack('what does ann like, qzxlapsing?') -> 'items') AS i",
        ),
        "graph_search_edges": ("SELECT edge_predicate FROM pgfacts.graph_search_edges()",),
    }

    def answers(caller: Caller) -> dict[str, str]:
        return {
            name: " ".join(str(r[0]) for r in caller.rows(sql, *params))
            for name, (sql, *params) in reads.items()
        }

    before = answers(agent)
    assert all(("qzxlapsing" in text or "knows" in text) for text in before.values()), before
    evidence = "SELECT stale_evidence FROM pgfacts.graph_search_nodes(kind => 'topic')"
    assert agent.one(evidence) == []
    time.sleep(1.1)  # the real expiry, once: the other tests move it instead
    for caller in (agent, Caller(db, kind="facts_manager"), Caller(db, kind="crawler")):
        after = answers(caller)
        assert all("qzxlapsing" not in text and "knows" not in text for text in after.values()), (
            after
        )
        assert caller.one(evidence) == [f"claim:{lapsing}"]
    assert likes(agent, ann) == ["qzxlasting"]
    assert agent.one("SELECT pgfacts.explain_claim(%s)", edge) is None
    # The auditors still see it, marked, until the purge.
    tuner = Caller(db, kind="tuner")
    explained = tuner.one("SELECT pgfacts.explain_claim(%s)", lapsing)
    assert explained["object"] == "qzxlapsing" and explained["version"]["expires_at"]
    assert "qzxlapsing" in answers(tuner)["claim_history"]
    assert "qzxlapsing" not in answers(tuner)["as_of"]
    # As of an instant before the expiry, it was believed, as an expired fact's is.
    assert (
        operator.one(
            "SELECT count(*) FROM pgfacts.as_of(%s, 'likes', known_at => %s)",
            ann,
            explained["version"]["recorded_at"],
        )
        == 1
    )


def test_a_claim_expires_with_its_last_source(
    db: Database, people: tuple[Caller, int, int]
) -> None:
    operator, ann, _ = people
    one = {"subject": ann, "predicate": "likes", "object": "tea"}
    ingest(operator, "a", [one], ttl_seconds=600)
    first = claim_expiry(db, "tea")
    assert first is not None
    ingest(operator, "b", [one], ttl_seconds=3600)  # corroborated by a later-expiring source
    assert (claim_expiry(db, "tea") - first).total_seconds() > 2900
    advance_clock(db, 601)
    assert likes(operator, ann) == ["tea"]  # b still holds it
    ingest(operator, "c", [one])  # a source that never expires: neither does the claim
    assert claim_expiry(db, "tea") is None
    advance_clock(db, 3600)
    assert likes(operator, ann) == ["tea"]
    # A permanent claim stays permanent when an expiring source corroborates it.
    coffee = {"subject": ann, "predicate": "likes", "object": "coffee"}
    ingest(operator, "d", [coffee])
    ingest(operator, "e", [coffee], ttl_seconds=60)
    assert claim_expiry(db, "coffee") is None
    # An expires_at instant works as a ttl does.
    ingest(
        operator,
        "f",
        [{"subject": ann, "predicate": "likes", "object": "juice"}],
        expires_at="2999-01-01T00:00:00Z",
    )
    assert claim_expiry(db, "juice").year == 2999


@pytest.mark.parametrize(
    "episode",
    [
        {"ttl_seconds": 0},
        {"ttl_seconds": -5},
        {"ttl_seconds": 1.5},
        {"ttl_seconds": "60"},
        {"ttl_seconds": 1_000_000_000},
        {"expires_at": "2001-01-01T00:00:00Z"},
        {"expires_at": "not a time"},
        {"expires_at": 12},
        {"expires_at": "2999-01-01T00:00:00Z", "ttl_seconds": 60},
    ],
)
def test_a_bad_expiry_is_refused_and_nothing_is_written(
    db: Database, people: tuple[Caller, int, int], episode: dict[str, Any]
) -> None:
    operator, ann, _ = people
    source = {"source_kind": "note", "source_ref": "bad", "content_hash": "h"} | episode
    claims = [{"subject": ann, "predicate": "likes", "object": "tea"}]
    assert (
        operator.refused("SELECT pgfacts.ingest(%s, %s)", Jsonb(source), Jsonb(claims)) == "22023"
    )
    with db.admin() as admin:
        assert admin.execute("SELECT count(*) FROM pgfacts_internal.episodes").fetchone() == (0,)


def test_maintenance_purges_expired_episodes_and_replays_their_slots(
    db: Database, people: tuple[Caller, int, int]
) -> None:
    operator, ann, _ = people
    ingest(
        operator,
        "home/1",
        [{"subject": ann, "predicate": "lives_in", "object": "Paris", "valid_from": "2020-01-01"}],
    )
    ingest(
        operator,
        "home/2",
        [{"subject": ann, "predicate": "lives_in", "object": "Berlin", "valid_from": "2024-01-01"}],
        ttl_seconds=3600,
    )
    other = Caller(db, tenant="t2", kind="operator")
    other.one("SELECT pgfacts.define_predicate('likes', 'many')")
    other_ann = other.entity("ann")
    ingest(
        other,
        "x/1",
        [{"subject": other_ann, "predicate": "likes", "object": "tea"}],
        ttl_seconds=3600,
    )
    now_lives = "SELECT object_value #>> '{}' FROM pgfacts.as_of(%s, 'lives_in')"
    assert operator.one(now_lives, ann) == "Berlin"
    with db.connect("operator") as conn:
        assert conn.execute("SELECT * FROM pgfacts.retention_backlog()").fetchall() == []
    advance_clock(db, 3601)
    # Expired, not yet purged: Berlin is gone, and Paris stays retired until the replay.
    assert operator.rows(now_lives, ann) == []
    with db.connect("operator") as conn:
        backlog = conn.execute("SELECT * FROM pgfacts.retention_backlog()").fetchall()
        assert backlog == [("t1", 1, 0), ("t2", 1, 0)]  # no retention setting needed
        done = conn.execute("SELECT pgfacts.apply_retention_everywhere()").fetchone()
    assert done is not None
    assert done[0]["applied"]["t1"]["episodes"] == 1 and done[0]["failed"] == {}
    assert operator.one(now_lives, ann) == "Paris"
    assert operator.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", ann) == []
    assert operator.one("SELECT count(*) FROM pgfacts.audit(operation => 'purge_source')") == 1
    with db.admin() as admin:
        left = admin.execute(
            "SELECT tenant, source_ref FROM pgfacts_internal.episodes ORDER BY 1, 2"
        ).fetchall()
    assert left == [("t1", "home/1")]
    assert likes(other, other_ann) == []
    with db.connect("operator") as conn:
        assert conn.execute("SELECT * FROM pgfacts.retention_backlog()").fetchall() == []

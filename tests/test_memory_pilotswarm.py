"""What a team migrating from PilotSwarm's facts store relies on (issue 12): reserved
curated namespaces, orchestration-form session ids, reads by exact scope keys, statistics
and purges, the crawl-queue aliases, scope session without a session, and DSNs that are
not PostgreSQL's. Each through call_tool and through the Python client."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from typer.testing import CliRunner

from pgfacts import Context, FactStore, InvalidParameter, PermissionDenied
from pgfacts.cli import app

from .conftest import Database, count_facts
from .support.caller import Caller

# -- 1. curated namespaces ---------------------------------------------------------------


@pytest.mark.parametrize("key", ["skills/deploy", "asks/open-1", "config/facts-manager/ttl"])
@pytest.mark.parametrize("kind", ["agent", "crawler", "operator"])
def test_curated_namespaces_are_written_only_by_the_facts_manager(
    call: Caller, db: Database, key: str, kind: str
) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as info:
        call("store_fact", {"key": key, "value": 1, "shared": True}, session="s1", kind=kind)
    prefix = key.rsplit("/", 1)[0] + "/"
    assert f"the '{prefix}' key namespace is reserved for the facts manager" in str(info.value)
    assert info.value.diag.message_hint and "intake/" in info.value.diag.message_hint
    # In a batch too: nothing of the batch is written.
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call(
            "store_fact",
            {"facts": [{"key": "ok/1", "value": 1}, {"key": key, "value": 2, "shared": True}]},
            session="s1",
            kind=kind,
        )
    assert count_facts(db) == 0


def test_a_task_agent_cannot_overwrite_or_delete_a_skill_the_facts_manager_wrote(
    call: Caller, db: Database
) -> None:
    call(
        "store_fact", {"key": "skills/deploy", "value": "v1", "shared": True}, kind="facts_manager"
    )
    call("store_fact", {"key": "asks/q1", "value": "open", "shared": True}, kind="facts_manager")
    for name, args in [
        ("store_fact", {"key": "skills/deploy", "value": "mine", "shared": True}),
        ("delete_fact", {"key": "skills/deploy", "shared": True}),
        ("delete_fact", {"key": "skills/*", "pattern": True, "scope": "shared"}),
        ("delete_fact", {"key": "asks/*", "pattern": True, "scope": "shared"}),
    ]:
        with pytest.raises(psycopg.errors.InsufficientPrivilege) as info:
            call(name, args, session="s1", agent="a1")
        assert "reserved for the facts manager" in str(info.value), (name, args)
    # A wide pattern leaves the curated keys alone instead of refusing.
    call("store_fact", {"key": "notes/a", "value": 1, "shared": True}, session="s1", agent="a1")
    wide = call(
        "delete_fact", {"key": "*", "pattern": True, "scope": "shared"}, session="s1", agent="a1"
    )
    assert wide["deleted"] == 1
    # Every kind still reads them; the facts manager changes them.
    seen = call("read_facts", {"key_pattern": "skills/*"}, session="s1")
    assert [(f["key"], f["value"]) for f in seen["facts"]] == [("skills/deploy", "v1")]
    call(
        "store_fact", {"key": "skills/deploy", "value": "v2", "shared": True}, kind="facts_manager"
    )
    assert call("delete_fact", {"key": "asks/q1", "shared": True}, kind="facts_manager")["deleted"]
    assert count_facts(db, "key = 'skills/deploy' AND value = '\"v2\"'") == 1


def test_curated_namespaces_through_the_python_client(db: Database) -> None:
    manager = FactStore(db.dsn("facts_manager"), context=Context("t1", agent_kind="facts_manager"))
    agent = FactStore(db.dsn("agent"), context=Context("t1", session_id="s1"))
    with manager, agent:
        manager.store_fact("skills/x", 1, shared=True)
        with pytest.raises(PermissionDenied) as info:
            agent.store_fact("skills/x", 2, shared=True)
        assert info.value.sqlstate == "42501" and "skills/" in info.value.message
        with pytest.raises(PermissionDenied):
            agent.delete_fact("skills/x", shared=True)
        assert agent.read_facts(key_pattern="skills/*")[0].value == 1
        assert agent.tools.read_facts(key_pattern="skills/*")["facts"][0]["value"] == 1


# -- 2. orchestration-form session ids ----------------------------------------------------


def test_an_orchestration_instance_id_names_the_same_session(call: Caller) -> None:
    call("store_fact", {"key": "plan", "value": 1}, session="abc")
    # The read filter, the caller context, fact_history and the spawn tree all accept it.
    by_filter = call("read_facts", {"session_id": "session-abc"}, session="abc")
    assert [f["key"] for f in by_filter["facts"]] == ["plan"]
    by_context = call("read_facts", {"scope": "session"}, session="session-abc")
    assert [f["scopeKey"] for f in by_context["facts"]] == ["session:abc:plan"]
    call("store_fact", {"key": "more", "value": 2}, session="session-abc", parent="session-root")
    both = call("read_facts", {"scope": "session"}, session="abc")
    assert sorted(f["scopeKey"] for f in both["facts"]) == ["session:abc:more", "session:abc:plan"]
    history = call("fact_history", {"key": "plan", "session_id": "session-abc"}, session="abc")
    assert [v["value"] for v in history["versions"]] == [1]
    deleted = call("delete_session", {"session_id": "session-abc"}, kind="facts_manager")
    assert deleted["sessions"] == ["abc"] and deleted["deleted"] == 2


def test_orchestration_ids_through_the_python_client(db: Database) -> None:
    with FactStore(db.dsn("agent"), context=Context("t1", session_id="session-p1")) as store:
        store.store_fact("k", 1)
        assert store.register_session("session-c1", parent_session_id="session-p1") == {
            **store.register_session("c1", parent_session_id="p1")
        }
        assert sorted(store.spawn_tree("session-c1")) == ["c1", "p1"]
        assert store.read_facts(session_id="session-p1")[0].scope_key == "session:p1:k"
        by_tool = store.tools.read_facts(session_id="session-p1")
        assert by_tool["facts"][0]["scopeKey"] == "session:p1:k"
        assert store.end_session("session-c1")["session_id"] == "c1"


# -- 3. reads by exact scope keys ---------------------------------------------------------


def test_read_by_scope_keys_returns_what_the_caller_may_read_and_hides_the_rest(
    call: Caller,
) -> None:
    call("store_fact", {"key": "a", "value": "shared", "shared": True}, session="s1")
    call("store_fact", {"key": "b", "value": "mine"}, session="s1")
    call("store_fact", {"key": "c", "value": "theirs"}, session="other-tree")
    call("store_fact", {"key": "intake/x/s1", "value": "obs", "shared": True}, session="s1")
    keys = ["session:s1:b", "shared:a", "session:other-tree:c", "shared:intake/x/s1", "shared:zz"]
    seen = call("read_facts", {"scopeKeys": keys}, session="s1")
    assert [f["scopeKey"] for f in seen["facts"]] == ["session:s1:b", "shared:a"]
    assert seen["count"] == 2
    # An inaccessible key answers exactly like an unknown one.
    inaccessible = call("read_facts", {"scopeKeys": ["session:other-tree:c"]}, session="s1")
    unknown = call("read_facts", {"scopeKeys": ["session:other-tree:nope"]}, session="s1")
    assert inaccessible == unknown == {"count": 0, "facts": []}
    # A crawler resolves graph evidence from any session (its queue already holds them);
    # reserved keys stay hidden from it.
    crawler = call("read_facts", {"scopeKeys": keys}, kind="crawler", login="crawler")
    assert [f["scopeKey"] for f in crawler["facts"]] == [
        "session:s1:b",
        "shared:a",
        "session:other-tree:c",
    ]
    assert call("read_facts", {"scopeKeys": []}, session="s1") == {"count": 0, "facts": []}
    assert call("read_facts", {"scopeKeys": keys, "limit": 1}, session="s1")["count"] == 1


@pytest.mark.parametrize(
    "args",
    [
        {"scopeKeys": ["shared:a"], "key_pattern": "a"},
        {"scopeKeys": ["shared:a"], "scope": "shared"},
        {"scopeKeys": "shared:a"},
        {"scopeKeys": [1]},
        {"scopeKeys": [f"shared:{i}" for i in range(1001)]},
    ],
)
def test_bad_scope_key_reads_are_refused(call: Caller, args: dict[str, object]) -> None:
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        call("read_facts", args, session="s1")


def test_read_by_scope_keys_through_the_python_client(db: Database) -> None:
    with FactStore(db.dsn("agent"), context=Context("t1", session_id="s1")) as store:
        store.store_fact("a", 1, shared=True)
        got = store.read_facts_by_scope_keys(["shared:a", "shared:missing"])
        assert [f.key for f in got] == ["a"]
        by_tool = store.tools.read_facts_by_scope_keys(["shared:a", "shared:missing"])
        assert [f["key"] for f in by_tool["facts"]] == ["a"]
        with pytest.raises(InvalidParameter):
            store.read_facts_by_scope_keys(["x"] * 1001)


# -- 4. statistics and purges -------------------------------------------------------------


def test_facts_stats_count_buckets_scopes_writer_kinds_and_backlog(call: Caller) -> None:
    call("store_fact", {"key": "skills/a", "value": 1, "shared": True}, kind="facts_manager")
    call("store_fact", {"key": "asks/q", "value": 1, "shared": True}, kind="facts_manager")
    call(
        "store_fact",
        {"key": "config/facts-manager/x", "value": 1, "shared": True},
        kind="facts_manager",
    )
    call("store_fact", {"key": "intake/t/s1", "value": 1, "shared": True}, session="s1")
    call(
        "store_fact",
        {"facts": [{"key": "n1", "value": 1}, {"key": "n2", "value": 2}]},
        session="s1",
    )
    call("store_fact", {"key": "gone", "value": 1}, session="s1")
    call("delete_fact", {"key": "gone"}, session="s1")
    call("store_fact", {"key": "x", "value": 1}, session="s1", tenant="t2")  # another tenant
    call("facts_set_crawled", {"keyPrefix": "skills/"}, kind="crawler")
    stats = call("facts_stats", {}, kind="tuner", login="tuner")
    buckets = {(b["bucket"], b["scope"]): b["facts"] for b in stats["buckets"]}
    assert buckets == {
        ("other", "session"): 2,
        ("skills", "shared"): 1,
        ("asks", "shared"): 1,
        ("config", "shared"): 1,
        ("intake", "shared"): 1,
    }
    assert all(b["valueBytes"] > 0 for b in stats["buckets"])
    assert stats["writerKinds"] == [
        {"writerKind": "agent", "facts": 3},
        {"writerKind": "facts_manager", "facts": 3},
    ]
    assert (stats["live"], stats["tombstones"]) == (6, 1)
    assert (stats["uncrawled"], stats["uncrawledTombstones"]) == (6, 1)  # skills/a was crawled
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call("facts_stats", {}, session="s1")  # counts of what a task agent cannot read


def test_tombstone_stats_and_purges(call: Caller, db: Database) -> None:
    for key in ("r1", "u1", "u2", "keep/u3"):
        call("store_fact", {"key": key, "value": 1, "shared": True}, session="s1", agent="a")
        call("delete_fact", {"key": key, "shared": True}, session="s1", agent="a")
    call("store_fact", {"key": "live", "value": 1, "shared": True}, session="s1")
    [r1] = [
        f
        for f in call("facts_read_uncrawled", {"limit": 500}, kind="crawler")["facts"]
        if f["key"] == "r1"
    ]
    call(
        "facts_set_crawled",
        {"scopeKeys": [{"scopeKey": r1["scopeKey"], "etag": r1["etag"]}]},
        kind="crawler",
    )
    stats = call("facts_tombstone_stats", {}, kind="facts_manager")
    assert stats["ttlSeconds"] == 21600
    assert (stats["pending"], stats["reconciled"], stats["unreconciled"]) == (4, 1, 3)
    assert stats["blockedByTtl"] == 3 and stats["oldestUnreconciledAgeSeconds"] >= 0
    assert (
        call("facts_tombstone_stats", {"ttlSeconds": 0}, kind="tuner", login="tuner")[
            "blockedByTtl"
        ]
        == 0
    )
    # The TTL purge takes only the reconciled one; the forced purge is the operator's.
    assert call("facts_purge_tombstones", {}, kind="facts_manager") == {"purged": 1}
    cutoff = datetime.now(UTC).isoformat()
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call(
            "facts_force_purge",
            {"cutoff": cutoff, "includeUnreconciled": True},
            kind="facts_manager",
        )
    assert call("facts_force_purge", {"cutoff": cutoff}, kind="operator") == {"purged": 0}
    assert call(
        "facts_force_purge",
        {"cutoff": cutoff, "includeUnreconciled": True, "keyPrefix": "u"},
        kind="operator",
    ) == {"purged": 2}
    early = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    assert call(
        "facts_force_purge", {"cutoff": early, "includeUnreconciled": True}, kind="operator"
    ) == {"purged": 0}
    assert count_facts(db, "deleted_at IS NOT NULL") == 1  # keep/u3
    assert count_facts(db, "key = 'live'") == 1  # never a live fact
    for bad in (
        {"cutoff": (datetime.now(UTC) + timedelta(days=1)).isoformat()},
        {"cutoff": "yesterday-ish"},
        {"cutoff": cutoff, "keyPrefix": ""},
        {"cutoff": cutoff, "limit": 0},
        {},
    ):
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            call("facts_force_purge", bad, kind="operator")
    assert count_facts(db, "deleted_at IS NOT NULL") == 1


def test_statistics_and_purges_through_the_python_client(db: Database) -> None:
    operator = FactStore(db.dsn("operator"), context=Context("t1", agent_kind="operator"))
    with operator:
        operator.store_fact("a", 1, shared=True)
        operator.delete_fact("a", shared=True)
        assert operator.tombstone_stats()["pending"] == 1
        assert operator.tools.facts_tombstone_stats(ttl_seconds=0)["blockedByTtl"] == 0
        assert operator.facts_stats()["tombstones"] == 1
        # The SQL function's keys are snake_case; the tool's, the agents' camelCase.
        assert operator.facts_stats()["uncrawled_tombstones"] == 1
        assert operator.tools.facts_stats()["uncrawledTombstones"] == 1
        assert operator.purge_tombstones_before(datetime.now(UTC))["purged"] == 0
        assert operator.tools.facts_force_purge(
            datetime.now(UTC).isoformat(), include_unreconciled=True
        ) == {"purged": 1}
        assert operator.tools.facts_purge_tombstones() == {"purged": 0}


# -- 5. crawl-queue aliases ----------------------------------------------------------------


def test_namespace_is_an_alias_of_key_prefix_and_etags_may_be_decimal_strings(
    call: Caller, db: Database
) -> None:
    call("store_fact", {"key": "corpus/a", "value": 1, "shared": True})
    call("store_fact", {"key": "other/b", "value": 1, "shared": True})
    by_namespace = call("facts_read_uncrawled", {"namespace": "corpus/"}, kind="crawler")
    assert [f["key"] for f in by_namespace["facts"]] == ["corpus/a"]
    same = call(
        "facts_read_uncrawled", {"namespace": "corpus/", "keyPrefix": "corpus/"}, kind="crawler"
    )
    assert same == by_namespace
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        call(
            "facts_read_uncrawled", {"namespace": "corpus/", "keyPrefix": "other/"}, kind="crawler"
        )
    [fact] = by_namespace["facts"]
    stale = call(
        "facts_set_crawled",
        {"scopeKeys": [{"scopeKey": fact["scopeKey"], "etag": str(fact["etag"] + 1)}]},
        kind="crawler",
    )
    assert stale == {"affected": 0, "skipped": 1}  # a string etag is a real compare-and-set
    marked = call(
        "facts_set_crawled",
        {"scopeKeys": [{"scopeKey": fact["scopeKey"], "etag": str(fact["etag"])}]},
        kind="crawler",
    )
    assert marked == {"affected": 1, "skipped": 0}
    with FactStore(db.dsn("crawler"), context=Context("t1", agent_kind="crawler")) as crawler:
        assert [f["key"] for f in crawler.tools.facts_read_uncrawled()["facts"]] == ["other/b"]
        assert crawler.facts_read_uncrawled() == crawler.tools.facts_read_uncrawled()


# -- 6. scope session without a session ---------------------------------------------------


def test_scope_session_without_a_session_is_refused_not_answered(
    call: Caller, db: Database
) -> None:
    call("store_fact", {"key": "a", "value": 1, "shared": True})
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("read_facts", {"scope": "session"})
    assert "needs a session" in str(info.value)
    assert "scope shared" in (info.value.diag.message_hint or "")
    with (
        FactStore(db.dsn("agent"), context=Context("t1")) as store,
        pytest.raises(InvalidParameter) as refused,
    ):
        store.read_facts(scope="session")
    assert refused.value.sqlstate == "22023"


# -- 7. DSNs that are not PostgreSQL's ----------------------------------------------------


@pytest.mark.parametrize(
    "dsn", ["mysql://u:p@localhost/db", "redis://localhost:6379", "/tmp/facts.db"]
)
def test_a_dsn_that_is_not_postgresql_is_refused_at_once(dsn: str) -> None:
    started = time.monotonic()
    with pytest.raises(InvalidParameter) as info:
        FactStore(dsn)
    assert info.value.sqlstate == "22023" and "not a PostgreSQL DSN" in info.value.message
    assert info.value.hint and "postgresql://" in info.value.hint
    # The CLI as a host starts it, once; its other commands in this process (CliRunner).
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pgfacts",
            "tool",
            "read_facts",
            "{}",
            "--tenant",
            "t1",
            "--dsn",
            dsn,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1 and "not a PostgreSQL DSN" in result.stderr, result.stderr
    runner = CliRunner()
    for command in (
        ["migrate", "--dsn", dsn],
        ["tools", "--dsn", dsn],
        ["worker", "--once", "--dsn", dsn],
    ):
        ran = runner.invoke(app, command)
        assert ran.exit_code == 1, (command, ran.output)
        assert "not a PostgreSQL DSN" in ran.stderr, command
    doctor = runner.invoke(app, ["doctor", "--dsn", dsn])
    assert doctor.exit_code == 1 and "not a PostgreSQL DSN" in doctor.stdout
    assert time.monotonic() - started < 30  # no pool waiting for a connection


def test_pgfacts_dsn_from_the_environment_is_checked_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGFACTS_DSN", "sqlite:///facts.db")
    with pytest.raises(InvalidParameter) as info:
        FactStore()
    assert "PGFACTS_DSN is not a PostgreSQL DSN" in info.value.message
    result = subprocess.run(
        [sys.executable, "-m", "pgfacts", "tool", "read_facts", "--tenant", "t1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert '"code": "22023"' in result.stderr and "PGFACTS_DSN" in result.stderr


def test_a_forced_purge_skips_a_tombstone_a_concurrent_writer_is_reviving(
    call: Caller, db: Database
) -> None:
    call("store_fact", {"key": "r", "value": 1, "shared": True}, session="s1", agent="a")
    call("delete_fact", {"key": "r", "shared": True}, session="s1", agent="a")
    with db.connect("agent") as writer, db.connect("operator", autocommit=True) as operator:
        # Step 1: the writer revives the tombstone and holds its row until it commits.
        writer.execute("SELECT pgfacts.set_context(tenant => 't1', session_id => 's1')")
        writer.execute("SELECT pgfacts.store_fact('r', '2', shared => true)")
        # Step 2: the operator's purge passes over the locked row without waiting for it.
        operator.execute("SET lock_timeout = '30s'")  # a regression fails instead of hanging
        operator.execute("BEGIN")
        operator.execute("SELECT pgfacts.set_context(tenant => 't1', agent_kind => 'operator')")
        row = operator.execute(
            "SELECT pgfacts.purge_tombstones_before(now(), include_unreconciled => true)"
        ).fetchone()
        operator.execute("COMMIT")
        assert row is not None and row[0] == {"purged": 0}
        # Step 3: the revival commits; the fact is live with its new value.
        writer.commit()
    assert count_facts(db, "key = 'r' AND deleted_at IS NULL AND value = '2'") == 1

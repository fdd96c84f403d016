"""purge_source rewrites the slots a source touched as if it had never been seen;
verify_slot finds nothing to report on a consistent slot."""

from __future__ import annotations

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import Database, _fresh_database
from .test_knowledge_ingest import Knowledge, k, lives, person  # noqa: F401  (fixture)

DAYS = [f"2026-{m:02}-01" for m in range(1, 13)]


def test_purge_removes_a_source_and_its_claims(k: Knowledge, db: Database) -> None:  # noqa: F811
    va = person(k, "va")
    k.ingest("chat-1", [lives(va, "Kyiv", "2026-01-01")], kind="conversation")
    k.ingest("note-1", [lives(va, "Lviv", "2026-03-01")])
    k.ingest(
        "chat-1",
        [lives(va, "Kyiv", "2026-01-01"), lives(va, "Odesa", "2026-06-01")],
        kind="conversation",
        content="v2",
    )
    result = k.one("SELECT pgfacts.purge_source('conversation', 'chat-1')")
    assert result["episodes"] == 2 and result["slots_rebuilt"] == 1
    assert k.as_of(va, "lives_in", "2026-02-01") == []
    assert k.as_of(va, "lives_in", "2026-07-01") == ["Lviv"]
    with db.admin() as admin:
        left = admin.execute(
            "SELECT count(*) FROM pgfacts_internal.episodes WHERE source_ref = 'chat-1'"
        ).fetchone()
        audit = admin.execute(
            "SELECT source_kind, source_ref_sha256 <> 'chat-1' FROM pgfacts_internal.purge_audit"
        ).fetchall()
    assert left == (0,)
    assert audit == [("conversation", True)]
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", va) == []
    with pytest.raises(psycopg.errors.NoDataFound):
        k.one("SELECT pgfacts.purge_source('conversation', 'chat-1')")


def test_verify_slot_reports_a_tampered_slot(k: Knowledge, db: Database) -> None:  # noqa: F811
    wu = person(k, "wu")
    k.ingest("a", [lives(wu, "Pisa", "2026-01-01")])
    k.ingest("b", [lives(wu, "Rome", "2026-05-01")])
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", wu) == []
    with db.admin() as admin:  # a hand edit: Pisa's narrowed copy now ends a month early
        admin.execute(
            "UPDATE pgfacts_internal.claims SET valid = '[2026-01-01,2026-04-01)' "
            "WHERE object_value = '\"Pisa\"' AND upper_inf(system_time)"
        )
    differences = k.rows("SELECT difference FROM pgfacts.verify_slot(%s, 'lives_in')", wu)
    assert sorted(d for (d,) in differences) == ["replayed, not stored", "stored, not replayed"]
    # The replay was rolled back: the stored rows are untouched.
    assert k.as_of(wu, "lives_in", "2026-04-15") == []


episode = st.tuples(
    st.sampled_from(["s1", "s2", "s3"]),
    st.integers(0, 11),
    st.one_of(st.none(), st.integers(1, 4)),
    st.sampled_from(["x", "y", "z"]),
)


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stream=st.lists(episode, min_size=1, max_size=8))
def test_purge_equals_a_rebuild_without_that_source(
    server_dsn: str, template_db: str, stream: list[tuple[str, int, int | None, str]]
) -> None:
    def load(name: str, skip: str | None) -> Knowledge:
        kn = Knowledge(Database(name=name, admin_dsn=server_dsn))
        kn.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
        who = kn.one("SELECT pgfacts.ensure_entity('person', 'p', external_ref => 'p')")
        for step, (source, start, length, value) in enumerate(stream):
            if source == skip:
                continue
            end = None if length is None else DAYS[min(start + length, 11)]
            if end == DAYS[start]:
                end = None
            kn.ingest(source, [lives(who, value, DAYS[start], end)], content=f"v{step}")
        return kn

    for purged_name in _fresh_database(server_dsn, template_db):
        for clean_name in _fresh_database(server_dsn, template_db):
            purged = load(purged_name, None)
            clean = load(clean_name, "s1")
            try:
                if any(source == "s1" for source, *_ in stream):
                    purged.one("SELECT pgfacts.purge_source('note', 's1')")
                who = purged.one("SELECT pgfacts.ensure_entity('person', 'p', external_ref => 'p')")
                for t in [f"2026-{m:02}-15" for m in range(1, 13)]:
                    assert purged.as_of(who, "lives_in", t) == clean.as_of(who, "lives_in", t), t
            finally:
                purged.conn.close()
                clean.conn.close()

"""Property test: random streams of one-valued claims against a pure-Python reference model.

The model (tests/support/knowledge_model.py, the one test_knowledge_streams.py uses) keeps
a slot's live segments and applies the ingest rules: a value beginning inside a live segment
cuts it there (and a closed value resumes it afterwards), a value learned late ends where
the next known one starts, the same value already holding the start is corroboration. Here
every claim is its own source of one trust, so nothing outranks and no source changes.
Every as_of answer, now and as believed after each step, must match.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import Database
from .support.example_tenant import fresh_tenant
from .support.knowledge import knowledge_caller
from .support.knowledge_model import Line, Model

DAY0 = datetime(2026, 1, 1, tzinfo=UTC)
VALUES = ["a", "b", "c"]


def day(n: int) -> str:
    return (DAY0 + timedelta(days=n)).isoformat()


claim = st.tuples(
    st.integers(0, 40), st.one_of(st.none(), st.integers(1, 20)), st.sampled_from(VALUES)
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stream=st.lists(claim, min_size=1, max_size=12))
def test_one_slot_matches_the_model(
    db: Database, stream: list[tuple[int, int | None, str]]
) -> None:
    # One database for every example, a tenant of its own for each (tests/support/
    # example_tenant.py says why that is as clean as a database per example).
    k = knowledge_caller(db, tenant=fresh_tenant())
    try:
        k.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
        who = k.one("SELECT pgfacts.ensure_entity('person', 'p', external_ref => 'p')")
        model = Model()
        believed: list[tuple[object, dict[int, list[str]]]] = []
        for step, (start, length, value) in enumerate(stream):
            end = None if length is None else start + length
            claim_json = {
                "subject": who,
                "predicate": "lives_in",
                "object": value,
                "valid_from": day(start),
            }
            if end is not None:
                claim_json["valid_to"] = day(end)
            k.ingest(f"e{step}", [claim_json])
            # One source per step, all of one trust: nothing outranks, nothing changes.
            model.ingest_one(start, end, value, Line(step, f"e{step}", 2, start, end))
            believed.append((k.now(), {t: model.one_at(t) for t in range(0, 62, 3)}))
        for t in range(62):
            got = k.as_of(who, "lives_in", day(t))
            assert got == model.one_at(t), (t, model.one)
        for known_at, answers in believed:
            for t, expected in answers.items():
                got = k.as_of(who, "lives_in", day(t), known_at)
                assert got == expected, (t, known_at)
        # Bi-temporal invariant: no two believed values of the slot ever overlap in both
        # valid and system time (rows stored as [t, t] were never believed: outranked, or
        # recorded and retired by one transaction).
        clashes = k.one(
            "SELECT count(*) FROM pgfacts_internal.claims a "
            "JOIN pgfacts_internal.claims b ON a.subject_id = b.subject_id "
            "AND a.predicate = b.predicate AND a.claim_id < b.claim_id "
            "AND a.valid && b.valid AND a.system_time && b.system_time "
            "WHERE NOT upper_inc(a.system_time) AND NOT upper_inc(b.system_time)"
        )
        assert clashes == 0
    finally:
        k.conn.close()

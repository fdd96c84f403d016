"""Property test: random streams of the whole knowledge write API against a reference model.

A stream mixes episodes of one to three claims (one, many and event slots, two trust levels,
the same slot more than once in an episode), re-ingests of earlier episodes, retractions
and restores. A small pure-Python model applies the rules of the issue in a few lines each;
after the stream every as_of answer (now, and for the one slot as believed after each
step), every live row of history and every refusal must match it, and the history must
keep its invariants: believed rows never overlap in valid and system time, each valid
instant's versions follow each other without a gap in system time (a retraction may leave
one), and at most one version of an instant is open.

(purge_source has its own property test: purge equals never ingesting the source.)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from .conftest import Database, _fresh_database
from .test_knowledge_ingest import Knowledge

DAY0 = datetime(2026, 1, 1, tzinfo=UTC)
VALUES = ["a", "b", "c"]
TRUST = {"agent": 2, "owner": 3}
PREDICATES = {"lives_in": "one", "skill": "many", "visited": "event"}
INSTANTS = range(62)


def day(n: int) -> str:
    return (DAY0 + timedelta(days=n)).isoformat()


@dataclass
class Segment:
    start: int
    end: int | None
    value: str
    trust: int

    def holds(self, t: int) -> bool:
        return self.start <= t and (self.end is None or t < self.end)

    def overlaps(self, other: Segment) -> bool:
        return (other.end is None or self.start < other.end) and (
            self.end is None or other.start < self.end
        )


@dataclass
class Model:
    one: list[Segment] = field(default_factory=list)
    many: list[Segment] = field(default_factory=list)
    events: set[tuple[int, str]] = field(default_factory=set)
    # Retracted values of the one slot, each with the segments its retraction retired.
    blocked: dict[str, list[Segment]] = field(default_factory=dict)

    def ingest_one(self, start: int, end: int | None, value: str, trust: int) -> None:
        if value in self.blocked:
            return  # rejected: retracted
        same = next((s for s in self.one if s.value == value and s.holds(start)), None)
        if same:
            same.trust = max(same.trust, trust)  # corroborated: one more source
            return
        holder = next((s for s in self.one if s.holds(start)), None)
        later = [s.start for s in self.one if s.start > start]
        new_end = end
        if later and (new_end is None or min(later) < new_end):
            new_end = min(later)
        if holder and holder.trust > trust:
            return  # outranked: stored retired, never believed
        if holder:
            self.one.remove(holder)
            if holder.start < start:
                self.one.append(Segment(holder.start, start, holder.value, holder.trust))
            if end is not None and (holder.end is None or end < holder.end):
                self.one.append(Segment(end, holder.end, holder.value, holder.trust))
                new_end = end
        self.one.append(Segment(start, new_end, value, trust))

    def ingest_many(self, start: int, end: int | None, value: str) -> None:
        if not any(s.value == value and s.holds(start) for s in self.many):
            self.many.append(Segment(start, end, value, 0))

    def one_at(self, t: int) -> list[str]:
        return [s.value for s in self.one if s.holds(t)]

    def many_at(self, t: int) -> list[str]:
        return sorted(s.value for s in self.many if s.holds(t))

    def events_at(self, t: int) -> list[str]:
        return sorted(v for at, v in self.events if at == t)


claim = st.tuples(
    st.sampled_from(["lives_in", "lives_in", "lives_in", "skill", "visited"]),
    st.integers(0, 30),
    st.one_of(st.none(), st.integers(1, 20)),
    st.sampled_from(VALUES),
)
step = st.one_of(
    st.tuples(
        st.just("ingest"),
        st.lists(claim, min_size=1, max_size=3),
        st.sampled_from(list(TRUST)),
    ),
    st.tuples(st.just("reingest"), st.integers(0, 50)),
    st.tuples(st.just("retract"), st.integers(0, 61)),
    st.tuples(st.just("restore"), st.integers(0, 50)),
)


def claim_json(who: int, predicate: str, start: int, length: int | None, value: str) -> dict:
    c: dict[str, Any] = {"subject": who, "predicate": predicate, "object": value}
    c["valid_from"] = day(start)
    if length is not None and PREDICATES[predicate] != "event":
        c["valid_to"] = day(start + length)
    return c


def run_stream(k: Knowledge, stream: list[tuple[Any, ...]]) -> None:
    for name, cardinality in PREDICATES.items():
        k.one("SELECT pgfacts.define_predicate(%s, %s)", name, cardinality)
    who = k.one("SELECT pgfacts.ensure_entity('person', 'p', external_ref => 'p')")
    model = Model()
    episodes: list[tuple[str, list[dict], str]] = []
    retracted: list[tuple[int, str]] = []  # a retracted claim's id and value
    believed: list[tuple[Any, dict[int, list[str]]]] = []
    for number, op in enumerate(stream):
        if op[0] == "ingest":
            _, claims, trust = op
            body = [claim_json(who, *c) for c in claims]
            k.ingest(f"e{number}", body, trust=trust)
            episodes.append((f"e{number}", body, trust))
            for predicate, start, length, value in claims:
                end = None if length is None else start + length
                if predicate == "lives_in":
                    model.ingest_one(start, end, value, TRUST[trust])
                elif predicate == "skill":
                    model.ingest_many(start, end, value)
                else:
                    model.events.add((start, value))
        elif op[0] == "reingest" and episodes:
            ref, body, trust = episodes[op[1] % len(episodes)]
            rows_before = k.one("SELECT count(*) FROM pgfacts.claim_history(%s, 'lives_in')", who)
            again = k.ingest(ref, body, trust=trust)
            assert again["duplicate"] is True
            count = "SELECT count(*) FROM pgfacts.claim_history(%s, 'lives_in')"
            assert k.one(count, who) == rows_before
        elif op[0] == "retract":
            t = op[1]
            live = k.rows("SELECT claim_id FROM pgfacts.as_of(%s, 'lives_in', %s)", who, day(t))
            holder = next((s for s in model.one if s.holds(t)), None)
            assert (holder is None) == (live == []), (t, model.one, live)
            if holder is None:
                continue
            # A retraction retires every live row of the assertion: a gap wherever it held.
            gone = [s for s in model.one if s.value == holder.value]
            result = k.one("SELECT pgfacts.retract(%s)", live[0][0])
            assert result["rows"] == len(gone), (result, model.one)
            model.one = [s for s in model.one if s.value != holder.value]
            model.blocked[holder.value] = gone
            retracted.append((live[0][0], holder.value))
        elif op[0] == "restore" and retracted:
            claim_id, value = retracted[op[1] % len(retracted)]
            gone = model.blocked.get(value)
            if gone is None:
                expected: str | None = "PF005"  # not retracted
            elif any(s.overlaps(g) for s in model.one for g in gone):
                expected = "PF006"  # a newer claim holds the interval
            else:
                expected = None
            try:
                k.one("SELECT pgfacts.restore(%s)", claim_id)
                error: str | None = None
            except psycopg.Error as refused:
                error = refused.sqlstate
            assert error == expected, (claim_id, value, model.one, gone)
            if gone is not None and expected is None:
                model.one.extend(Segment(g.start, g.end, g.value, g.trust) for g in gone)
                del model.blocked[value]
        believed.append((k.now(), {t: model.one_at(t) for t in range(0, 62, 4)}))

    for t in INSTANTS:
        assert k.as_of(who, "lives_in", day(t)) == model.one_at(t), (t, model.one)
        assert sorted(k.as_of(who, "skill", day(t))) == model.many_at(t), (t, model.many)
        assert sorted(k.as_of(who, "visited", day(t))) == model.events_at(t), t
    for known_at, answers in believed:
        for t, expected_values in answers.items():
            assert k.as_of(who, "lives_in", day(t), known_at) == expected_values, (t, known_at)
    live_rows = sorted(
        (value, start, end)
        for value, start, end, reason in k.history(who, "lives_in")
        if reason is None
    )
    assert live_rows == sorted(
        (s.value, day(s.start)[:10], None if s.end is None else day(s.end)[:10]) for s in model.one
    )
    check_history_invariants(k, who)


def check_history_invariants(k: Knowledge, who: int) -> None:
    # Believed versions (outranked rows never were) of the one slot, per valid instant.
    rows = k.rows(
        "SELECT valid, lower(system_time), upper(system_time), retired_reason "
        "FROM pgfacts_internal.claims WHERE subject_id = %s AND predicate = 'lives_in' "
        "AND retired_reason IS DISTINCT FROM 'outranked' ORDER BY lower(system_time), claim_id",
        who,
    )
    for t in INSTANTS:
        instant = DAY0 + timedelta(days=t)
        versions = [r for r in rows if instant in r[0]]
        assert sum(1 for r in versions if r[2] is None) <= 1, (t, versions)
        for earlier, later in itertools.pairwise(versions):
            # No overlap in system time, and no gap unless the earlier one was retracted
            # (a retracted one value leaves a gap until something else is said).
            assert earlier[2] is not None and earlier[2] <= later[1], (t, versions)
            if earlier[3] != "retracted":
                assert earlier[2] == later[1], (t, versions)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stream=st.lists(step, min_size=1, max_size=12))
@example(  # an owner's value outranks an agent's later one
    stream=[
        ("ingest", [("lives_in", 0, None, "a")], "owner"),
        ("ingest", [("lives_in", 10, None, "b")], "agent"),
    ]
)
@example(  # a closed value inside a live one resumes it; then the same slot twice at once
    stream=[
        ("ingest", [("lives_in", 0, None, "a")], "agent"),
        ("ingest", [("lives_in", 5, 5, "b"), ("lives_in", 7, None, "c")], "agent"),
        ("retract", 3),
        ("restore", 0),
    ]
)
def test_streams_match_the_model(
    server_dsn: str, template_db: str, stream: list[tuple[Any, ...]]
) -> None:
    for name in _fresh_database(server_dsn, template_db):
        k = Knowledge(Database(name=name, admin_dsn=server_dsn))
        try:
            run_stream(k, stream)
        finally:
            k.conn.close()

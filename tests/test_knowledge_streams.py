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

import copy
import itertools
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from .conftest import Database
from .support.caller import Caller
from .support.example_tenant import fresh_tenant
from .support.knowledge import knowledge_caller
from .support.knowledge_model import Line, Model, Replaced, Segment

DAY0 = datetime(2026, 1, 1, tzinfo=UTC)
VALUES = ["a", "b", "c"]
TRUST = {"agent": 2, "owner": 3}
PREDICATES = {"lives_in": "one", "skill": "many", "visited": "event"}
INSTANTS = range(62)


def day(n: int) -> str:
    return (DAY0 + timedelta(days=n)).isoformat()


# A claim: predicate, start, length (None: open), value, and for a many claim which live
# row of the slot it replaces (an index into them, None: none).
claim = st.tuples(
    st.sampled_from(["lives_in", "lives_in", "lives_in", "skill", "skill", "visited"]),
    st.integers(0, 30),
    st.one_of(st.none(), st.integers(1, 20)),
    st.sampled_from(VALUES),
    st.one_of(st.none(), st.none(), st.integers(0, 9)),
)
step = st.one_of(
    st.tuples(
        st.just("ingest"),
        st.lists(claim, min_size=1, max_size=3),
        st.sampled_from(list(TRUST)),
    ),
    st.tuples(st.just("reingest"), st.integers(0, 50)),
    # A new version of an earlier episode's source: other text, other claims.
    st.tuples(st.just("revise"), st.integers(0, 50), st.lists(claim, min_size=0, max_size=3)),
    st.tuples(st.just("retract"), st.integers(0, 61)),
    st.tuples(st.just("restore"), st.integers(0, 50)),
    # purge_source of an earlier episode's source (every version of it).
    st.tuples(st.just("purge"), st.integers(0, 50)),
)


def claim_json(who: int, predicate: str, start: int, length: int | None, value: str) -> dict:
    c: dict[str, Any] = {"subject": who, "predicate": predicate, "object": value}
    c["valid_from"] = day(start)
    if length is not None and PREDICATES[predicate] != "event":
        c["valid_to"] = day(start + length)
    return c


def live_many(k: Caller, who: int) -> list[tuple[int, Replaced]]:
    """The live rows of the many slot: claim id, value and (start, end) in days."""
    rows = k.rows(
        "SELECT claim_id, object_value, valid_from, valid_to "
        "FROM pgfacts.claim_history(%s, 'skill') WHERE retired_at IS NULL ORDER BY claim_id",
        who,
    )
    return [
        (i, (v, (f - DAY0).days, None if t is None else (t - DAY0).days)) for i, v, f, t in rows
    ]


@dataclass(frozen=True)
class Accepted:
    """A claim an episode wrote (not below the floor, not rejected): what a purge replays."""

    predicate: str
    start: int
    end: int | None
    value: str
    line: Line
    replaces: Replaced | None


def apply_claim(
    model: Model, claim: Accepted, replay: bool = False, target: Segment | None = None
) -> None:
    if claim.predicate == "lives_in":
        model.ingest_one(claim.start, claim.end, claim.value, claim.line)
    elif claim.predicate == "skill":
        model.ingest_many(
            claim.start,
            claim.end,
            claim.value,
            claim.line,
            claim.replaces,
            replay=replay,
            replay_target=target,
        )
    else:
        model.ingest_event(claim.start, claim.value, claim.line)


def ingest_claims(
    k: Caller,
    model: Model,
    who: int,
    ref: str,
    content: str,
    episode: int,
    claims: list[tuple[Any, ...]],
    trust: str,
) -> tuple[list[dict], dict[str, Any], list[Accepted]]:
    """One episode through ingest and through the model; the claims sent, the result and
    the claims the episode wrote."""
    many_rows = live_many(k, who)
    body = []
    targets: list[Replaced | None] = []
    for predicate, start, length, value, replaces in claims:
        c = claim_json(who, predicate, start, length, value)
        target = None
        if predicate == "skill" and replaces is not None and many_rows:
            claim_id, target = many_rows[replaces % len(many_rows)]
            c["replaces"] = claim_id
        targets.append(target)
        body.append(c)
    result = k.ingest(ref, body, trust=trust, content=content)
    accepted = []
    for (predicate, start, length, value, _), target, outcome in zip(
        claims, targets, result["outcomes"], strict=True
    ):
        end = None if length is None or predicate == "visited" else start + length
        line = Line(episode, ref, TRUST[trust], start, start if predicate == "visited" else end)
        claim = Accepted(predicate, start, end, value, line, target)
        apply_claim(model, claim)
        if outcome["outcome"] not in ("below_floor", "rejected"):
            accepted.append(claim)
    return body, result, accepted


@dataclass
class Story:
    """What a purge replays, in order: each episode with the claims it wrote, and each
    retraction and restore that succeeded, with the step it was made in."""

    events: list[tuple[int, str, Any]] = field(default_factory=list)

    def replay(self, steps: int) -> tuple[Model, list[Model]]:
        """The model rebuilt as purge_source rebuilds the slots (every event at its place)
        and as it stood after each step."""
        model = Model()
        after: list[Model] = []
        events = iter(self.events)
        pending = next(events, None)
        for number in range(steps):
            while pending is not None and pending[0] == number:
                _, kind, what = pending
                if kind == "episode":
                    episode_ref, episode, claims = what
                    # purge_source names each replaced row before it replays the episode.
                    targets = [
                        model.replay_target(c.replaces)
                        if c.predicate == "skill" and c.replaces is not None
                        else None
                        for c in claims
                    ]
                    for claim, target in zip(claims, targets, strict=True):
                        apply_claim(model, claim, replay=True, target=target)
                    model.source_changed(episode_ref, episode)
                elif kind == "retract":
                    gone = [x for x in model.one if x.value == what]
                    model.one = [x for x in model.one if x.value != what]
                    model.blocked[what] = gone
                elif kind == "restore":
                    # Replayed leniently: a row whose interval is taken now stays retired.
                    for g in model.blocked.pop(what, []):
                        if not any(x.overlaps(g) for x in model.one):
                            model.one.append(Segment(g.start, g.end, g.value, list(g.lines)))
                pending = next(events, None)
            after.append(copy.deepcopy(model))
        return model, after


def run_stream(k: Caller, stream: list[tuple[Any, ...]]) -> None:
    for name, cardinality in PREDICATES.items():
        k.one("SELECT pgfacts.define_predicate(%s, %s)", name, cardinality)
    who = k.one("SELECT pgfacts.ensure_entity('person', 'p', external_ref => 'p')")
    model = Model()
    story = Story()
    episodes: list[tuple[str, list[dict], str, str]] = []
    retracted: list[tuple[int, str]] = []  # a retracted claim's id and value
    believed: list[tuple[int, Any, dict[int, list[str]]]] = []  # step, instant, answers
    for number, op in enumerate(stream):
        if op[0] == "ingest":
            _, claims, trust = op
            ref = f"e{number}"
            body, _, wrote = ingest_claims(k, model, who, ref, ref, number, claims, trust)
            episodes.append((ref, body, trust, ref))
            story.events.append((number, "episode", (ref, number, wrote)))
        elif op[0] == "revise" and episodes:
            ref, _, trust, _ = episodes[op[1] % len(episodes)]
            content = f"{ref}-v{number}"
            body, result, wrote = ingest_claims(k, model, who, ref, content, number, op[2], trust)
            expected_changed = model.source_changed(ref, number)
            changed = result["counters"]["source_changed"]
            assert changed == expected_changed, (model.one, model.many, model.events)
            episodes.append((ref, body, trust, content))
            story.events.append((number, "episode", (ref, number, wrote)))
        elif op[0] == "purge" and episodes:
            ref = episodes[op[1] % len(episodes)][0]
            k.one("SELECT pgfacts.purge_source('note', %s)", ref)
            # Every version of the source is gone, as if it had never been seen: now and
            # at every instant known before.
            story.events = [e for e in story.events if e[1] != "episode" or e[2][0] != ref]
            model, after = story.replay(number)
            believed = [
                (step, known_at, {t: after[step].one_at(t) for t in answers})
                for step, known_at, answers in believed
            ]
            episodes = [e for e in episodes if e[0] != ref]
            # The purge wrote the slot again with new ids: a restore now finds a retraction
            # by the id it was made with, so only the latest one of each value still works.
            latest = {value: claim_id for claim_id, value in retracted}
            retracted = [(i, v) for i, v in retracted if latest[v] == i and v in model.blocked]
        elif op[0] == "reingest" and episodes:
            ref, body, trust, content = episodes[op[1] % len(episodes)]
            rows_before = k.one("SELECT count(*) FROM pgfacts.claim_history(%s, 'lives_in')", who)
            again = k.ingest(ref, body, trust=trust, content=content)
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
            story.events.append((number, "retract", holder.value))
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
                model.one.extend(Segment(g.start, g.end, g.value, list(g.lines)) for g in gone)
                del model.blocked[value]
                story.events.append((number, "restore", value))
        believed.append((number, k.now(), {t: model.one_at(t) for t in range(0, 62, 4)}))

    for t in INSTANTS:
        assert k.as_of(who, "lives_in", day(t)) == model.one_at(t), (t, model.one)
        assert sorted(k.as_of(who, "skill", day(t))) == model.many_at(t), (t, model.many)
        assert sorted(k.as_of(who, "visited", day(t))) == model.events_at(t), t
    for _, known_at, answers in believed:
        for t, expected_values in answers.items():
            assert k.as_of(who, "lives_in", day(t), known_at) == expected_values, (t, known_at)
    for predicate, rows in (("lives_in", model.one), ("skill", model.many)):
        live_rows = sorted(
            (value, start, end)
            for value, start, end, reason in k.history(who, predicate)
            if reason is None
        )
        assert live_rows == sorted(
            (s.value, day(s.start)[:10], None if s.end is None else day(s.end)[:10]) for s in rows
        ), (predicate, rows)
    check_history_invariants(k, who)
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", who) == []
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'skill')", who) == []


def check_history_invariants(k: Caller, who: int) -> None:
    # Believed versions of the one slot, per valid instant. A row stored as [t, t] never
    # was: outranked, or recorded and retired by one transaction.
    every = k.rows(
        "SELECT valid, lower(system_time), upper(system_time), retired_reason, "
        "upper_inc(system_time) FROM pgfacts_internal.claims "
        "WHERE subject_id = %s AND predicate = 'lives_in' ORDER BY lower(system_time), claim_id",
        who,
    )
    rows = [r[:4] for r in every if not r[4]]
    never_believed = [r[:4] for r in every if r[4]]
    for t in INSTANTS:
        instant = DAY0 + timedelta(days=t)
        versions = [r for r in rows if instant in r[0]]
        # Why a value stopped at an instant may be told by a row that was never believed:
        # a transaction narrowed the value (the row ends, superseded) and then retired the
        # narrowed copy it had just made, because only an old text of its source said it.
        gap_reasons = {(r[1], r[3]) for r in never_believed if instant in r[0] and r[3] is not None}
        assert sum(1 for r in versions if r[2] is None) <= 1, (t, versions)
        for earlier, later in itertools.pairwise(versions):
            # No overlap in system time, and no gap unless the earlier one was retracted or
            # only an old text of its source said it (a gap until something else is said).
            assert earlier[2] is not None and earlier[2] <= later[1], (t, versions)
            if earlier[3] not in ("retracted", "source_changed") and not (
                (earlier[2], "source_changed") in gap_reasons
                or (earlier[2], "retracted") in gap_reasons
            ):
                assert earlier[2] == later[1], (t, versions, never_believed)


@settings(
    max_examples=int(os.environ.get("PGFACTS_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(stream=st.lists(step, min_size=1, max_size=12))
@example(  # an owner's value outranks an agent's later one
    stream=[
        ("ingest", [("lives_in", 0, None, "a", None)], "owner"),
        ("ingest", [("lives_in", 10, None, "b", None)], "agent"),
    ]
)
@example(  # a closed value inside a live one resumes it; then the same slot twice at once
    stream=[
        ("ingest", [("lives_in", 0, None, "a", None)], "agent"),
        ("ingest", [("lives_in", 5, 5, "b", None), ("lives_in", 7, None, "c", None)], "agent"),
        ("retract", 3),
        ("restore", 0),
    ]
)
@example(  # two claims of one episode replace the same row: the second names a retired row
    stream=[
        ("ingest", [("lives_in", 0, None, "a", None)], "agent"),
        (
            "ingest",
            [("lives_in", 0, None, "a", None), ("skill", 0, None, "a", None)],
            "agent",
        ),
        ("revise", 0, [("skill", 0, None, "a", 0), ("skill", 0, None, "b", 0)]),
    ]
)
@example(  # a longer range corroborates; a value is replaced by one already live
    stream=[
        ("ingest", [("lives_in", 0, 10, "a", None), ("skill", 0, 10, "b", None)], "agent"),
        ("ingest", [("lives_in", 5, None, "a", None), ("skill", 5, 20, "b", None)], "agent"),
        ("ingest", [("skill", 0, None, "c", None), ("skill", 0, None, "a", None)], "agent"),
        ("ingest", [("skill", 10, None, "a", 2)], "agent"),
    ]
)
@example(  # a new version narrows a value; another claim starts before a value
    stream=[
        ("ingest", [("lives_in", 0, None, "a", None)], "agent"),
        ("revise", 0, [("lives_in", 10, None, "a", None)]),
        ("ingest", [("lives_in", 12, 3, "b", None)], "owner"),
        ("ingest", [("lives_in", 2, None, "b", None)], "agent"),
    ]
)
@example(  # one write supersedes a value, then retires the copy it made (source changed)
    stream=[
        (
            "ingest",
            [("lives_in", 0, None, "a", None), ("lives_in", 0, None, "b", None)],
            "agent",
        ),
        ("revise", 0, [("lives_in", 1, None, "a", None)]),
        ("ingest", [("lives_in", 0, None, "a", None)], "agent"),
    ]
)
@example(  # a purge removes every row a retraction retired; the restore lifts the block
    stream=[
        ("ingest", [("lives_in", 0, None, "a", None)], "agent"),
        ("retract", 5),
        ("purge", 0),
        ("restore", 0),
        ("ingest", [("lives_in", 0, None, "a", None)], "agent"),
    ]
)
@example(  # a new version says one value twice, over overlapping ranges
    stream=[
        ("ingest", [("lives_in", 0, None, "a", None)], "agent"),
        ("revise", 0, [("lives_in", 20, None, "a", None), ("lives_in", 10, 20, "a", None)]),
    ]
)
@example(  # a replayed replaces names a row live before its episode, not one it wrote
    stream=[
        ("ingest", [("skill", 0, None, "b", None)], "agent"),
        ("ingest", [("skill", 0, None, "b", None), ("skill", 0, None, "a", 0)], "agent"),
        ("purge", 0),
    ]
)
@example(  # two claims of an episode name one row on replay: the second finds it retired
    stream=[
        ("ingest", [("skill", 3, 7, "c", None)], "agent"),
        ("revise", 0, [("skill", 18, 2, "b", None)]),
        (
            "ingest",
            [("skill", 13, None, "b", None), ("skill", 28, None, "a", 7), ("skill", 4, 10, "a", 4)],
            "owner",
        ),
        (
            "ingest",
            [("skill", 13, None, "b", None), ("skill", 28, None, "a", 7), ("skill", 4, 10, "a", 4)],
            "owner",
        ),
        ("purge", 0),
        ("revise", 2, [("skill", 18, 2, "b", None)]),
    ]
)
@example(  # a purge under other sources' values, then a restore of what it left
    stream=[
        ("ingest", [("lives_in", 0, None, "a", None), ("skill", 0, 10, "a", None)], "agent"),
        ("ingest", [("lives_in", 10, None, "b", None), ("skill", 5, None, "b", 0)], "agent"),
        ("ingest", [("lives_in", 20, None, "a", None)], "owner"),
        ("retract", 25),
        ("purge", 1),
        ("restore", 0),
    ]
)
def test_streams_match_the_model(db: Database, stream: list[tuple[Any, ...]]) -> None:
    # One database for every example, a tenant of its own for each (tests/support/
    # example_tenant.py says why that is as clean as a database per example).
    k = knowledge_caller(db, tenant=fresh_tenant())
    try:
        run_stream(k, stream)
    finally:
        k.conn.close()

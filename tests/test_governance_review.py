"""Human review (issue 25, sql/60_governance/50_review_*.sql): claims from sources below a
tenant's review trust, or below its review confidence, wait as candidates that no read of
claims sees; a reviewer approves one (written through the write path, believed from the
decision on, the candidate's row kept) or rejects it (its assertion is refused by every
later write until an operator lifts the rejection); each decision is audited with who
made it. The reviewer is a kind of its own: it reads, and writes nothing but decisions."""

from __future__ import annotations

import json
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb
from typer.testing import CliRunner

from pgfacts.cli import app

from .conftest import Database
from .interleave import Step, backend_pid, wait_until_blocked
from .support.caller import Caller, raises
from .support.knowledge import knowledge_caller, lives, person


def reviewer(db: Database, tenant: str = "k1", agent: str | None = "rev-1") -> Caller:
    return Caller(db, "reviewer", tenant=tenant, kind="reviewer", agent=agent)


def hold_below(k: Caller, trust: int = 0, confidence: float = 0) -> None:
    k.one("SELECT pgfacts.set_setting('review_below_trust', %s)", Jsonb(trust))
    k.one("SELECT pgfacts.set_setting('review_below_confidence', %s)", Jsonb(confidence))


def queue(c: Caller) -> list[dict[str, Any]]:
    return list(
        c.one(
            "SELECT coalesce(jsonb_agg(to_jsonb(q) ORDER BY q.candidate_id), '[]') "
            "FROM pgfacts.review_queue() AS q"
        )
    )


def believed(k: Caller, subject: int) -> list[Any]:
    return [r[0] for r in k.rows("SELECT object_value FROM pgfacts.current_claims(%s)", subject)]


def claim_count(k: Caller) -> int:
    return k.one("SELECT count(*) FROM pgfacts_internal.claims")  # type: ignore[no-any-return]


def test_a_low_trust_claim_waits_unseen_by_every_read(k: Caller, db: Database) -> None:
    hold_below(k, trust=2)  # third_party (1) waits; agent (2) and above do not
    ada = person(k, "Ada")
    held = k.ingest(
        "forum/1",
        [lives(ada, "Lviv", "2024-01-01", quote="Ada moved to Lviv")],
        trust="third_party",
    )
    assert held["outcomes"] == [
        {"index": 0, "outcome": "candidate", "candidate_id": held["outcomes"][0]["candidate_id"]}
    ]
    assert held["counters"]["candidate"] == 1 and held["counters"]["inserted"] == 0
    assert claim_count(k) == 0
    assert believed(k, ada) == []
    assert k.rows("SELECT * FROM pgfacts.search_claims('Lviv')") == []
    assert k.rows("SELECT * FROM pgfacts.search('Lviv')") == []
    assert k.rows("SELECT * FROM pgfacts.claim_history(%s, 'lives_in')", ada) == []
    pack = k.one("SELECT pgfacts.context_pack('Lviv')")
    assert "Lviv" not in str(pack)
    # The queue shows it with its evidence, oldest first; a trusted source is written.
    bo = person(k, "Bo")
    assert k.ingest("notes/1", [lives(bo, "Kyiv", "2024-01-01")])["counters"]["inserted"] == 1
    (waiting,) = queue(reviewer(db))
    assert {
        key: waiting[key]
        for key in (
            "subject_id",
            "predicate",
            "object",
            "quote",
            "source_kind",
            "source_ref",
            "trust",
            "held_because",
        )
    } == {
        "subject_id": ada,
        "predicate": "lives_in",
        "object": "Lviv",
        "quote": "Ada moved to Lviv",
        "source_kind": "note",
        "source_ref": "forum/1",
        "trust": "third_party",
        "held_because": "trust",
    }
    # Another tenant, which asked for no review, believes the same kind of source at once.
    other = knowledge_caller(db, tenant="k2")
    other.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    cy = person(other, "Cy")
    assert (
        other.ingest("forum/1", [lives(cy, "Lviv", "2024-01-01")], trust="third_party")["counters"][
            "inserted"
        ]
        == 1
    )
    assert queue(reviewer(db, tenant="k2")) == []


def test_a_candidate_comes_back_only_when_asked_for_and_marked(k: Caller, db: Database) -> None:
    hold_below(k, trust=2)
    ada, bo = person(k, "Ada"), person(k, "Bo")
    held = k.ingest("forum/1", [lives(ada, "Lviv", "2024-01-01")], trust="third_party")
    candidate = held["outcomes"][0]["candidate_id"]
    k.ingest("notes/1", [lives(bo, "Lviv", "2023-01-01", text="Bo lives in Lviv")])
    k.one("SELECT pgfacts.store_fact('city/lviv', %s, shared => true)", Jsonb("Lviv notes"))
    asked = "SELECT item_kind, ref, current FROM pgfacts.search('Lviv', item_kinds => %s)"
    for caller in (k, reviewer(db), Caller(db, tenant="k1", kind="tuner")):
        found = caller.rows(asked, ["fact", "claim", "candidate"])
        # Every believed hit first; the candidate after them, under its own kind, not current.
        assert [kind for kind, _, _ in found] == ["claim", "fact", "candidate"] or [
            kind for kind, _, _ in found
        ] == ["fact", "claim", "candidate"], found
        assert found[-1] == ("candidate", f"candidate:{candidate}", False)
        assert caller.rows(asked, ["candidate"]) == [("candidate", f"candidate:{candidate}", False)]
        pack = caller.one("SELECT pgfacts.context_pack('Lviv', include_candidates => true)")
        assert [i["ref"] for i in pack["items"] if i["item_kind"] == "candidate"] == [
            f"candidate:{candidate}"
        ]
        assert "Lviv" in pack["items"][-1]["content"] and pack["items"][-1]["current"] is False
    # Not asked for: nowhere; the limit counts believed hits first.
    assert [r[0] for r in k.rows("SELECT item_kind FROM pgfacts.search('Lviv')")].count(
        "candidate"
    ) == 0
    assert k.rows(
        "SELECT item_kind FROM pgfacts.search('Lviv', \"limit\" => 1, item_kinds => %s)",
        ["fact", "claim", "candidate"],
    ) in ([("claim",)], [("fact",)])
    # A task agent does not see what waits for review, asked or not (as review_queue).
    agent = Caller(db, tenant="k1", kind="agent", session="s1")
    assert agent.refused(asked, ["candidate"]) == "42501"
    assert agent.refused("SELECT pgfacts.context_pack('Lviv', include_candidates => true)") == (
        "42501"
    )
    # Decided candidates leave the list: approved, the claim answers as a claim.
    reviewer(db).one("SELECT pgfacts.approve_claim(%s)", candidate)
    assert k.rows(asked, ["candidate"]) == []
    assert k.refused(asked, ["fact", "nothing"]) == "22023"


def test_low_confidence_waits_between_the_floor_and_the_review_confidence(k: Caller) -> None:
    hold_below(k, confidence=0.8)
    ada = person(k, "Ada")
    k.one("SELECT pgfacts.define_predicate('likes', 'many')")
    claims = [
        {
            "subject": ada,
            "predicate": "likes",
            "object": o,
            "confidence": c,
            "valid_from": "2024-01-01",
        }
        for o, c in (("tea", 0.9), ("rain", 0.7), ("mud", 0.3))
    ]
    outcomes = [o["outcome"] for o in k.ingest("notes/1", claims)["outcomes"]]
    assert outcomes == ["inserted", "candidate", "below_floor"]
    assert [(c["object"], c["held_because"]) for c in queue(k)] == [("rain", "confidence")]
    # The operator's own correction never waits, however unsure.
    fog = {
        "subject": ada,
        "predicate": "likes",
        "object": "fog",
        "confidence": 0.6,
        "valid_from": "2024-01-01",
    }
    overridden = k.one("SELECT pgfacts.override('fix-1', %s)", Jsonb(fog))
    assert [o["outcome"] for o in overridden["outcomes"]] == ["inserted"]


def test_approval_writes_the_claim_as_of_the_decision_and_keeps_the_candidate(
    k: Caller, db: Database
) -> None:
    hold_below(k, trust=2)
    ada = person(k, "Ada")
    candidate = k.ingest("forum/1", [lives(ada, "Lviv", "2024-01-01")], trust="third_party")[
        "outcomes"
    ][0]["candidate_id"]
    held_at = k.one("SELECT now()")
    approved = reviewer(db).one("SELECT pgfacts.approve_claim(%s, note => 'lease seen')", candidate)
    assert approved["status"] == "approved" and approved["outcome"]["outcome"] == "inserted"
    claim_id = approved["outcome"]["claim_id"]
    assert believed(k, ada) == ["Lviv"]
    since = k.one(
        "SELECT lower(system_time) FROM pgfacts_internal.claims WHERE claim_id = %s", claim_id
    )
    assert since > held_at  # believed from the decision on, not from the candidate's ingest
    explained = k.one("SELECT pgfacts.explain_claim(%s)", claim_id)
    assert [s["source_ref"] for s in explained["sources"]] == ["forum/1"]
    shown = reviewer(db).one("SELECT pgfacts.review_candidate(%s)", candidate)
    assert (shown["status"], shown["decided_by"], shown["note"]) == (
        "approved",
        "rev-1",
        "lease seen",
    )
    assert shown["outcome"] == {"outcome": "inserted", "claim_id": claim_id}
    assert queue(k) == []
    raises("55000", reviewer(db).one, "SELECT pgfacts.approve_claim(%s)", candidate)
    raises("55000", reviewer(db).one, "SELECT pgfacts.reject_claim(%s)", candidate)
    # The decision is audited with the reviewer, and the write it made too.
    rows = k.rows(
        "SELECT audit_operation, audit_agent_id, audit_agent_kind, after "
        "FROM pgfacts.audit() WHERE audit_operation IN "
        "('review_approve', 'claim_decision') ORDER BY audit_id"
    )
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("review_approve", "rev-1", "reviewer"),
        ("claim_decision", "rev-1", "reviewer"),
    ]
    assert rows[0][3]["outcome"]["claim_id"] == claim_id
    # Purging the source removes what its approval wrote, and its candidates.
    k.one("SELECT pgfacts.purge_source('note', 'forum/1')")
    assert believed(k, ada) == []
    raises("P0002", reviewer(db).one, "SELECT pgfacts.review_candidate(%s)", candidate)


def test_an_approved_claim_survives_the_replay_of_its_slot(k: Caller, db: Database) -> None:
    ada = person(k, "Ada")
    k.ingest("notes/old", [lives(ada, "Kyiv", "2020-01-01")], trust="third_party")
    hold_below(k, trust=2)  # from now on that source's kind of trust waits
    candidate = k.ingest("forum/1", [lives(ada, "Lviv", "2024-01-01")], trust="third_party")[
        "outcomes"
    ][0]["candidate_id"]
    reviewer(db).one("SELECT pgfacts.approve_claim(%s)", candidate)
    assert believed(k, ada) == ["Lviv"]
    k.one("SELECT pgfacts.purge_source('note', 'notes/old')")  # replays the slot
    assert believed(k, ada) == ["Lviv"]
    assert k.rows("SELECT * FROM pgfacts.verify_slot(%s, 'lives_in')", ada) == []


def test_a_rejection_keeps_the_assertion_out_until_an_operator_lifts_it(
    k: Caller, db: Database
) -> None:
    hold_below(k, trust=2)
    ada = person(k, "Ada")
    first, second = (
        k.ingest(ref, [lives(ada, "Lviv", "2024-01-01")], trust="third_party")["outcomes"][0][
            "candidate_id"
        ]
        for ref in ("forum/1", "forum/2")
    )
    rejected = reviewer(db).one("SELECT pgfacts.reject_claim(%s, note => 'spam')", first)
    assert rejected["also_rejected"] == [second]
    assert queue(k) == []
    raises("55000", reviewer(db).one, "SELECT pgfacts.approve_claim(%s)", second)
    # No later write stores it: not a trusted source, not the operator's override.
    again = k.ingest("notes/1", [lives(ada, "Lviv", "2024-01-01")], trust="owner")
    assert again["outcomes"] == [{"index": 0, "outcome": "rejected", "reason": "review_rejected"}]
    assert claim_count(k) == 0
    # Another object of the slot is another assertion.
    assert k.ingest("notes/2", [lives(ada, "Kyiv", "2024-01-01")])["counters"]["inserted"] == 1
    raises("42501", reviewer(db).one, "SELECT pgfacts.lift_rejection(%s)", rejected["rejection_id"])
    lifted = k.one("SELECT pgfacts.lift_rejection(%s)", rejected["rejection_id"])
    assert lifted["candidate_id"] == first
    raises("55000", k.one, "SELECT pgfacts.lift_rejection(%s)", rejected["rejection_id"])
    assert k.ingest("notes/3", [lives(ada, "Lviv", "2024-06-01")])["counters"]["superseded"] == 1
    assert reviewer(db).one("SELECT pgfacts.review_candidate(%s)", first)["status"] == "rejected"
    audited = k.rows(
        "SELECT audit_operation, audit_target, audit_agent_kind FROM pgfacts.audit() "
        "WHERE audit_operation LIKE 'review_%%' ORDER BY audit_id"
    )
    assert audited == [
        ("review_reject", f"candidate:{first}", "reviewer"),
        ("review_lift", f"rejection:{rejected['rejection_id']}", "operator"),
    ]


def test_two_reviewers_rejecting_one_assertion_at_once_take_turns(k: Caller, db: Database) -> None:
    """The second waits for the first, then finds its candidate decided: rejected with the
    first, as the same assertion."""
    hold_below(k, trust=2)
    ada = person(k, "Ada")
    first, second = (
        k.ingest(ref, [lives(ada, "Lviv", "2024-01-01")], trust="third_party")["outcomes"][0][
            "candidate_id"
        ]
        for ref in ("forum/1", "forum/2")
    )
    with db.connect("reviewer") as one, db.connect("reviewer") as two, db.admin() as observer:
        for conn in (one, two):
            conn.execute("SELECT pgfacts.set_context('k1', agent_kind => 'reviewer')")
        one.execute("SELECT pgfacts.reject_claim(%s)", (first,))
        racing = Step(lambda: two.execute("SELECT pgfacts.reject_claim(%s)", (second,)))
        wait_until_blocked(observer, backend_pid(two), racing)
        one.commit()
        with pytest.raises(psycopg.Error) as refused:
            racing.result()
        assert refused.value.sqlstate == "55000"
    assert reviewer(db).one("SELECT pgfacts.review_candidate(%s)", second)["status"] == "rejected"


def test_the_reviewer_reads_and_decides_and_writes_nothing_else(k: Caller, db: Database) -> None:
    hold_below(k, trust=2)
    ada = person(k, "Ada")
    k.ingest("notes/1", [lives(ada, "Kyiv", "2020-01-01")])
    candidate = k.ingest("forum/1", [lives(ada, "Lviv", "2024-01-01")], trust="third_party")[
        "outcomes"
    ][0]["candidate_id"]
    rev = reviewer(db)
    assert rev.rows("SELECT object_value FROM pgfacts.current_claims(%s)", ada) == [("Kyiv",)]
    for refused in (
        "SELECT pgfacts.store_fact('notes/x', '1', shared => true)",
        "SELECT pgfacts.define_predicate('x', 'one')",
        "SELECT pgfacts.lift_rejection(1)",
        "SELECT count(*) FROM pgfacts_internal.review_candidates",
    ):
        assert rev.refused(refused) == "42501", refused
    episode = {"source_kind": "note", "source_ref": "r/1", "content_hash": "h"}
    assert rev.refused("SELECT pgfacts.ingest(%s, '[]')", Jsonb(episode)) == "42501"
    # A task agent sees no queue and decides nothing; the tuner reads it but decides nothing.
    agent = Caller(db, tenant="k1", kind="agent")
    tuner = Caller(db, tenant="k1", kind="tuner")
    for caller in (agent, tuner):
        assert caller.refused("SELECT pgfacts.approve_claim(%s)", candidate) == "42501"
        assert caller.refused("SELECT pgfacts.reject_claim(%s)", candidate) == "42501"
    assert agent.refused("SELECT * FROM pgfacts.review_queue()") == "42501"
    assert len(queue(tuner)) == 1
    # A login without the reviewer role cannot claim the kind.
    assert Caller(db, "agent", tenant="k1", kind="reviewer").refused("SELECT 1") == "42501"
    # Tenants are apart: k2's reviewer finds no k1 candidate.
    raises("P0002", reviewer(db, tenant="k2").one, "SELECT pgfacts.review_candidate(%s)", candidate)
    raises("P0002", reviewer(db, tenant="k2").one, "SELECT pgfacts.approve_claim(%s)", candidate)
    # Over the tools, as a reviewer agent calls them.
    listed = rev("review_queue", {})
    assert listed["count"] == 1 and listed["candidates"][0]["candidateId"] == candidate
    # The approval goes through the slot's rules with its source's trust: a third party
    # does not outrank the agent that said Kyiv.
    approved = rev("review_approve", {"candidateId": candidate})
    assert (approved["status"], approved["outcome"]["outcome"]) == ("approved", "outranked")
    assert rev.rows("SELECT object_value FROM pgfacts.current_claims(%s)", ada) == [("Kyiv",)]


@pytest.mark.parametrize(
    ("sql", "args", "state"),
    [
        ("SELECT pgfacts.approve_claim(NULL)", (), "22023"),
        ("SELECT pgfacts.reject_claim(NULL)", (), "22023"),
        ("SELECT pgfacts.review_candidate(NULL)", (), "22023"),
        ("SELECT pgfacts.approve_claim(424242)", (), "P0002"),
        ("SELECT pgfacts.reject_claim(424242)", (), "P0002"),
        ("SELECT pgfacts.review_candidate(424242)", (), "P0002"),
        ("SELECT pgfacts.approve_claim(1, note => %s)", ("x" * 2001,), "22023"),
        ("SELECT * FROM pgfacts.review_queue(0)", (), "22023"),
        ("SELECT * FROM pgfacts.review_queue(1001)", (), "22023"),
    ],
)
def test_bad_review_input_is_refused(
    module_db: Database, sql: str, args: tuple[Any, ...], state: str
) -> None:
    assert reviewer(module_db).refused(sql, *args) == state


@pytest.mark.parametrize(
    ("sql", "state"),
    [
        ("SELECT pgfacts.lift_rejection(NULL)", "22023"),
        ("SELECT pgfacts.lift_rejection(424242)", "P0002"),
    ],
)
def test_bad_lift_input_is_refused(module_db: Database, sql: str, state: str) -> None:
    assert Caller(module_db, tenant="k1").refused(sql) == state


def review_cli(db: Database, *args: str, login: str = "reviewer") -> Any:
    return CliRunner().invoke(
        app, ["review", *args, "--dsn", db.dsn(login), "--tenant", "k1", "--agent", "cli-rev"]
    )


def test_the_review_commands_list_show_and_decide_as_the_reviewer(k: Caller, db: Database) -> None:
    hold_below(k, trust=2)
    ada = person(k, "Ada")
    held = k.ingest(
        "forum/1",
        [lives(ada, "Lviv", "2024-01-01"), lives(ada, "Lviv", "2023-01-01", valid_to="2023-06-01")],
        trust="third_party",
    )
    first, second = (o["candidate_id"] for o in held["outcomes"])
    listed = review_cli(db, "list", "--json")
    assert listed.exit_code == 0, listed.output
    assert [r["candidate_id"] for r in json.loads(listed.stdout)] == [first, second]
    table = review_cli(db, "list")
    assert table.exit_code == 0 and "review queue" in table.stdout and "forum/1" in table.stdout
    approved = review_cli(db, "approve", str(first), "--note", "ok", "--json")
    assert approved.exit_code == 0, approved.output
    assert json.loads(approved.stdout)["outcome"]["outcome"] == "inserted"
    shown = review_cli(db, "show", str(first), "--json")
    assert json.loads(shown.stdout) == reviewer(db).one(
        "SELECT pgfacts.review_candidate(%s)", first
    )
    assert json.loads(shown.stdout)["decided_by"] == "cli-rev"
    # A decided candidate: the refusal's SQLSTATE, exit 1.
    again = review_cli(db, "reject", str(first))
    assert again.exit_code == 1 and "55000" in again.output
    rejected = review_cli(db, "reject", str(second), "--json")
    assert rejected.exit_code == 0, rejected.output
    rejection = json.loads(rejected.stdout)["rejection_id"]
    # Lifting is the operator's: the reviewer's login is refused, the operator's is not.
    refused = review_cli(db, "lift", str(rejection), "--kind", "reviewer")
    assert refused.exit_code == 1 and "42501" in refused.output
    lifted = review_cli(db, "lift", str(rejection), "--json", login="operator")
    assert lifted.exit_code == 0, lifted.output
    assert json.loads(lifted.stdout)["candidate_id"] == second

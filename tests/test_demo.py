"""`make demo` (pgfacts.demo.run) runs against a fresh database and prints what each step
says; its graph step's evidence resolves to the facts and the claim it cited, and its named
Cypher query returns the path the crawler wrote."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

from pgfacts import Context, FactStore, demo

from .conftest import Database

# One worker runs both tests, so the demo runs once (demo_text).
pytestmark = pytest.mark.xdist_group("demo")


@pytest.fixture(scope="module")
def demo_text(module_db: Database) -> str:
    """One run of the demo for the module's tests (each step its own tenant's data)."""
    buffer = io.StringIO()
    # As `make demo` runs it: the server's superuser (the doctor step reads server settings).
    # Wide enough that no line wraps: each printed line is matched whole.
    demo.run(module_db.admin_dsn_of_database(), "pgfacts", Console(file=buffer, width=400))
    return buffer.getvalue()


def test_the_demo_runs_and_its_graph_step_shows_evidence_and_cypher_rows(
    demo_text: str, module_db: Database
) -> None:
    text = demo_text
    for section in ("doctor:", "a spawn tree", "knowledge:", "retrieval:", "graph:"):
        assert f"== {section}" in text
    lines = text.split("== graph:", 1)[1].splitlines()

    [claim] = re.findall(r"^knowledge: (claim:\d+) Mira Osei member_of Payments", text, re.M)
    [(mira, team)] = re.findall(
        r"^  entity:(\d+) \(Mira Osei\) -member_of-> entity:(\d+) \(Payments\)  1  (?:claim:\d+)$",
        text,
        re.M,
    )
    start = lines.index(f"graph_neighbourhood('team:payments', seeds=['entity:{team}']):")
    resolved = lines.index("its evidence resolved: facts by scope key, claims by explain_claim")
    assert set(lines[start + 1 : resolved]) == {
        f"  entity:{mira} (Mira Osei) -member_of-> entity:{team} (Payments)  1  {claim}",
        "  service:payments-api -calls-> service:ledger  1  shared:svc/payments-api",
        "  team:payments -owns-> service:ledger  1  shared:svc/ledger",
        "  team:payments -owns-> service:payments-api  0.9  shared:svc/payments-api",
    }
    # Every piece of evidence, read back: the two facts' values and the claim explained.
    assert lines[resolved + 1 : resolved + 4] == [
        '  shared:svc/ledger = {"team": "payments"}',
        '  shared:svc/payments-api = {"team": "payments", "calls": "ledger"}',
        f'  {claim} = Mira Osei member_of Payments  (roster-7: "Mira joins Payments")',
    ]

    synced = lines.index("sync_graph_projection(), as `pgfacts worker --graph` runs it:")
    report = json.loads(lines[synced + 1])
    assert (report["nodes"], report["edges"], report["rebuilt"]) == (3, 3, True)
    params = {"from": "team:payments", "to": "service:ledger", "hops": 2}
    query = f"graph_cypher('directed_paths', {json.dumps(params)}):"
    rows = lines[lines.index(query) + 1 :]
    assert json.loads(rows[0]) == {
        "nodes": ["team:payments", "service:payments-api", "service:ledger"],
        "predicates": ["own", "call"],
    }
    assert rows[1].startswith("(the projection holds stored edges")  # one row, no more

    # The sync left the tenant's projection equal to its tables.
    [tenant] = re.findall(r"^tenant '(demo-[0-9a-f]{6})'", text, re.M)
    context = Context(tenant=tenant, agent_kind="operator")
    with FactStore(module_db.dsn("app"), context=context) as store:
        assert store.verify_graph_projection() == []


def test_the_demo_pipeline_step_records_queues_extracts_and_shows_the_evidence(
    demo_text: str,
) -> None:
    lines = demo_text.split("== pipeline:", 1)[1].split("\n== ", 1)[0].splitlines()
    assert "extraction_status: ready (no worker has run: nothing is lost)" in lines
    rejected = '[{"index": 1, "reason": "citation_outside_episode"}]'
    assert f"validate_extraction: 1 claim, rejected {rejected}" in lines
    assert "pgfacts worker: 1 done, 0 failed" in lines
    assert any(re.fullmatch(r"extraction_status: done, episode \d+", line) for line in lines)
    assert lines[-1] == (
        '  Lena lives_in "Porto" since 2026-05-01  (chat-9#3, extractor demo-script@1: '
        '"moved to Porto")'
    )


def test_the_demo_review_step_holds_decides_and_shows_the_audit(demo_text: str) -> None:
    lines = demo_text.split("== review:", 1)[1].splitlines()
    assert (
        "ingest from forum/thread-81 (third_party): ['candidate', 'candidate'], believed now: []"
        in lines
    )
    waiting = [line for line in lines if line.startswith("  candidate ")]
    assert [re.sub(r"candidate \d+", "candidate N", line) for line in waiting] == [
        '  candidate N: "Leeds" (forum/thread-81, third_party: "Ardal Finch opened in Leeds"; '
        "held for trust)",
        '  candidate N: "Atlantis" (forum/thread-81, third_party: "their HQ is in Atlantis"; '
        "held for trust)",
    ]
    assert any(
        re.fullmatch(r"approve_claim: inserted; reject_claim: rejected \(rejection \d+\)", line)
        for line in lines
    )
    assert (
        "believed now: ['Leeds']; Atlantis from another source: "
        '{"index": 0, "reason": "review_rejected", "outcome": "rejected"}'
    ) in lines
    audit = lines[lines.index("the audit rows of the decisions:") + 1 :]
    assert [re.sub(r":\d+ ", ":N ", line) for line in audit if line.strip()] == [
        "  review_approve candidate:N by reviewer-ana (reviewer, login postgres)",
        "  claim_decision claim:N by reviewer-ana (reviewer, login postgres)",
        "  review_reject candidate:N by reviewer-ana (reviewer, login postgres)",
    ]

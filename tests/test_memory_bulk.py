"""bulk_store_facts (issue 23, PilotSwarm's bulk tool): the valid records are committed, the
others reported in input order with a reason, and the failed ones come back as a failure
file that is itself valid input and round-trips byte for byte."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb
from typer.testing import CliRunner

from pgfacts import Context, FactStore, InvalidParameter, PermissionDenied
from pgfacts.cli import app

from .conftest import Database, count_facts
from .support.caller import Caller
from .test_fuzz import echoes


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def store(db: Database, kind: str = "agent", session: str | None = "s1") -> FactStore:
    return FactStore(
        db.dsn("app"), context=Context(tenant="t1", session_id=session, agent_kind=kind)
    )


def reasons(result: dict[str, Any]) -> list[tuple[int, str]]:
    return [(f["position"], f["reason"]) for f in result["failures"]]


def values(db: Database) -> dict[str, Any]:
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT scope_key, value FROM pgfacts_internal.facts WHERE deleted_at IS NULL"
        ).fetchall()
    return dict(rows)


def test_valid_records_are_committed_and_the_others_reported_in_input_order(
    call: Caller, db: Database
) -> None:
    records = [
        {"key": "notes/a", "value": {"n": 1}, "tags": ["x"]},
        {"key": "", "value": "secret-1"},
        "not a record",
        {"key": "notes/b", "value": None, "shared": True},
        {"key": "notes/c", "value": "secret-2", "colour": "red"},
        {"key": "notes/d", "value": 1, "shared": "yes"},
        {"key": "notes/e"},
        {"key": 7, "value": 1},
        {"key": "notes/f", "value": 2, "tags": [""]},
    ]
    result = call("bulk_store_facts", {"records": records}, session="s1")
    assert reasons(result) == [
        (2, "bad_key"),
        (3, "not_object"),
        (5, "unknown_field"),
        (6, "shared_not_boolean"),
        (7, "value_missing"),
        (8, "key_not_string"),
        (9, "bad_tags"),
    ]
    assert {k: result[k] for k in ("record_count", "accepted_count", "committed_count")} == {
        "record_count": 9,
        "accepted_count": 2,
        "committed_count": 2,
    }
    assert result["failed_count"] == 7 and result["source"] == "records"
    assert result["failures"][2]["message"] == (
        "unknown field(s) 'colour' (fields are key, value, tags, shared, ttl_seconds)"
    )
    # The sample names failed keys (strings only), never values.
    assert result["failed_sample"] == ["", "notes/c", "notes/d", "notes/e", "notes/f"]
    assert "secret" not in json.dumps(result["failed_sample"] + result["failures"])
    assert values(db) == {"session:s1:notes/a": {"n": 1}, "shared:notes/b": None}


def test_the_first_valid_record_of_a_key_in_a_scope_wins(call: Caller, db: Database) -> None:
    result = call(
        "bulk_store_facts",
        {
            "records": [
                {"key": "d", "value": "invalid", "tags": "x"},
                {"key": "d", "value": 1},
                {"key": "d", "value": 2},
                {"key": "d", "value": 3, "shared": True},
                {"key": "d", "value": 4, "shared": True},
            ]
        },
        session="s1",
    )
    assert reasons(result) == [(1, "bad_tags"), (3, "duplicate_key"), (5, "duplicate_key")]
    assert values(db) == {"session:s1:d": 1, "shared:d": 3}


def test_the_failure_file_is_valid_input_and_round_trips_byte_for_byte(
    db: Database, tmp_path: Path
) -> None:
    records = [
        {"key": "ok/1", "value": 'é€ \u2028 \\ "', "_error": "ignored on read"},
        {"key": "skills/x", "value": 1, "shared": True, "_error": {"reason": "stale"}},
        [1, 2],
        {"key": "a\nb", "value": 1.50},
        {"key": "ok/2", "value": {"b": 1, "a": [1e2, -0.0]}},
        {"key": "k", "value": 1, "extra": {"z": 1, "y": 2}},
    ]
    data = json.dumps(records, indent=2).encode()
    with store(db) as s:
        first = s.bulk_store_facts(source=data, sha256=sha(data))
        assert first["source"] == "source" and first["sha256"] == sha(data)
        failed = [(2, "key_not_writable"), (3, "not_object"), (4, "bad_key"), (6, "unknown_field")]
        assert reasons(first) == failed
        path = tmp_path / "failed.json"
        path.write_bytes(first["failed_file"].encode())
        back = path.read_bytes()
        assert sha(back) == first["failed_file_sha256"]
        parsed = json.loads(back)
        assert parsed[1] == [1, 2]  # not an object: as it came
        assert parsed[0]["_error"] == {
            "reason": "key_not_writable",
            "message": "the 'skills/' key namespace is reserved: agent kind agent may not write it",
        }
        assert {k: v for k, v in parsed[2].items() if k != "_error"} == records[3]
        again = s.bulk_store_facts(source=back, sha256=sha(back), expected_count=4)
    assert again["failed_file"].encode() == back
    assert again["failed_file_sha256"] == first["failed_file_sha256"]
    # The same failures, now at positions 1 to 4: no message names a position.
    assert again["committed_count"] == 0
    assert reasons(again) == [(i + 1, reason) for i, (_, reason) in enumerate(failed)]
    assert set(values(db)) == {"session:s1:ok/1", "session:s1:ok/2"}


def test_the_tool_takes_a_file_text_and_the_sha256_of_its_utf8_bytes(call: Caller) -> None:
    text = json.dumps([{"key": "ünï", "value": "€"}, {"key": "x", "value": 1, "bad": 1}])
    result = call("bulk_store_facts", {"source": text, "sha256": sha(text.encode())}, session="s1")
    assert (result["committed_count"], reasons(result)) == (1, [(2, "unknown_field")])
    again = call(
        "bulk_store_facts",
        {"source": result["failed_file"], "sha256": result["failed_file_sha256"]},
        session="s1",
    )
    assert again["failed_file"] == result["failed_file"]


WHOLE_CALL_REFUSALS: list[tuple[dict[str, Any], str]] = [
    ({"source": "[]", "sha256": "0" * 64}, "source does not match its sha256"),
    ({"source": "[]", "sha256": "ABC"}, "sha256 must be 64 hexadecimal digits"),
    ({"source": "[]"}, "a source needs its sha256"),
    ({"records": [], "sha256": sha(b"[]")}, "records inline have none"),
    ({"records": [], "source": "[]", "sha256": sha(b"[]")}, "exactly one of"),
    ({}, "exactly one of records and source"),
    ({"records": {"key": "k", "value": 1}}, "records must be a JSON array"),
    ({"records": [{"key": "k", "value": 1}], "expected_count": 2}, "expected_count is 2 but"),
    ({"records": [], "key_prefix": ""}, "key_prefix must be a non-empty string"),
    ({"records": [], "expected_count": 1.5}, "must be an integer"),
    ({"records": [], "source": 5}, "argument source must be a string"),
]


def test_whole_call_refusals_write_nothing(call: Caller, db: Database) -> None:
    for args, fragment in WHOLE_CALL_REFUSALS:  # one database for all: each writes nothing
        with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
            call("bulk_store_facts", {**args}, session="s1")
        assert fragment in str(info.value), (args, str(info.value))
    assert count_facts(db) == 0


def test_a_sha256_mismatch_names_both_hashes_and_writes_nothing(db: Database) -> None:
    data = b'[{"key": "k", "value": 1}]'
    with store(db) as s, pytest.raises(InvalidParameter) as info:
        s.bulk_store_facts(source=data + b" ", sha256=sha(data).upper())
    assert info.value.detail == f"given {sha(data)}, computed {sha(data + b' ')}"
    assert count_facts(db) == 0


def test_the_caps_are_tenant_settings_with_clear_errors(call: Caller, db: Database) -> None:
    call.kind = "operator"
    call.rows("SELECT pgfacts.set_setting('bulk_max_records', '3')")
    call.rows("SELECT pgfacts.set_setting('bulk_max_bytes', '200')")
    four = [{"key": f"k{i}", "value": i} for i in range(4)]
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("bulk_store_facts", {"records": four}, session="s1", kind="agent")
    assert info.value.diag.message_primary == "a bulk call takes at most 3 records, not 4"
    assert "bulk_max_records" in (info.value.diag.message_hint or "")
    text = json.dumps([{"key": "k", "value": "x" * 200}])
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        call("bulk_store_facts", {"source": text, "sha256": sha(text.encode())}, kind="agent")
    assert (
        info.value.diag.message_primary
        == f"the source is {len(text)} bytes, over the cap of 200 bytes"
    )
    assert "bulk_max_bytes" in (info.value.diag.message_hint or "")
    assert count_facts(db) == 0
    assert (
        call("bulk_store_facts", {"records": four[:3]}, session="s1", kind="agent")[
            "committed_count"
        ]
        == 3
    )


def test_a_value_over_the_value_cap_fails_that_record_only(call: Caller) -> None:
    call.kind = "operator"
    call.rows("SELECT pgfacts.set_setting('value_max_bytes', '100')")
    result = call(
        "bulk_store_facts",
        {"records": [{"key": "big", "value": "x" * 200}, {"key": "small", "value": 1}]},
        session="s1",
        kind="agent",
    )
    assert result["failures"] == [
        {
            "position": 1,
            "reason": "value_too_large",
            "message": "value is 202 bytes, over the cap of 100 bytes (store a reference "
            "instead, or ask an operator to raise value_max_bytes)",
        }
    ]
    assert result["committed_count"] == 1


def test_the_tuner_is_refused_before_anything_is_read(call: Caller, db: Database) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call("bulk_store_facts", {"records": [{"key": "k", "value": 1}]}, kind="tuner")
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call("bulk_store_facts", {"source": "not even json"}, kind="tuner")
    with db.connect("tuner") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT pgfacts.bulk_store_facts(records => '[]')")
    with store(db, kind="tuner") as s, pytest.raises(PermissionDenied):
        s.bulk_store_facts([{"key": "k", "value": 1}])
    assert count_facts(db) == 0


def test_reserved_namespaces_are_those_of_store_facts(call: Caller, db: Database) -> None:
    keys = ["skills/a", "asks/a", "config/facts-manager/a", "tools/a", "intake/obs/s1", "notes/a"]
    records = [{"key": k, "value": 1, "shared": True} for k in keys]
    as_agent = call("bulk_store_facts", {"records": records}, session="s1", kind="agent")
    assert reasons(as_agent) == [(i, "key_not_writable") for i in (1, 2, 3, 4)]
    assert "'tools/'" in as_agent["failures"][3]["message"]
    manager = call("bulk_store_facts", {"records": records}, session="s1", kind="facts_manager")
    assert reasons(manager) == [(4, "key_not_writable")]
    assert sorted(values(db)) == sorted(f"shared:{k}" for k in keys if k != "tools/a")


def test_key_prefix_and_the_session_rule(call: Caller, db: Database) -> None:
    result = call(
        "bulk_store_facts",
        {
            "records": [
                {"key": "import/a", "value": 1},
                {"key": "other/b", "value": 1, "shared": True},
                {"key": "import/c", "value": 1, "shared": True},
            ],
            "key_prefix": "import/",
        },
    )  # no session: only shared facts can be stored
    assert reasons(result) == [(1, "no_session"), (2, "prefix_violation")]
    assert result["failures"][1]["message"] == "key does not start with key_prefix 'import/'"
    assert list(values(db)) == ["shared:import/c"]


def distinct_words(size: int) -> str:
    """About size characters of random six-letter words (hex digits as the letters a-p)."""
    letters = random.Random(23).randbytes(3 * (size // 7)).hex()
    letters = letters.translate(str.maketrans("0123456789", "ghijklmnop"))
    return " ".join(letters[i : i + 6] for i in range(0, len(letters), 6))


def test_a_poisoned_chunk_falls_back_to_one_record_at_a_time(call: Caller, db: Database) -> None:
    # Two records that pass every check and fail their write, in two chunks: a constraint
    # this test adds refuses them (class 23, which must not reach the caller). A value
    # under the 1 MiB cap whose words would overflow one tsvector is stored (retrieval's
    # searchable_text), in a third chunk.
    with db.admin() as admin:
        admin.execute(
            "ALTER TABLE pgfacts_internal.facts ADD CONSTRAINT test_poison "
            "CHECK (key NOT IN ('k/0300', 'k/0700')) NOT VALID"
        )
    poison = "a value the table refuses"
    records: list[Any] = [{"key": f"k/{i:04}", "value": i} for i in range(1, 1201)]
    records[699] = {"key": "k/0700", "value": poison}  # chunks of 500 in key order
    records[899] = {"key": "k/0900", "value": distinct_words(800_000)}
    records[1099] = {"key": "", "value": 0}
    result = call("bulk_store_facts", {"records": records}, session="s1")
    [check, second, bad] = result["failures"]
    assert (check["position"], check["reason"], check["sqlstate"]) == (300, "write_failed", "23514")
    # PostgreSQL's message, cut as shown() cuts input: a trigger's could hold a value.
    assert check["message"] == (
        'the write failed: \'new row for relation "facts" violates check constraint "test_po\'...'
    )
    assert (second["position"], second["sqlstate"]) == (700, "23514")
    assert (bad["position"], bad["reason"]) == (1100, "bad_key")
    assert (result["accepted_count"], result["committed_count"]) == (1199, 1197)
    assert count_facts(db) == 1197
    # The failure file carries a poisoned record whole, so a fixed one can be sent again.
    assert json.loads(result["failed_file"])[1]["value"] == poison


BAD_SOURCES = [
    (b'[{"key": "k", "value": "a\x00b"}]', "source is not UTF-8 text"),
    (b'[{"key": "k", "value": "\xff"}]', "source is not UTF-8 text"),
    (b'[{"key": "k", "value": "a\\u0000b"}]', "escape jsonb cannot store"),
    (b"\xef\xbb\xbf[]", "source is not valid JSON"),
    (b'[{"key": "k", "value": ' + b"x" * 500 + b"}]", "source is not valid JSON"),
    (b'{"key": "k", "value": 1}', "must hold a JSON array of records, not object"),
    (b"[" * 100_000 + b"]" * 100_000, "too deeply to parse"),
]


def test_bad_bytes_in_a_source_are_clear_22023s(db: Database) -> None:
    with store(db) as s:
        for data, fragment in BAD_SOURCES:
            with pytest.raises(InvalidParameter) as info:
                s.bulk_store_facts(source=data, sha256=sha(data))
            assert info.value.sqlstate == "22023", info.value
            assert fragment in info.value.message, info.value.message
            cause = info.value.__cause__
            assert isinstance(cause, psycopg.Error)
            assert echoes(cause, [data.decode("utf-8", "replace")]) is None
    assert count_facts(db) == 0


def test_fuzz_style_records_fail_one_by_one(call: Caller) -> None:
    nested: Any = 1
    for _ in range(65):
        nested = [nested]
    records = [
        {"key": "deep", "value": nested},
        {"key": "k" * 513, "value": 1},
        {"key": "\x01" + "x" * 100, "value": 1},
        {"key": "tags", "value": 1, "tags": ["t"] * 65},
        {"key": "é" * 512, "value": {"a": "€" * 10_000}},
        {"key": "x" * 100, "value": 1, "y" * 100: 1},
    ]
    result = call("bulk_store_facts", {"records": records}, session="s1")
    expected = ["value_too_deep", "bad_key", "bad_key", "bad_tags", None, "unknown_field"]
    assert reasons(result) == [(i + 1, r) for i, r in enumerate(expected) if r is not None]
    long = [s for s in ["k" * 513, "x" * 100, "y" * 100] if len(s) > 64]
    for failure in result["failures"]:
        assert not any(s[:65] in failure["message"] for s in long), failure
    assert all(len(key) <= 64 for key in result["failed_sample"])


def test_the_cli_reads_the_file_and_writes_the_failed_records(db: Database, tmp_path: Path) -> None:
    source = tmp_path / "facts.json"
    source.write_bytes(json.dumps([{"key": "a", "value": 1}, {"key": "", "value": 2}]).encode())
    options = ["--dsn", db.dsn("agent"), "--tenant", "t1", "--session", "s1"]
    runner = CliRunner()
    ran = runner.invoke(
        app, ["bulk-store-facts", str(source), "--sha256", sha(source.read_bytes()), *options]
    )
    assert ran.exit_code == 2, ran.output
    result = json.loads(ran.stdout)
    failed = Path(result["failed_file"])
    assert failed == tmp_path / "facts.json.failed.json"
    assert sha(failed.read_bytes()) == result["failed_file_sha256"]
    retry = ["--sha256", result["failed_file_sha256"], "--failed-file", str(failed)]
    again = runner.invoke(app, ["bulk-store-facts", str(failed), *retry, *options])
    assert again.exit_code == 2 and sha(failed.read_bytes()) == result["failed_file_sha256"]
    wrong = runner.invoke(app, ["bulk-store-facts", str(source), "--sha256", "0" * 64, *options])
    assert wrong.exit_code == 1 and "does not match its sha256" in wrong.output
    assert count_facts(db) == 1


def test_a_direct_sql_call_as_a_login_of_one_kind(db: Database) -> None:
    with db.connect("agent") as conn:
        conn.execute("SELECT pgfacts.set_context(tenant => 't1', session_id => 's1')")
        row = conn.execute(
            "SELECT pgfacts.bulk_store_facts(records => %s, key_prefix => 'p/')",
            (Jsonb([{"key": "p/a", "value": 1}, {"key": "p/a", "value": 2}]),),
        ).fetchone()
        conn.commit()
    assert row is not None and reasons(row[0]) == [(2, "duplicate_key")]
    assert row[0]["failed_sample"] == ["p/a"]

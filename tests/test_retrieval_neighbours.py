"""context_pack's neighbours (issue 27): a fact hit brings the facts beside it in key order
under the same parent path, as a conversation stored one fact per turn keeps them (a turn is
often answered in the next one), each marked with the hit it came with, and only what the
reader may see."""

from __future__ import annotations

from typing import Any

import pytest
from psycopg.types.json import Jsonb

from .conftest import Database
from .support.caller import Caller

TURNS = [
    ("ana", "did you ever go back to the harbour town?"),
    ("ben", "yes, last spring, with my sister"),
    ("ana", "what did you think of the qzxferry crossing?"),
    ("ben", "rough, I was seasick the whole way"),
    ("ana", "shall we plan the next trip?"),
    ("ben", "maybe in autumn"),
]


def store_chat(caller: Caller, prefix: str = "chats/ana-ben/session-01") -> None:
    for n, (speaker, text) in enumerate(TURNS):
        caller.one(
            "SELECT pgfacts.store_fact(%s, %s, shared => true)",
            f"{prefix}/turn-{n:03d}",
            Jsonb({"speaker": speaker, "text": text}),
        )


def pack(caller: Caller, query: str, **kwargs: Any) -> list[dict[str, Any]]:
    args = "".join(f", {name} => %s" for name in kwargs)
    found = caller.one(f"SELECT pgfacts.context_pack(%s{args})", query, *kwargs.values())
    return list(found["items"])


def test_a_turn_comes_with_the_turns_beside_it(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1")
    store_chat(agent)
    store_chat(agent, "chats/ana-cy/session-01")  # another conversation: never a neighbour
    assert [i["key"] for i in pack(agent, "qzxferry")] == ["chats/ana-ben/session-01/turn-002"]
    items = pack(agent, "qzxferry", neighbours=1)
    # The hit, then the turn before it and the turn after it (nearest first).
    assert [i["key"][-3:] for i in items] == ["002", "001", "003"]
    hit, before, after = items
    assert hit["key"].endswith("turn-002") and "neighbour_of" not in hit["why"]
    assert before["key"].endswith("turn-001") and after["key"].endswith("turn-003")
    assert before["why"]["neighbour_of"] == after["why"]["neighbour_of"] == hit["ref"]
    assert (before["why"]["side"], after["why"]["side"]) == (-1, 1)
    assert "seasick" in after["content"]
    assert [i["position"] for i in items] == [1, 2, 3]
    two = pack(agent, "qzxferry", neighbours=2)
    assert sorted(i["key"][-3:] for i in two) == ["000", "001", "002", "003", "004"]
    # The budget counts the neighbours too: a budget for the hit alone keeps the hit only.
    budget = hit["tokens"] + 1
    assert [i["key"][-3:] for i in pack(agent, "qzxferry", neighbours=1, token_budget=budget)] == [
        "002"
    ]


def test_a_neighbour_is_one_the_reader_may_see(db: Database) -> None:
    a = Caller(db, kind="agent", session="a")
    b = Caller(db, kind="agent", session="b")
    for n, (speaker, text) in enumerate(TURNS[:4]):
        writer = a if n != 3 else b  # turn 3 is b's own session fact, under the same path
        writer.one(
            "SELECT pgfacts.store_fact(%s, %s, shared => %s)",
            f"log/t-{n}",
            Jsonb(f"{speaker}: {text}"),
            n != 3,
        )
    keys = [i["key"] for i in pack(a, "qzxferry", neighbours=1)]
    assert keys == ["log/t-2", "log/t-1"]  # t-3 is b's session fact: not a's to see
    a.one("SELECT pgfacts.delete_fact('log/t-1', shared => true)")
    assert [i["key"] for i in pack(a, "qzxferry", neighbours=1)] == ["log/t-2", "log/t-0"]


def test_a_hit_is_listed_once_and_keys_without_a_path_have_no_neighbours(db: Database) -> None:
    agent = Caller(db, kind="agent", session="s1")
    store_chat(agent)
    # Both turn-002 and turn-003 match: each is a hit, neither repeated as the other's neighbour.
    items = pack(agent, "qzxferry seasick OR qzxferry", neighbours=1)
    keys = [i["key"] for i in items]
    assert len(keys) == len(set(keys))
    agent.one("SELECT pgfacts.store_fact('qzxlonely', %s, shared => true)", Jsonb("a note"))
    assert [i["key"] for i in pack(agent, "qzxlonely", neighbours=3)] == ["qzxlonely"]


@pytest.mark.parametrize("neighbours", [-1, 6, None])
def test_bad_neighbours_are_refused(db: Database, neighbours: Any) -> None:
    agent = Caller(db, kind="agent", session="s1")
    assert (
        agent.refused("SELECT pgfacts.context_pack('x', neighbours => %s)", neighbours) == "22023"
    )

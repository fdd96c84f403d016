"""A LangGraph store (``langgraph.store.base.BaseStore``) whose items are pgfacts facts.

    from pgfacts import Context
    from pgfacts.integrations.langgraph import PgfactsStore

    with PgfactsStore.from_dsn(context=Context(tenant="acme", agent_id="assistant")) as store:
        store.put(("users", "u1", "memories"), "m1", {"text": "likes green tea"})
        store.search(("users", "u1"), query="tea")

An item ``(namespace, key)`` is the fact ``<root><label>/<label>/.../<key>`` in one scope
(``shared`` by default, or the caller's ``session``), each label and the key escaped so that
no label can contain the separator or a pattern character (``encode_label``). The adapter
maps; the database decides: who sees and may change which fact (the caller context and the
scope), and every limit (key length, value size, batch size, search limit) are pgfacts'
own, and its refusals arrive as ``pgfacts.PgfactsError``. docs/python.md ("LangGraph
store") lists the differences from LangGraph's ``InMemoryStore``.
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Literal

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)

from ..client import Context, FactStore
from ..migrator import DEFAULT_SCHEMA
from ..rows import Fact

__all__ = ["PgfactsStore", "TooManyItems", "decode_label", "encode_label"]

Scope = Literal["shared", "session"]

# read_facts_page's largest page (SQL refuses more): a search without a query and
# list_namespaces read every visible item under the prefix, page after page of this size,
# each page in SQL's key order after the last row of the one before.
WINDOW = 1000
# search's largest limit: a search with a query and a filter asks for this many hits, so
# that the filter has the most to choose from (below).
SEARCH_WINDOW = 100

# Escaped in a label and in a key: the escape itself, the segment separator, the
# characters read_facts' key patterns give a meaning (`*`, `%`, `\`), and what pgfacts
# refuses in a key (control characters) or might read as one (other C* and line breaks).
_SPECIAL = frozenset("~/*%\\")
_HEX = frozenset("0123456789ABCDEF")


def _escaped(ch: str) -> bool:
    category = unicodedata.category(ch)
    return ch in _SPECIAL or category[0] == "C" or category in ("Zl", "Zp")


def encode_label(label: str) -> str:
    """A namespace label or key as one key segment: each special character as ``~XX`` per
    UTF-8 byte (``a/b`` is ``a~2Fb``, ``~`` is ``~7E``), every other character as is. The
    result holds no ``/`` and no pattern character, and two labels never share one."""
    return "".join(
        "".join(f"~{b:02X}" for b in ch.encode("utf-8", "surrogatepass")) if _escaped(ch) else ch
        for ch in label
    )


def decode_label(segment: str) -> str | None:
    """The label a segment encodes, or None when ``encode_label`` makes no such segment
    (a fact under the root that this store did not write)."""
    out = bytearray()
    i = 0
    while i < len(segment):
        ch = segment[i]
        if ch == "~":
            digits = segment[i + 1 : i + 3]
            if len(digits) != 2 or not set(digits) <= _HEX:
                return None
            out.append(int(digits, 16))
            i += 3
        else:
            out += ch.encode("utf-8", "surrogatepass")
            i += 1
    try:
        label = out.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None
    # Canonical only: `~61` for `a` would give a second spelling of one item.
    return label if encode_label(label) == segment else None


def _pattern_literal(text: str) -> str:
    """``text`` as a read_facts key pattern matching only itself."""
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("%", "\\%")


class TooManyItems(RuntimeError):
    """A search with a query and a filter whose page the filter could not fill from
    pgfacts search's best ``SEARCH_WINDOW`` hits while more hits may exist: its answer
    could not be complete. (A search without a query and a listing read every item.)"""


class PgfactsStore(BaseStore):
    """LangGraph's ``BaseStore`` over a ``FactStore`` (its context names the tenant, the
    session and the agent kind the database checks every call against).

    ``scope="shared"`` (default) keeps items as shared facts, seen by the whole tenant;
    ``scope="session"`` as session facts of the context's session, read back in scope
    ``session`` (that session's own), so a namespace and key always name one fact.
    ``root`` is the key prefix every item lives under.
    """

    supports_ttl = False  # pgfacts facts do not expire (docs/python.md, "LangGraph store")

    def __init__(
        self, facts: FactStore, *, scope: Scope = "shared", root: str = "langgraph/"
    ) -> None:
        if facts.context is None:
            raise ValueError("PgfactsStore needs a FactStore with a Context (tenant, ...)")
        if scope not in ("shared", "session"):
            raise ValueError(f"scope must be 'shared' or 'session', not {scope!r}")
        if not root.endswith("/"):
            raise ValueError(f"root must end with '/', as a key path does: {root!r}")
        self.facts = facts
        self.scope: Scope = scope
        self.root = root
        self._owns_facts = False
        self._schema_checked = False

    @classmethod
    def from_dsn(
        cls,
        dsn: str | None = None,
        *,
        context: Context,
        schema: str = DEFAULT_SCHEMA,
        scope: Scope = "shared",
        root: str = "langgraph/",
    ) -> PgfactsStore:
        """A store with a pool of its own (``PGFACTS_DSN`` or the local runtime when
        ``dsn`` is None), closed by ``close()``."""
        store = cls(FactStore(dsn, context=context, schema=schema), scope=scope, root=root)
        store._owns_facts = True
        return store

    def close(self) -> None:
        if self._owns_facts:
            self.facts.close()

    def __enter__(self) -> PgfactsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- keys ------------------------------------------------------------------------------

    def fact_key(self, namespace: tuple[str, ...], key: str) -> str:
        """The fact key of an item."""
        return self._prefix(namespace) + encode_label(key)

    def _prefix(self, namespace: tuple[str, ...]) -> str:
        return self.root + "".join(encode_label(label) + "/" for label in namespace)

    def _item(self, fact: Fact) -> tuple[tuple[str, ...], str] | None:
        """The namespace and key a fact is, or None for a fact that is not an item."""
        if not fact.key.startswith(self.root) or not isinstance(fact.value, dict):
            return None
        *labels, key = (decode_label(s) for s in fact.key[len(self.root) :].split("/"))
        namespace = tuple(label for label in labels if label)  # labels are never empty
        if key is None or len(namespace) != len(labels):
            return None
        return namespace, key

    # -- the operations --------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """The ops in one transaction. As in InMemoryStore, reads see the state before the
        batch's writes, and of several writes of one item the last one counts."""
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)  # labels with '.' or NUL, empty labels
            if isinstance(op, PutOp) and op.ttl is not None:
                raise NotImplementedError(
                    "PgfactsStore has no TTL: pgfacts facts do not expire (yet); put without ttl"
                )
            if isinstance(op, SearchOp | ListNamespacesOp) and min(op.limit, op.offset) < 0:
                raise ValueError("limit and offset must not be negative")
        with self._transaction() as facts:
            results: list[Result] = []
            puts: dict[str, dict[str, Any] | None] = {}  # fact key: value, None to delete
            for op in ops:
                if isinstance(op, GetOp):
                    results.append(self._get(facts, op))
                elif isinstance(op, SearchOp):
                    results.append(self._search(facts, op))
                elif isinstance(op, ListNamespacesOp):
                    results.append(self._list_namespaces(facts, op))
                elif isinstance(op, PutOp):
                    # Of several writes of one item the last counts.
                    value = dict(op.value) if op.value is not None else None
                    puts[self.fact_key(op.namespace, op.key)] = value
                    results.append(None)
                else:
                    raise ValueError(f"unknown operation {op!r}")
            self._write(facts, puts)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """``batch`` on a worker thread: one implementation of the mapping for both, on the
        FactStore's thread-safe pool; the event loop waits for none of the round trips."""
        return await asyncio.to_thread(self.batch, list(ops))

    @contextmanager
    def _transaction(self) -> Iterator[FactStore]:
        """A FactStore on one connection inside one transaction (a savepoint when the
        FactStore was given the caller's own connection), so a batch is all or nothing.
        (The FactStore's connection and schema check are its private parts, used here, in
        the same package, because the client runs each call in a transaction of its own.)"""
        with self.facts._conn() as conn, conn.transaction():
            facts = FactStore(connection=conn, context=self.facts.context, schema=self.facts.schema)
            facts._schema_checked = self._schema_checked  # checked once per store, not per batch
            yield facts
            self._schema_checked = facts._schema_checked

    def _write(self, facts: FactStore, puts: dict[str, dict[str, Any] | None]) -> None:
        shared = self.scope == "shared"
        stored = [
            {"key": key, "value": value, "shared": shared}
            for key, value in puts.items()
            if value is not None
        ]
        if stored:
            facts.store_facts(stored)  # one call: the database checks the batch as a whole
        for key, value in puts.items():
            if value is None:
                facts.delete_fact(key, shared=shared)

    def _get(self, facts: FactStore, op: GetOp) -> Item | None:
        key = self.fact_key(op.namespace, op.key)
        for fact in facts.read_facts(key_pattern=_pattern_literal(key), scope=self.scope, limit=1):
            if fact.key == key and self._item(fact) is not None:
                return _as_item(fact, op.namespace, op.key)
        return None

    def _every(self, facts: FactStore, namespace: tuple[str, ...]) -> Iterator[Fact]:
        """Every visible fact under the namespace's prefix, page by page (read_facts_page:
        the order and the cursor are SQL's), so nothing is left out however many there are.
        The pages are read in the batch's transaction."""
        pattern = _pattern_literal(self._prefix(namespace)) + "*"
        after = None
        while True:
            page = facts.read_facts_page(
                key_pattern=pattern, after=after, limit=WINDOW, scope=self.scope
            )
            yield from page
            if len(page) < WINDOW:
                return
            after = page[-1].scope_key

    def _search(self, facts: FactStore, op: SearchOp) -> list[SearchItem]:
        if op.query:
            return self._query(facts, op)
        found = []
        for fact in self._every(facts, op.namespace_prefix):
            item = self._item(fact)
            # The key pattern already kept the items under the prefix, label by label.
            if item is not None and matches(fact.value, op.filter):
                found.append((item, fact))
        # A deterministic order, stable under updates, so offset pages do not shift.
        found.sort(key=lambda entry: entry[0])
        page = found[op.offset : op.offset + op.limit]
        return [_as_search_item(fact, ns, key, None) for (ns, key), fact in page]

    def _query(self, facts: FactStore, op: SearchOp) -> list[SearchItem]:
        """Ranked by pgfacts' search (full text over the key, string values and tags; no
        vectors): the ``offset + limit`` best hits, then the filter, then the page. With a
        filter, the best ``SEARCH_WINDOW`` hits are filtered (search's limit decides how
        many it gives); when they do not fill the page and search gave that many, more
        could pass the filter, and the search is refused (``TooManyItems``), not cut."""
        wanted = op.offset + op.limit
        if wanted == 0:
            return []
        # More than search's limit is search's refusal (SQL's), with or without a filter.
        asked = SEARCH_WINDOW if op.filter and wanted <= SEARCH_WINDOW else wanted
        hits = facts.search(
            op.query or "",
            item_kinds=["fact"],
            key_prefix=self._prefix(op.namespace_prefix),
            scope=self.scope,
            limit=asked,
        )
        refs = [h.ref for h in hits if h.item_kind == "fact"]
        rows = {f.scope_key: f for f in facts.read_facts_by_scope_keys(refs)} if refs else {}
        found = []
        for hit in hits:
            fact = rows.get(hit.ref)
            item = self._item(fact) if fact is not None else None
            if fact is not None and item is not None and matches(fact.value, op.filter):
                found.append(_as_search_item(fact, item[0], item[1], hit.score))
        if op.filter and len(found) < wanted and len(hits) >= asked:
            raise TooManyItems(
                f"the filter kept {len(found)} of pgfacts search's best {len(hits)} hits for "
                f"{op.query!r} under {op.namespace_prefix!r}, fewer than offset + limit "
                f"({wanted}), and more hits may pass it: narrow the query or the namespace, "
                "or search without a query (which filters every item)"
            )
        return found[op.offset : op.offset + op.limit]

    def _list_namespaces(self, facts: FactStore, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        # The SQL pattern narrows to the literal labels a prefix condition starts with.
        literal: tuple[str, ...] = ()
        for condition in conditions:
            if condition.match_type == "prefix":
                head = []
                for label in condition.path:
                    if label == "*":
                        break
                    head.append(label)
                if len(head) > len(literal):
                    literal = tuple(head)
        namespaces = set()
        for fact in self._every(facts, literal):
            item = self._item(fact)
            if item is not None and all(_namespace_matches(c, item[0]) for c in conditions):
                namespaces.add(item[0] if op.max_depth is None else item[0][: op.max_depth])
        return sorted(namespaces)[op.offset : op.offset + op.limit]


def _as_item(fact: Fact, namespace: tuple[str, ...], key: str) -> Item:
    return Item(
        value=fact.value,
        key=key,
        namespace=namespace,
        created_at=fact.created_at,
        updated_at=fact.updated_at,
    )


def _as_search_item(
    fact: Fact, namespace: tuple[str, ...], key: str, score: float | None
) -> SearchItem:
    return SearchItem(
        namespace=namespace,
        key=key,
        value=fact.value,
        created_at=fact.created_at,
        updated_at=fact.updated_at,
        score=score,
    )


def _namespace_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """A prefix or suffix condition, label by label; a ``*`` label matches any one label."""
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        part = namespace[: len(path)]
    elif condition.match_type == "suffix":
        part = namespace[len(namespace) - len(path) :]
    else:
        raise ValueError(f"unknown match type {condition.match_type!r}")
    return all(p == "*" or p == label for p, label in zip(path, part, strict=True))


def matches(value: Any, filter: Mapping[str, Any] | None) -> bool:
    """Whether an item's value passes a search filter, as BaseStore defines it: each key's
    value equal (a dict compared key by key, a list element by element), or compared by
    ``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte``. A comparison with a missing or
    non-numeric value does not match (InMemoryStore raises)."""
    if not filter:
        return True
    return all(_value_matches(value.get(k), v) for k, v in filter.items())


def _value_matches(value: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict):
        if any(k.startswith("$") for k in wanted):
            return all(_operator(value, op, operand) for op, operand in wanted.items())
        return isinstance(value, dict) and all(
            _value_matches(value.get(k), v) for k, v in wanted.items()
        )
    if isinstance(wanted, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(wanted)
            and all(_value_matches(a, b) for a, b in zip(value, wanted, strict=True))
        )
    return bool(value == wanted)


def _operator(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(value == operand)
    if op == "$ne":
        return bool(value != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(f"unsupported filter operator {op!r}")
    try:
        a, b = float(value), float(operand)
    except (TypeError, ValueError):
        return False
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]

"""The bi-temporal reference model of knowledge slots: a pure-Python statement of the ingest
rules (docs/sql-api.md) that the property tests compare the SQL with, so a rule fix lands
here once.

The benchmark (bench/knowledge.py) predicts each claim's outcome and every answer it reads
back with the same model.

A slot's live rows are segments over ordered instants (integer days in the tests,
datetimes in the benchmark), each backed by the source lines that assert it (episode,
source, trust, range): a value beginning inside a live one cuts it (a closed value resumes
it after), a value learned late ends where the next known one starts, rows of the same
value the claim's extent overlaps are corroborated, a higher trust outranks a lower one, a
retracted value is blocked, a new version of a source retires what only its old text said
(``source_changed``), and a many claim may replace a live row. Each ingest returns the
outcome ingest reports for the claim.

It imports nothing but the standard library, so anything may import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Literal, Protocol, Self, TypeVar


class Instant(Protocol):
    """What the model needs of an instant: a total order (ints, datetimes)."""

    def __lt__(self, other: Self, /) -> bool: ...

    def __le__(self, other: Self, /) -> bool: ...


T = TypeVar("T", bound=Instant)

# What ingest reports for a claim the model applies (docs/sql-api.md, ingest); the model
# has no confidence floor and sees no duplicate episodes.
Outcome = Literal["inserted", "superseded", "corroborated", "outranked", "rejected"]
Cardinality = Literal["one", "many", "event"]
# A source's trust as a number (sql/20_knowledge/20_claim_rows.sql, trust_rank).
TRUST = {"operator": 4, "owner": 3, "agent": 2, "third_party": 1}


@dataclass(frozen=True)
class Line(Generic[T]):
    """A source line: which episode (of which source) asserted the value over which range."""

    episode: int
    ref: str
    trust: int
    start: T
    end: T | None


@dataclass
class Segment(Generic[T]):
    start: T
    end: T | None  # for a point (an event): None
    value: str
    lines: list[Line[T]] = field(default_factory=list)
    point: bool = False

    @property
    def trust(self) -> int:
        return max(line.trust for line in self.lines)

    def copy(self) -> Segment[T]:
        return Segment(self.start, self.end, self.value, list(self.lines), self.point)

    def holds(self, t: T) -> bool:
        if self.point:
            return t == self.start
        return self.start <= t and (self.end is None or t < self.end)

    def overlaps(self, other: Segment[T]) -> bool:
        return (other.end is None or self.start < other.end) and (
            self.end is None or other.start < self.end
        )


Range = tuple[T, T | None]
Replaced = tuple[str, T, T | None]  # the value and range of the row a claim replaces


def minus(extent: Range[T], covered: list[Range[T]]) -> list[Range[T]]:
    """The pieces of a range that none of the covered ranges holds, in order."""
    pieces = [extent]
    for c_start, c_end in covered:
        rest: list[Range[T]] = []
        for start, end in pieces:
            if (c_end is not None and c_end <= start) or (end is not None and end <= c_start):
                rest.append((start, end))
                continue
            if start < c_start:
                rest.append((start, c_start))
            if c_end is not None and (end is None or c_end < end):
                rest.append((c_end, end))
        pieces = rest
    return sorted(pieces)


def meet(a: Range[T], b: Range[T]) -> Range[T] | None:
    start = max(a[0], b[0])
    ends = [e for e in (a[1], b[1]) if e is not None]
    end = min(ends) if ends else None
    return None if end is not None and end <= start else (start, end)


@dataclass
class Model(Generic[T]):
    one: list[Segment[T]] = field(default_factory=list)
    many: list[Segment[T]] = field(default_factory=list)
    events: list[Segment[T]] = field(default_factory=list)
    # Retracted values of the one slot, each with the segments its retraction retired.
    blocked: dict[str, list[Segment[T]]] = field(default_factory=dict)

    def copy(self) -> Model[T]:
        """The model as it stands (what was believed at this instant, later)."""

        def copied(segments: list[Segment[T]]) -> list[Segment[T]]:
            return [s.copy() for s in segments]

        return Model(
            copied(self.one),
            copied(self.many),
            copied(self.events),
            {value: copied(gone) for value, gone in self.blocked.items()},
        )

    @staticmethod
    def corroborate(
        rows: list[Segment[T]], extent: Range[T], value: str, line: Line[T]
    ) -> list[Range[T]]:
        """Corroboration: a line on each row of the value the extent overlaps; returns the
        pieces of the extent none covers (the claim's new rows)."""
        probe = Segment(extent[0], extent[1], value)
        same = [s for s in rows if s.value == value and s.overlaps(probe)]
        for s in same:
            # An episode that says the value twice backs the row with both ranges.
            if line not in s.lines:
                s.lines.append(line)
        return minus(extent, [(s.start, s.end) for s in same])

    def ingest_one(self, start: T, end: T | None, value: str, line: Line[T]) -> Outcome:
        if value in self.blocked:
            return "rejected"  # retracted
        others = [s for s in self.one if s.value != value]
        holder = next((s for s in others if s.holds(start)), None)
        later = [s.start for s in others if s.start > start]
        new_end = end
        if later and (new_end is None or min(later) < new_end):
            new_end = min(later)
        if holder and holder.trust > line.trust:
            return "outranked"  # stored retired, never believed
        if holder:
            self.one.remove(holder)
            if holder.start < start:
                self.one.append(Segment(holder.start, start, holder.value, list(holder.lines)))
            if end is not None and (holder.end is None or end < holder.end):
                self.one.append(Segment(end, holder.end, holder.value, list(holder.lines)))
                new_end = end
        pieces = self.corroborate(self.one, (start, new_end), value, line)
        for piece in pieces:
            self.one.append(Segment(*piece, value, [line]))
        return "superseded" if holder is not None else "inserted" if pieces else "corroborated"

    def replay_target(self, replaces: Replaced[T]) -> Segment[T] | None:
        """The row a replayed claim replaces, named as purge_source names it before it
        replays the claim's episode: the row of the value and range the claim replaced;
        failing that, the newest row of the value; failing that (None), the claim only adds
        its value."""
        return next(
            (s for s in self.many if (s.value, s.start, s.end) == replaces),
            next((s for s in reversed(self.many) if s.value == replaces[0]), None),
        )

    def ingest_many(
        self,
        start: T,
        end: T | None,
        value: str,
        line: Line[T],
        replaces: Replaced[T] | None,
        replay: bool = False,
        replay_target: Segment[T] | None = None,
    ) -> Outcome:
        if replay:
            # The row was named before the episode was replayed (replay_target): one an
            # earlier claim of the episode replaced since is retired, the name unknown.
            target = replay_target
            if target is not None and not any(s is target for s in self.many):
                return "rejected"  # replaces_unknown
        elif replaces is not None:
            # The claim names a row live before its episode (by its id): never a row an
            # earlier claim of the same episode wrote, even of the same value and range (the
            # named row is retired by then, and the claim's replaces is unknown).
            target = next(
                (
                    s
                    for s in self.many
                    if (s.value, s.start, s.end) == replaces
                    and not all(known.episode == line.episode for known in s.lines)
                ),
                None,
            )
            if target is None:
                return "rejected"  # replaces_unknown
        else:
            target = None
        if target is not None:
            self.many.remove(target)
            if target.start < start:
                self.many.append(Segment(target.start, start, target.value, list(target.lines)))
        pieces = self.corroborate(self.many, (start, end), value, line)
        for piece in pieces:
            self.many.append(Segment(*piece, value, [line]))
        return "superseded" if target is not None else "inserted" if pieces else "corroborated"

    def ingest_event(self, at: T, value: str, line: Line[T]) -> Outcome:
        same = next((s for s in self.events if s.value == value and s.start == at), None)
        if same is None:
            self.events.append(Segment(at, None, value, [line], point=True))
            return "inserted"
        if all(known.episode != line.episode for known in same.lines):
            same.lines.append(line)
        return "corroborated"

    def source_changed(self, ref: str, episode: int) -> int:
        """A new version (episode) of source ref: every live row older versions support in
        part of its range nothing else supports is retired, the rest written again."""
        retired = 0
        for rows in (self.one, self.many, self.events):
            for s in list(rows):
                if not any(x.ref == ref and x.episode != episode for x in s.lines):
                    continue
                rest = [x for x in s.lines if x.ref != ref or x.episode == episode]
                if s.point:
                    if not rest:
                        rows.remove(s)
                        retired += 1
                    continue
                kept = [m for x in rest if (m := meet((x.start, x.end), (s.start, s.end)))]
                pieces = minus((s.start, s.end), kept)
                if not pieces:
                    continue
                rows.remove(s)
                retired += 1
                for piece in minus((s.start, s.end), pieces):
                    probe = Segment(*piece, s.value)
                    backing = [x for x in rest if Segment(x.start, x.end, "").overlaps(probe)]
                    rows.append(Segment(*piece, s.value, backing))
        return retired

    def rows(self, cardinality: Cardinality) -> list[Segment[T]]:
        """The live rows of the slot of that cardinality."""
        return {"one": self.one, "many": self.many, "event": self.events}[cardinality]

    def live(self, cardinality: Cardinality) -> list[tuple[str, T, T | None]]:
        """The slot's believed rows (value, start, end), as history shows the live ones."""
        return sorted((s.value, s.start, s.end) for s in self.rows(cardinality))

    def values_at(self, cardinality: Cardinality, t: T) -> list[str]:
        """What as_of answers at valid instant t, sorted."""
        return sorted(s.value for s in self.rows(cardinality) if s.holds(t))

    def one_at(self, t: T) -> list[str]:
        return self.values_at("one", t)

    def many_at(self, t: T) -> list[str]:
        return self.values_at("many", t)

    def events_at(self, t: T) -> list[str]:
        return self.values_at("event", t)

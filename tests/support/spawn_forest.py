"""The spawn forest as the working-memory models see it: each session's parent (None for a
root), and the tree a session belongs to, which is what a session's reads reach."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SpawnForest:
    parent: dict[str, str | None] = field(default_factory=dict)

    def root(self, session: str) -> str:
        while self.parent.get(session):
            session = self.parent[session]  # type: ignore[assignment]
        return session

    def tree(self, session: str) -> set[str]:
        """Every session of ``session``'s tree (itself alone when it is not registered)."""
        if session not in self.parent:
            return {session}
        root = self.root(session)
        return {s for s in self.parent if self.root(s) == root}

"""Many embeddings written at once for the plan tests, as a superuser.

The layer's HNSW index of a dimension is dropped and built again from its own definition
around the insert: inserting 24,000 random 16-dimension vectors one by one into the graph
took four times as long as building it from the rows (90 s against 23 s on a busy 2-core
machine), and was most of the plan tests' time. The index that results is the layer's, by
the same definition; what the tests check is the planner's use of it."""

from __future__ import annotations

import psycopg


def insert_with_index_rebuilt(admin: psycopg.Connection, dimension: int, insert: str) -> None:
    """Run ``insert`` (rows of ``pgfacts_internal.embeddings`` of ``dimension``) with that
    dimension's HNSW index built after it instead of row by row."""
    name = f"embeddings_hnsw_{dimension}"
    row = admin.execute(
        "SELECT pg_get_indexdef(%s::regclass)", (f"pgfacts_internal.{name}",)
    ).fetchone()
    assert row is not None, name
    with admin.transaction():
        admin.execute(f"DROP INDEX pgfacts_internal.{name}")
        admin.execute(insert)
        admin.execute(row[0])

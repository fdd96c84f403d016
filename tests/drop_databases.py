"""Drop test databases after the test run has ended: ``python -m tests.drop_databases NAME...``
with the superuser DSN in PGFACTS_DROP_DSN (not on the command line, where ps shows it).

The test harness starts it detached for the last clones and the template of a test
process: each DROP DATABASE waits for a server checkpoint, which on a busy machine takes
tens of seconds, and nothing of the run needs to wait for it. Eight drops run at once, so
they share checkpoints. A drop that fails leaves a database whose name carries the dead
test process's id; the next test run drops it (tests/conftest.py).
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import psycopg


def drop(dsn: str, name: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def main(names: list[str]) -> None:
    dsn = os.environ["PGFACTS_DROP_DSN"]
    with ThreadPoolExecutor(8) as drops:  # conftest.DROPS_AT_ONCE: connections are shared
        for dropped in [drops.submit(drop, dsn, name) for name in names]:
            dropped.result()


if __name__ == "__main__":
    main(sys.argv[1:])

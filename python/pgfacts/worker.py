"""Background worker: periodic maintenance where pg_cron is not installed."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from .client import FactStore


def run_forever(
    dsn: str | None,
    schema: str,
    *,
    interval: float = 21600,
    once: bool = False,
    report: Callable[[str], None] = print,
) -> None:
    """Call ``run_maintenance()`` now and then every ``interval`` seconds."""
    with FactStore(dsn, schema=schema) as store:
        while True:
            result = store.run_maintenance()
            report(f"maintenance: {json.dumps(result)}")
            if once:
                return
            time.sleep(interval)

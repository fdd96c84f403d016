"""Background worker: periodic maintenance where pg_cron is not installed."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from .client import FactStore
from .errors import PgfactsError


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
            try:
                result = store.run_maintenance()
            except PgfactsError as exc:
                if once:
                    raise
                # A failed run is reported and retried at the next interval, never fatal.
                report(f"maintenance failed: {json.dumps(exc.as_dict())}")
            else:
                report(f"maintenance: {json.dumps(result)}")
            if once:
                return
            time.sleep(interval)

"""Where the package finds its SQL and its provisioning script.

A wheel carries them under ``pgfacts/_data``; an editable install (or a checkout on
``PYTHONPATH``) reads them from the repository's top-level folders, so there is exactly
one copy of each file.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_CHECKOUT_DIR = _PACKAGE_DIR.parent.parent


def _locate(packaged: str, checkout: str) -> Path:
    inside = _PACKAGE_DIR / "_data" / packaged
    if inside.exists():
        return inside
    return _CHECKOUT_DIR / checkout


def migrations_dir() -> Path:
    """Versioned, append-only migration files (``NNNN_slug.sql``)."""
    return _locate("migrations", "migrations")


def definitions_dir() -> Path:
    """Idempotent definitions (functions, views, policies, grants), re-applied when changed."""
    return _locate("sql", "sql")


def provision_script() -> Path:
    """The one script that installs and configures PostgreSQL 17 and its extensions."""
    return _locate("provision.sh", "docker/provision.sh")

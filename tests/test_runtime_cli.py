"""The local runtime and the command line, driven as a user would drive them.

These use their own port, so the server the other tests use is never touched; the cached
Debian root is shared, so only the first run on a machine pays for building it.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import psycopg
import pytest
from packaging.requirements import Requirement

import pgfacts
from pgfacts.runtime import LocalRuntime, default_port

# Its own port next to the suite's (PGFACTS_PORT + 1000), so runs from several checkouts of
# different provisioning scripts never move one shared test instance between their roots.
PORT = int(os.environ.get("PGFACTS_RUNTIME_TEST_PORT", default_port() + 1000))
PGFACTS = [sys.executable, "-m", "pgfacts"]
# They share that port (and the runtime fixture): one worker runs them all, in order
# (make test distributes with --dist loadgroup).
pytestmark = pytest.mark.xdist_group("runtime_port")


def cli(
    *args: str, env: dict[str, str] | None = None, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PGFACTS, *args],
        capture_output=True,
        text=True,
        env=env or os.environ.copy(),
        timeout=300,
        **kwargs,  # type: ignore[call-overload]
    )


@pytest.fixture(scope="module")
def runtime() -> Iterator[LocalRuntime]:
    # Every checkout on this machine uses the same port and instance directory: runs side
    # by side take turns through a lock file, or one's `db down` stops the other's server.
    with open(Path(tempfile.gettempdir()) / f"pgfacts-runtime-test-{PORT}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        rt = LocalRuntime(PORT)
        try:
            yield rt
        finally:
            rt.down()


def test_up_is_idempotent_and_prints_a_working_dsn(runtime: LocalRuntime) -> None:
    first = cli("db", "up", "--port", str(PORT))
    assert first.returncode == 0, first.stderr
    second = cli("db", "up", "--port", str(PORT))
    assert second.returncode == 0, second.stderr
    dsn = first.stdout.strip()
    assert dsn == second.stdout.strip()
    assert dsn.startswith("postgresql://postgres:") and f"@127.0.0.1:{PORT}/" in dsn
    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT current_setting('server_version_num')::int / 10000, "
            "current_setting('listen_addresses')"
        ).fetchone()
    assert row == (17, "127.0.0.1")
    status = cli("db", "status", "--port", str(PORT), "--json")
    assert status.returncode == 0
    assert json.loads(status.stdout)["running"] is True


def test_down_twice_is_fine_and_status_says_stopped(runtime: LocalRuntime) -> None:
    assert cli("db", "up", "--port", str(PORT)).returncode == 0
    assert cli("db", "down", "--port", str(PORT)).returncode == 0
    again = cli("db", "down", "--port", str(PORT))
    assert again.returncode == 0, again.stderr
    status = cli("db", "status", "--port", str(PORT), "--json")
    assert status.returncode == 3
    assert json.loads(status.stdout)["running"] is False


@pytest.mark.parametrize("stale_pid", ["dead", "not-postgres"])
def test_a_stale_pid_file_is_recovered(runtime: LocalRuntime, stale_pid: str) -> None:
    assert cli("db", "up", "--port", str(PORT)).returncode == 0
    assert cli("db", "down", "--port", str(PORT)).returncode == 0
    pid = 2**22 + 7 if stale_pid == "dead" else os.getpid()  # our pid is alive, not postgres
    pidfile = runtime.instance_dir / "data" / "postmaster.pid"
    pidfile.write_text(f"{pid}\n/var/lib/pgfacts/{PORT}/data\n")
    up = cli("db", "up", "--port", str(PORT))
    assert up.returncode == 0, up.stderr
    assert "stale postmaster.pid" in up.stderr
    with psycopg.connect(up.stdout.strip()) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_psql_runs_the_version_17_client(runtime: LocalRuntime) -> None:
    assert cli("db", "up", "--port", str(PORT)).returncode == 0
    result = cli("db", "psql", "--port", str(PORT), "-At", "-c", "SELECT 6 * 7")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "42"


def _installed_requirements(name: str, seen: set[str]) -> set[str]:
    """``name`` and every distribution it needs at run time (extras left out)."""
    key = name.lower().replace("-", "_")
    if key in seen:
        return seen
    seen.add(key)
    for requirement in metadata.distribution(name).requires or []:
        parsed = Requirement(requirement)
        if parsed.marker is None or parsed.marker.evaluate({"extra": ""}):
            _installed_requirements(parsed.name, seen)
    return seen


def world_readable_cli(dest: Path) -> tuple[str, dict[str, str]]:
    """Copy the pgfacts package and the distributions it needs to ``dest``, readable by any
    user; return the system interpreter and an environment that imports from the copy.

    The checkout (and its .venv) may live where other users cannot enter: a clone in root's
    home, or in ``mktemp -d``."""
    site = dest / "site"
    site.mkdir()
    package = Path(pgfacts.__file__).resolve().parent
    shutil.copytree(package, site / "pgfacts", ignore=shutil.ignore_patterns("__pycache__"))
    for name in sorted(_installed_requirements("pgfacts", set())):
        dist = metadata.distribution(name)
        tops = {Path(str(f)).parts[0] for f in dist.files or []}
        for top in sorted(tops):
            source = Path(str(dist.locate_file(top)))
            target = site / top
            if top in ("..", "pgfacts") or target.exists() or not source.exists():
                continue  # an editable install's package is copied above
            if source.is_dir():
                shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
            elif source.suffix in (".py", ".so", ".pth") or source.name.endswith(".so"):
                shutil.copy2(source, target)
    for root, _, files in os.walk(dest):
        os.chmod(root, 0o755)
        for file in files:
            os.chmod(os.path.join(root, file), 0o644)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(site)}
    return os.path.realpath(sys.executable), env


def test_without_root_it_says_so_and_names_the_alternatives() -> None:
    # Everything the non-root process touches lives in a world-readable temporary
    # directory, wherever the checkout is; it runs as uid 65534 for real, so the check
    # under test is the runtime's own geteuid() test.
    work = Path(tempfile.mkdtemp(prefix="pgfacts-nonroot-"))
    try:
        python, env = world_readable_cli(work)
        home = work / "home"
        home.mkdir(mode=0o777)
        home.chmod(0o777)
        env |= {"HOME": str(home), "PGFACTS_HOME": str(home / "pgfacts")}
        env.pop("PGFACTS_DSN", None)
        result = subprocess.run(
            [
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                python,
                "-m",
                "pgfacts",
                "db",
                "up",
                "--port",
                str(PORT + 1),
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=work,
            timeout=60,
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    assert result.returncode == 1, result.stderr
    assert "needs root" in result.stderr
    assert "PGFACTS_DSN" in result.stderr and "Docker" in result.stderr


def test_doctor_json_reports_postgres_17_and_the_extensions(db) -> None:  # type: ignore[no-untyped-def]
    from .conftest import with_db

    result = cli("doctor", "--json", "--dsn", with_db(db.admin_dsn, db.name))
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] is True
    assert report["postgresql"].startswith("17.")
    for name in ("btree_gist", "vector", "age"):
        assert report["extensions"][name]["installed"], name
    assert report["age_preloaded"] is True
    assert report["pending"] == []
    assert report["applied_migrations"][0] == "0001_foundation.sql"


def test_doctor_names_the_fix_when_the_schema_is_missing(empty_db: str) -> None:
    result = cli("doctor", "--json", "--dsn", empty_db)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert any("pgfacts migrate" in p["fix"] for p in report["problems"])


def test_doctor_names_the_fix_when_the_server_is_unreachable() -> None:
    result = cli("doctor", "--json", "--dsn", "postgresql://nobody@127.0.0.1:1/none")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["problems"][0]["check"] == "connect"
    assert "pgfacts db up" in report["problems"][0]["fix"]


def test_migrate_cli_refuses_a_bad_schema_name(empty_db: str) -> None:
    result = cli("migrate", "--dsn", empty_db, "--schema", "1nope")
    assert result.returncode == 1
    assert "invalid schema name" in result.stderr


def test_worker_once_runs_maintenance(db) -> None:  # type: ignore[no-untyped-def]
    from .conftest import with_db

    result = cli("worker", "--once", "--dsn", with_db(db.admin_dsn, db.name))
    assert result.returncode == 0, result.stderr
    assert '"purged_tombstones": 0' in result.stderr

"""The local database runtime: PostgreSQL 17 in a cached Debian 13 root, no Docker needed.

``pgfacts db up`` builds a Debian 13 root with debootstrap on first use, runs
``docker/provision.sh`` inside it (the same script the Docker image runs), and starts the
server on 127.0.0.1. The root is cached under ``$PGFACTS_HOME/roots/<sha of the script>``
(default ``~/.cache/pgfacts``), so it is rebuilt only when the provisioning script changes.
Each port has its own cluster under ``$PGFACTS_HOME/instances/<port>``, bind-mounted into
the root, so a rebuilt root keeps the data.

``PGFACTS_DSN`` overrides all of this everywhere: point it at any PostgreSQL 17 with
btree_gist, pgvector and AGE (for example the Docker image) and the runtime is not used.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import platform
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg.conninfo import conninfo_to_dict

from . import resources
from .errors import InvalidParameter, RuntimeUnavailable

DEFAULT_PORT = 54317
PG_BIN = "/usr/lib/postgresql/17/bin"
DEBIAN_SUITE = "trixie"
ALTERNATIVES = (
    "alternatives: run the Docker image (docker compose -f docker/compose.yaml up -d, then "
    "PGFACTS_DSN=postgresql://postgres:pgfacts@127.0.0.1:54317/postgres), or set PGFACTS_DSN "
    "to any PostgreSQL 17 with btree_gist, pgvector and Apache AGE"
)

Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def home() -> Path:
    configured = os.environ.get("PGFACTS_HOME")
    return Path(configured) if configured else Path.home() / ".cache" / "pgfacts"


def default_port() -> int:
    return int(os.environ.get("PGFACTS_PORT", DEFAULT_PORT))


POSTGRES_SCHEMES = ("postgresql", "postgres")


def check_dsn(dsn: str, source: str = "the DSN") -> str:
    """Refuse at once what cannot be a PostgreSQL DSN (``mysql://...``, ``redis://...``, a
    file path), instead of letting a connection pool retry it until its timeout."""
    scheme, sep, _ = dsn.partition("://")
    if sep:
        if scheme.lower() not in POSTGRES_SCHEMES:
            raise InvalidParameter(
                f"{source} is not a PostgreSQL DSN: scheme {scheme!r}",
                sqlstate="22023",
                detail="pgfacts stores memory in PostgreSQL 17 only",
                hint="use postgresql://user:password@host:port/dbname (or postgres://), "
                "or key=value pairs such as 'host=... dbname=...'",
            )
        return dsn
    try:
        conninfo_to_dict(dsn)
    except psycopg.ProgrammingError as exc:
        raise InvalidParameter(
            f"{source} is not a PostgreSQL DSN: {dsn[:80]!r}",
            sqlstate="22023",
            detail=str(exc).strip(),
            hint="use postgresql://user:password@host:port/dbname, or key=value pairs such as "
            "'host=... dbname=...'; a file path is not a database",
        ) from exc
    return dsn


def resolve_dsn(dsn: str | None = None, port: int | None = None) -> str:
    """The DSN to use: the argument, else ``PGFACTS_DSN``, else the local runtime's.

    A DSN that is not PostgreSQL's is refused at once (``check_dsn``, 22023).
    """
    if dsn:
        return check_dsn(dsn)
    env = os.environ.get("PGFACTS_DSN")
    if env:
        return check_dsn(env, "PGFACTS_DSN")
    runtime = LocalRuntime(port=port)
    if runtime.password_file.exists():
        return runtime.dsn
    raise RuntimeUnavailable(
        "no database: PGFACTS_DSN is not set and the local runtime has never been started",
        hint="run `pgfacts db up` (or `make db-up`), or set PGFACTS_DSN",
    )


@dataclass(frozen=True)
class Status:
    running: bool
    port: int
    dsn: str | None
    root: str | None
    data_dir: str
    pid: int | None

    def as_dict(self) -> dict[str, object]:
        return {
            "running": self.running,
            "port": self.port,
            "dsn": self.dsn,
            "root": self.root,
            "data_dir": self.data_dir,
            "pid": self.pid,
        }


def _mounted(path: Path) -> bool:
    target = str(path)
    with open("/proc/self/mountinfo") as mountinfo:
        return any(line.split()[4] == target for line in mountinfo)


def _mounts_under(path: Path) -> list[Path]:
    prefix = str(path).rstrip("/") + "/"
    with open("/proc/self/mountinfo") as mountinfo:
        points = [line.split()[4] for line in mountinfo]
    return sorted((Path(p) for p in points if p.startswith(prefix)), reverse=True)


def _bind(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    if not _mounted(target):
        subprocess.run(["mount", "--bind", str(source), str(target)], check=True)


def _unmount_all(path: Path) -> None:
    for point in _mounts_under(path):
        result = subprocess.run(["umount", str(point)], capture_output=True)
        if result.returncode != 0:  # busy: detach now, the kernel finishes later
            subprocess.run(["umount", "-l", str(point)], check=False)


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class LocalRuntime:
    """One PostgreSQL 17 cluster on 127.0.0.1:``port`` inside the cached Debian 13 root."""

    def __init__(self, port: int | None = None, pgfacts_home: Path | None = None) -> None:
        self.port = port or default_port()
        self.home = pgfacts_home or home()
        self.instance_dir = self.home / "instances" / str(self.port)
        self.password_file = self.instance_dir / "password"
        self.mount_name = f"/var/lib/pgfacts/{self.port}"
        # More server options (``-c name=value`` each) for a private cluster, e.g. a test's
        # shared_preload_libraries=pg_cron; the shared runtime passes none.
        self.server_options: tuple[str, ...] = ()

    # -- facts -------------------------------------------------------------------------

    @property
    def dsn(self) -> str:
        password = self.password_file.read_text().strip()
        return f"postgresql://postgres:{password}@127.0.0.1:{self.port}/postgres"

    @staticmethod
    def root_digest() -> str:
        return hashlib.sha256(resources.provision_script().read_bytes()).hexdigest()[:16]

    @property
    def root(self) -> Path:
        return self.home / "roots" / self.root_digest()

    def _current_root(self) -> Path | None:
        """The root this instance was last started in (it may predate a script change)."""
        marker = self.instance_dir / "root"
        if marker.exists():
            return Path(marker.read_text().strip())
        return None

    # -- checks ------------------------------------------------------------------------

    @staticmethod
    def check_platform() -> None:
        if platform.system() != "Linux":
            raise RuntimeUnavailable(
                f"the local runtime needs Linux; this is {platform.system()}",
                hint=ALTERNATIVES,
            )
        if os.geteuid() != 0:
            raise RuntimeUnavailable(
                "the local runtime needs root (debootstrap, chroot and bind mounts)",
                hint="run as root (sudo), or use the " + ALTERNATIVES,
            )
        missing = [tool for tool in ("debootstrap", "chroot", "mount") if not shutil.which(tool)]
        if missing:
            raise RuntimeUnavailable(
                f"the local runtime needs {', '.join(missing)}, which is not installed",
                hint="apt-get install debootstrap (`make runtime-deps` does it); or use the "
                + ALTERNATIVES,
            )

    # -- the root ----------------------------------------------------------------------

    def ensure_root(self, progress: Progress = _quiet) -> Path:
        root = self.root
        if (root / ".pgfacts-ready").exists():
            return root
        with _file_lock(self.home / "roots" / ".lock"):
            if (root / ".pgfacts-ready").exists():
                return root
            building = root.with_name(root.name + ".building")
            _unmount_all(building)
            shutil.rmtree(building, ignore_errors=True)
            mirror = os.environ.get("PGFACTS_DEBIAN_MIRROR", "http://deb.debian.org/debian")
            progress(f"building a Debian 13 root in {root} (first use; about a minute)")
            self._run(
                ["debootstrap", "--variant=minbase", DEBIAN_SUITE, str(building), mirror],
                "debootstrap",
            )
            progress("installing PostgreSQL 17, pgvector and Apache AGE (docker/provision.sh)")
            shutil.copy(resources.provision_script(), building / "tmp" / "provision.sh")
            try:
                _bind(Path("/proc"), building / "proc")
                _bind(Path("/dev"), building / "dev")
                self._run(["chroot", str(building), "sh", "/tmp/provision.sh"], "provisioning")
            finally:
                _unmount_all(building)
            (building / ".pgfacts-ready").write_text(self.root_digest() + "\n")
            building.rename(root)
            self._remove_unused_roots(keep=root)
        return root

    def _remove_unused_roots(self, keep: Path) -> None:
        for other in (self.home / "roots").iterdir():
            if other == keep or not other.is_dir() or _mounts_under(other):
                continue
            shutil.rmtree(other, ignore_errors=True)

    @staticmethod
    def _run(command: list[str], what: str) -> None:
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
            raise RuntimeUnavailable(
                f"{what} failed (exit {result.returncode})", detail=tail, hint=ALTERNATIVES
            )

    # -- the server --------------------------------------------------------------------

    def _in_root(
        self, root: Path, *args: str, user: str = "postgres"
    ) -> subprocess.CompletedProcess[str]:
        command = ["chroot", f"--userspec={user}:{user}", str(root), *args]
        return subprocess.run(command, capture_output=True, text=True)

    def _data(self) -> str:
        return f"{self.mount_name}/data"

    def _mount(self, root: Path) -> None:
        _bind(Path("/proc"), root / "proc")
        _bind(Path("/dev"), root / "dev")
        self.instance_dir.mkdir(parents=True, exist_ok=True)
        _bind(self.instance_dir, root / self.mount_name.lstrip("/"))

    def _pid(self) -> int | None:
        pidfile = self.instance_dir / "data" / "postmaster.pid"
        try:
            return int(pidfile.read_text().splitlines()[0])
        except (FileNotFoundError, ValueError, IndexError):
            return None

    def _server_alive(self) -> bool:
        pid = self._pid()
        if pid is None:
            return False
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (FileNotFoundError, PermissionError):
            return False
        return b"postgres" in cmdline

    def _accepting(self) -> bool:
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", self.port), timeout=0.5),
        ):
            return True
        return False

    def up(self, progress: Progress = _quiet) -> Status:
        self.check_platform()
        previous = self._current_root()
        root = self.ensure_root(progress)
        if previous is not None and previous != root and previous.exists():
            progress(f"the provisioning script changed: moving port {self.port} to the new root")
            self._stop_in(previous)
            # Only this instance's mount: other ports may still run in the previous root.
            mount_point = previous / self.mount_name.lstrip("/")
            _unmount_all(mount_point)
            if _mounted(mount_point):
                subprocess.run(["umount", str(mount_point)], check=False)
        if previous == root and self._server_alive() and self._accepting():
            # Running already: preparing the data directory again would walk it while the
            # server (and its clients' CREATE and DROP DATABASE) change it underneath.
            return self.status()
        self._mount(root)
        (self.instance_dir / "root").write_text(str(root) + "\n")
        if not self.password_file.exists():
            self.password_file.write_text(secrets.token_urlsafe(18) + "\n")
        owner = self._in_root(
            root, "chown", "-R", "postgres:postgres", self.mount_name, user="root"
        )
        if owner.returncode != 0:
            raise RuntimeUnavailable("could not prepare the data directory", detail=owner.stderr)
        os.chmod(self.password_file, 0o600)
        init = self._in_root(
            root, "/usr/local/bin/pgfacts-pg", "init", self._data(), f"{self.mount_name}/password"
        )
        if init.returncode != 0:
            raise RuntimeUnavailable("initdb failed", detail=init.stdout + init.stderr)
        if not self._server_alive():
            stale = self.instance_dir / "data" / "postmaster.pid"
            if stale.exists():
                progress("removing a stale postmaster.pid (the server is not running)")
                stale.unlink()
            progress(f"starting PostgreSQL 17 on 127.0.0.1:{self.port}")
            start = self._in_root(
                root,
                f"{PG_BIN}/pg_ctl",
                "-D",
                self._data(),
                "-l",
                f"{self.mount_name}/server.log",
                "-o",
                " ".join([f"-c port={self.port}", *self.server_options]),
                "-w",
                "-t",
                "60",
                "start",
            )
            if start.returncode != 0:
                log = self.instance_dir / "server.log"
                tail = log.read_text().splitlines()[-10:] if log.exists() else []
                raise RuntimeUnavailable(
                    f"PostgreSQL did not start on port {self.port}",
                    detail="\n".join([start.stdout + start.stderr, *tail]),
                    hint="is the port taken? choose another with PGFACTS_PORT or --port",
                )
        deadline = time.monotonic() + 30
        while not self._accepting():
            if time.monotonic() > deadline:
                raise RuntimeUnavailable(
                    f"PostgreSQL on port {self.port} does not accept connections"
                )
            time.sleep(0.1)
        return self.status()

    def _stop_in(self, root: Path) -> None:
        if self._server_alive():
            self._in_root(root, f"{PG_BIN}/pg_ctl", "-D", self._data(), "-m", "fast", "-w", "stop")

    def down(self) -> Status:
        self.check_platform()
        root = self._current_root()
        if root is not None and root.exists():
            if self._server_alive():
                self._stop_in(root)
            mount_point = root / self.mount_name.lstrip("/")
            if _mounted(mount_point):
                _unmount_all(mount_point)
                subprocess.run(["umount", str(mount_point)], check=False)
            if not _mounts_under(root / "var" / "lib" / "pgfacts"):
                _unmount_all(root)
        return self.status()

    def status(self) -> Status:
        running = self._server_alive() and self._accepting()
        root = self._current_root()
        return Status(
            running=running,
            port=self.port,
            dsn=self.dsn if self.password_file.exists() else None,
            root=str(root) if root else None,
            data_dir=str(self.instance_dir / "data"),
            pid=self._pid() if running else None,
        )

    def client_command(self, program: str, args: list[str]) -> list[str]:
        """The command that runs a PostgreSQL 17 client program of the root (psql, pg_dump,
        pg_restore), with args."""
        root = self._current_root()
        if root is None or not (root / PG_BIN.lstrip("/") / program).exists():
            raise RuntimeUnavailable("the local runtime is not set up", hint="run `pgfacts db up`")
        return ["chroot", str(root), f"{PG_BIN}/{program}", *args]

    def psql_command(self, args: list[str]) -> list[str]:
        """The command that opens psql 17 (from the root) on this instance."""
        return self.client_command("psql", [self.dsn, *args])

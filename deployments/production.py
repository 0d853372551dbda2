"""The production control plane's backing services: a PostgreSQL cluster and a Redis server owned by the project.

Prefect's own supported engines for a server under load (its "scale self-hosted Prefect" guide): the database on
PostgreSQL (asyncpg), events, the event cache, causal ordering, concurrency leases and the background services'
docket on Redis (prefect-redis). The embedded default stays SQLite with in-memory messaging, whose subscription
queue drops events once 10,000 wait (measured: ~12,000 task runs in 5 minutes, then 503s).

Everything lives under the project's .nightshift/: postgres/ (the cluster, its log and socket; owned by the
`postgres` system user when we run as root, because postgres refuses to run as root), redis/ (its config with
the password, its append-only file) and production.json (ports and the password, mode 0600). Both listen on
127.0.0.1 only: the Prefect server is their one client. This module starts, checks and stops them; it does not
start the Prefect server (server.py does, with ``prefect_env``).
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import json
import os
import pwd
import re
import secrets
import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis

from nightshift.errors import OrchestrationError

PRODUCTION_EXTRA = "pip install 'nightshift[production]'  (prefect-redis, asyncpg)"
MIN_POSTGRES = (14, 9)  # Prefect's stated minimum for PostgreSQL
DB_NAME = DB_USER = "prefect"

class ProductionSetupError(OrchestrationError):
    """A package or permission the production server needs is missing; the message says how to fix it."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def postgres_bin() -> Path:
    """The folder of Debian's PostgreSQL server programs (initdb, pg_ctl), newest version first."""
    found = shutil.which("pg_ctl")
    candidates = [Path(found).resolve().parent] if found else []
    candidates += [Path(p).parent for p in sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                                                  key=lambda p: int(Path(p).parts[-3]), reverse=True)]
    for folder in candidates:
        if (folder / "initdb").is_file():
            version = subprocess.run([folder / "pg_ctl", "--version"], capture_output=True, text=True).stdout
            match = re.search(r"(\d+)\.(\d+)", version)
            if match and (int(match[1]), int(match[2])) >= MIN_POSTGRES:
                return folder
            raise ProductionSetupError(f"PostgreSQL at {folder} is {version.strip()}; Prefect needs "
                                       f">= {'.'.join(map(str, MIN_POSTGRES))}: apt-get install postgresql")
    raise ProductionSetupError("PostgreSQL is missing (no initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin): "
                               "apt-get install postgresql")


def check_packages() -> Path:
    """Fail early, naming the install command, if anything the production server needs is missing."""
    missing = [f"the Python package {name}" for name in ("prefect_redis", "asyncpg")
               if importlib.util.find_spec(name) is None]
    if missing:
        raise ProductionSetupError(f"{' and '.join(missing)} missing for the production server: {PRODUCTION_EXTRA}")
    if not shutil.which("redis-server"):
        raise ProductionSetupError("redis-server is missing for the production server: apt-get install redis-server")
    return postgres_bin()


class ProductionStack:
    """The project's Postgres cluster and Redis server: ports and password recorded in production.json."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.pg_dir, self.redis_dir = state_dir / "postgres", state_dir / "redis"
        self.pg_data = self.pg_dir / "data"
        record = state_dir / "production.json"
        if record.is_file():
            self.config = json.loads(record.read_text())
        else:  # chosen once per project: a restart finds its database on the same port with the same password
            self.config = {"postgres_port": _free_port(), "redis_port": _free_port(),
                           "password": secrets.token_urlsafe(24)}
            state_dir.mkdir(parents=True, exist_ok=True)
            record.touch(mode=0o600)
            record.write_text(json.dumps(self.config, indent=1))

    @property
    def database_url(self) -> str:
        c = self.config
        return f"postgresql+asyncpg://{DB_USER}:{c['password']}@127.0.0.1:{c['postgres_port']}/{DB_NAME}"

    def redis_url(self, db: int = 0) -> str:
        return f"redis://:{self.config['password']}@127.0.0.1:{self.config['redis_port']}/{db}"

    def prefect_env(self) -> dict[str, str]:
        """The Prefect server's settings for this stack (the names of Prefect's self-hosting guide)."""
        return {
            "PREFECT_API_DATABASE_CONNECTION_URL": self.database_url,
            "PREFECT_MESSAGING_BROKER": "prefect_redis.messaging",
            "PREFECT_MESSAGING_CACHE": "prefect_redis.messaging",
            "PREFECT_SERVER_EVENTS_CAUSAL_ORDERING": "prefect_redis.ordering",
            "PREFECT_SERVER_CONCURRENCY_LEASE_STORAGE": "prefect_redis.lease_storage",
            "PREFECT_REDIS_MESSAGING_URL": self.redis_url(0),
            "PREFECT_SERVER_DOCKET_URL": self.redis_url(1),  # its own database number, as the guide advises
        }

    # --- PostgreSQL -------------------------------------------------------------------------------------------

    def _as_owner(self, argv: list[str]) -> list[str]:
        """postgres refuses to run as root: as root, run its programs as the `postgres` system user."""
        if os.geteuid() != 0:
            return argv
        if not shutil.which("runuser"):
            raise ProductionSetupError("runuser is missing (needed to run postgres as its own user): "
                                       "apt-get install util-linux")
        return ["runuser", "-u", "postgres", "--", *argv]

    def _prepare_owner(self) -> None:
        self.pg_dir.mkdir(parents=True, exist_ok=True)
        self.pg_dir.chmod(0o700)
        if os.geteuid() != 0:
            return
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            raise ProductionSetupError("there is no `postgres` system user to run PostgreSQL as (root may not): "
                                       "apt-get install postgresql creates it, or run nightshift as a non-root "
                                       "user") from None
        for parent in self.pg_dir.parents:  # the postgres user must be able to reach its folder
            if parent.stat().st_uid != owner.pw_uid and not parent.stat().st_mode & 0o001:
                raise ProductionSetupError(f"the postgres user cannot enter {parent} (mode "
                                           f"{parent.stat().st_mode & 0o777:o}): chmod o+x {parent}, or keep the "
                                           "project (NIGHTSHIFT_HOME) in a folder others may traverse")
        os.chown(self.pg_dir, owner.pw_uid, owner.pw_gid)

    def _pg(self, binary: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run(self._as_owner([str(binary), *args]), capture_output=True, text=True,
                                stdin=subprocess.DEVNULL)
        if check and result.returncode != 0:
            raise RuntimeError(f"{binary.name} {' '.join(args[:2])} failed ({result.returncode}):\n"
                               f"{result.stdout[-1500:]}{result.stderr[-1500:]}\nsee {self.pg_dir / 'postgres.log'}")
        return result

    def _initdb(self, bin_dir: Path) -> None:
        """A new cluster whose superuser `prefect` logs in over TCP with the project's password."""
        pwfile = self.pg_dir / "initdb-password"
        pwfile.touch(mode=0o600)
        pwfile.write_text(self.config["password"] + "\n")
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(pwfile, owner.pw_uid, owner.pw_gid)
        try:
            self._pg(bin_dir / "initdb", "-D", str(self.pg_data), "-U", DB_USER, "--pwfile", str(pwfile),
                     "--auth-local=peer", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C")
        finally:
            pwfile.unlink(missing_ok=True)
        with (self.pg_data / "postgresql.conf").open("a") as conf:
            conf.write(f"\n# nightshift: this project's own cluster, on loopback only\n"
                       f"port = {self.config['postgres_port']}\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{self.pg_dir}'\n")

    def ensure_postgres(self, timeout_s: float = 120) -> None:
        bin_dir = postgres_bin()
        self._prepare_owner()
        if not (self.pg_data / "PG_VERSION").is_file():
            self._initdb(bin_dir)
        if self._pg(bin_dir / "pg_ctl", "status", "-D", str(self.pg_data), check=False).returncode != 0:
            self._pg(bin_dir / "pg_ctl", "start", "-D", str(self.pg_data), "-l", str(self.pg_dir / "postgres.log"),
                     "-w", "-t", str(int(timeout_s)))
        env = {**os.environ, "PGPASSWORD": self.config["password"]}
        created = subprocess.run([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(self.config["postgres_port"]),
                                  "-U", DB_USER, DB_NAME], env=env, capture_output=True, text=True)
        if created.returncode != 0 and "already exists" not in created.stderr:
            raise RuntimeError(f"createdb {DB_NAME} failed: {created.stderr.strip()}")

    def postmaster_pid(self) -> int | None:
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int((self.pg_data / "postmaster.pid").read_text().splitlines()[0])
        return None

    def stop_postgres(self) -> bool:
        if self.postmaster_pid() is None:
            return False
        return self._pg(postgres_bin() / "pg_ctl", "stop", "-D", str(self.pg_data), "-m", "fast", "-w",
                        check=False).returncode == 0

    # --- Redis ------------------------------------------------------------------------------------------------

    def _redis_client(self) -> redis.Redis:
        return redis.Redis.from_url(self.redis_url(0), socket_timeout=1, socket_connect_timeout=1)

    def redis_up(self) -> bool:
        try:
            return bool(self._redis_client().ping())
        except redis.RedisError:
            return False

    def ensure_redis(self, timeout_s: float = 30) -> None:
        """redis-server with an append-only file, so events in flight survive its restart."""
        if self.redis_up():
            return
        self.redis_dir.mkdir(parents=True, exist_ok=True)
        conf = self.redis_dir / "redis.conf"  # the password goes in a 0600 file, not on a command line
        conf.touch(mode=0o600)
        conf.write_text(f"port {self.config['redis_port']}\nbind 127.0.0.1\nrequirepass {self.config['password']}\n"
                        f"dir {self.redis_dir}\nappendonly yes\nappendfsync everysec\nsave \"\"\n"
                        f"daemonize no\nlogfile \"\"\n")
        log = (self.state_dir / "redis.log").open("ab")
        proc = subprocess.Popen([shutil.which("redis-server") or "redis-server", str(conf)], stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        (self.state_dir / "redis.pid").write_text(str(proc.pid))
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with {proc.returncode}; see {self.state_dir / 'redis.log'}")
            if self.redis_up():
                return
            time.sleep(0.1)
        raise RuntimeError(f"redis-server did not answer within {timeout_s:.0f}s; see {self.state_dir / 'redis.log'}")

    def ensure(self) -> dict[str, str]:
        """Start what is not running; the Prefect server's environment for this stack."""
        check_packages()
        self.ensure_postgres()
        self.ensure_redis()
        return self.prefect_env()

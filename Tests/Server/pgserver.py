"""A throw-away PostgreSQL for the tests: Debian's `initdb` and `pg_ctl` in a folder of the test
run's temporary folder, on a free loopback port, as an unprivileged user (PostgreSQL refuses to
run as root, and CI runs as root), stopped and removed when the tests end. Each test class gets
a database of its own (`database()`), so the suites stay independent of each other.

Standard library only. Missing PostgreSQL binaries are a set-up error, not a skip: `make test`
installs them.
"""

import atexit
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time

START_TIMEOUT = 60.0
STOP_TIMEOUT = 30.0
UNPRIVILEGED_USER = "postgres"


def binaries():
    """The folder of the newest installed PostgreSQL's server programs."""
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                     key=lambda path: int(path.split("/")[-2]) if path.split("/")[-2].isdigit() else 0)
    for folder in reversed(folders):
        if os.access(os.path.join(folder, "initdb"), os.X_OK):
            return folder
    raise RuntimeError("no PostgreSQL server programs under /usr/lib/postgresql/*/bin; "
                       "install Debian's postgresql package (make test does)")


def free_port():
    """A loopback port nothing listens on now (the server binds it just after)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    """One PostgreSQL cluster for the whole test process (see `shared()`)."""

    def __init__(self):
        self.folder = None
        self.port = None
        self.bin = binaries()
        self.counter = 0
        self.lock = threading.Lock()
        self.user = None

    def _run(self, *arguments, timeout=START_TIMEOUT, check=True):
        """Runs a server program as the unprivileged user when this process is root."""
        command = list(arguments)
        if os.geteuid() == 0:
            command = ["runuser", "-u", UNPRIVILEGED_USER, "--", *command]
        result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=timeout)
        if check and result.returncode != 0:
            raise RuntimeError(f"{' '.join(arguments[:2])} failed ({result.returncode}): "
                               f"{result.stderr.strip() or result.stdout.strip()}")
        return result

    def start(self):
        base = tempfile.gettempdir()
        self.folder = tempfile.mkdtemp(prefix="authflow-postgres-", dir=base)
        if os.geteuid() == 0:
            user = pwd.getpwnam(UNPRIVILEGED_USER)
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            # The server's user must reach its folder through the temporary folder.
            mode = os.stat(base).st_mode
            if not mode & 0o001:
                raise RuntimeError(f"{base} is not searchable by {UNPRIVILEGED_USER}; "
                                   "use a TMPDIR others may enter")
        data = os.path.join(self.folder, "data")
        self._run(os.path.join(self.bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        for attempt in range(5):
            self.port = free_port()
            options = self._options()
            started = self._run(os.path.join(self.bin, "pg_ctl"), "-D", data, "-o", options,
                                "-l", os.path.join(self.folder, "log"), "-w", "-t",
                                str(int(START_TIMEOUT)), "start", check=False)
            if started.returncode == 0:
                break
            if attempt == 4:
                raise RuntimeError(f"PostgreSQL did not start: {self.log_tail()}")
        self._wait_ready()
        return self

    def _options(self):
        """The server's settings: loopback on its port, its socket in its folder, and no
        waiting on the disk (a test's data need not survive a crash of the machine)."""
        return (f"-p {self.port} -c listen_addresses=127.0.0.1 "
                f"-c unix_socket_directories='{self.folder}' -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")

    def _wait_ready(self):
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            ready = self._run(os.path.join(self.bin, "pg_isready"), "-h", "127.0.0.1", "-p",
                              str(self.port), check=False, timeout=10)
            if ready.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL is not ready: {self.log_tail()}")
            time.sleep(0.05)

    def pause(self):
        """Stops the server (its data stays), as a restart begins."""
        self._run(os.path.join(self.bin, "pg_ctl"), "-D", os.path.join(self.folder, "data"),
                  "-m", "fast", "-w", "-t", str(int(STOP_TIMEOUT)), "stop")

    def resume(self):
        """Starts the paused server again on its port."""
        self._run(os.path.join(self.bin, "pg_ctl"), "-D", os.path.join(self.folder, "data"),
                  "-o", self._options(), "-l", os.path.join(self.folder, "log"), "-w", "-t",
                  str(int(START_TIMEOUT)), "start")
        self._wait_ready()

    def log_tail(self):
        try:
            with open(os.path.join(self.folder, "log"), encoding="utf-8", errors="replace") as log:
                return log.read()[-2000:]
        except OSError as error:
            return str(error)

    def sql(self, statement, database="postgres"):
        """Runs `statement` with psql as the superuser; returns its output (tuples only)."""
        result = subprocess.run(
            ["psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
             str(self.port), "-U", "postgres", "-d", database, "-c", statement],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"psql failed: {result.stderr.strip()}")
        return result.stdout

    def database(self):
        """A new empty database; returns its URL."""
        with self.lock:
            self.counter += 1
            name = f"t{os.getpid()}_{self.counter}"
        self.sql(f"CREATE DATABASE {name}")
        return self.url(name)

    def url(self, name):
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self):
        if self.folder is None:
            return
        data = os.path.join(self.folder, "data")
        if os.path.isdir(data):
            self._run(os.path.join(self.bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w",
                      "-t", str(int(STOP_TIMEOUT)), "stop", check=False, timeout=STOP_TIMEOUT + 5)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None


_shared = None
_shared_lock = threading.Lock()


def shared():
    """The test process's PostgreSQL, started on first use and stopped when the process ends."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = PostgresServer().start()
            atexit.register(_shared.stop)
        return _shared


def store():
    """The `--store` a test server runs on: `:memory:`, or with AUTHFLOW_TEST_STORE=postgres a
    new database of the shared PostgreSQL."""
    kind = os.environ.get("AUTHFLOW_TEST_STORE", "sqlite")
    if kind == "sqlite":
        return ":memory:"
    if kind == "postgres":
        return shared().database()
    raise RuntimeError(f"AUTHFLOW_TEST_STORE={kind!r}: use sqlite or postgres")

"""Runs `authflow serve` for a test: start on a free port, read the keys from its ready line,
read its outbox through the Mailpit API, stop it. Standard library only, so the hostile tests
(which must not depend on the client under test) can use it too.

The binary comes from the AUTHFLOW environment variable (the Makefile passes the debug build).
"""

import base64
import collections
import json
import os
import queue
import re
import signal
import subprocess
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

import pgserver

READY_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
MAIL_TIMEOUT = 10.0
READY_LINE = re.compile(
    r"^authflow serve: (?P<url>http://\S+) \((?P<addresses>[^)]*)\) store (?P<store>.+?)"
    r" anon key (?P<anon>\S+) service_role key (?P<service>\S+)$")
CODE = re.compile(r"\b(\d{6})\b")
LINK = re.compile(r"https?://\S+/verify\?\S+")


def binary():
    """The authflow executable under test; a missing variable is a setup error, not a skip."""
    path = os.environ.get("AUTHFLOW")
    if not path:
        raise RuntimeError("set AUTHFLOW to the authflow executable (make test does)")
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"AUTHFLOW={path} is not an executable")
    return path


class Server:
    """One `authflow serve` process. Use start() in setUp/setUpClass and stop() in the matching
    tearDown (addCleanup/addClassCleanup), so a failing test never leaves a server behind."""

    def __init__(self, *options, store=None, hash_cost=4, environment=None):
        # The store the suite runs on (AUTHFLOW_TEST_STORE: sqlite, or postgres for a new
        # database of a throw-away PostgreSQL), unless the test names one.
        store = store if store is not None else pgserver.store()
        self.arguments = [binary(), "serve", "--store", store, "--port", "0",
                          "--hash-cost", str(hash_cost), *options]
        # Variables set for this server on top of the test's own (GoTrue's GOTRUE_*).
        self.environment = {**os.environ, **environment} if environment else None
        self.process = None
        self.url = self.anon_key = self.service_key = None
        self.host = self.port = None
        self.log = collections.deque(maxlen=200)
        self.logged = threading.Condition()
        self.stdout_lines = queue.Queue()
        self.readers = []

    # -- life cycle ---------------------------------------------------------------------------

    def start(self, timeout=READY_TIMEOUT):
        """Starts the server and waits (bounded) for its ready line; returns self."""
        self.process = subprocess.Popen(
            self.arguments, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
            env=self.environment)
        # Both pipes are drained by threads so that a chatty log never blocks the server.
        self.readers = [
            threading.Thread(target=self._drain, args=(self.process.stdout, self.stdout_lines.put),
                             daemon=True),
            threading.Thread(target=self._drain, args=(self.process.stderr, self._log_line),
                             daemon=True),
        ]
        for reader in self.readers:
            reader.start()
        try:
            line = self.stdout_lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            raise RuntimeError(f"authflow serve printed no ready line within {timeout} s; "
                               f"log: {self.log_tail()}") from None
        match = READY_LINE.match(line.rstrip("\n")) if line else None
        if not match:
            self.stop()
            raise RuntimeError(f"unexpected first line {line!r}; log: {self.log_tail()}")
        self.url = match["url"]
        parsed = urllib.parse.urlsplit(self.url)
        self.host, self.port = parsed.hostname, parsed.port
        self.anon_key, self.service_key = match["anon"], match["service"]
        return self

    @staticmethod
    def _drain(stream, put):
        for line in stream:
            put(line)
        put("")  # end of stream marker (also unblocks a start() waiting on a dead process)

    def stop(self, timeout=STOP_TIMEOUT):
        """SIGTERM, a bounded wait, then SIGKILL; returns the exit status (None if never
        started). Safe to call twice."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        self._join_readers()
        return self.process.returncode

    def kill(self):
        """SIGKILL: the crash a store must survive. Returns the exit status."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(STOP_TIMEOUT)
        self._join_readers()
        return self.process.returncode if self.process else None

    def _join_readers(self):
        for reader in self.readers:
            reader.join(STOP_TIMEOUT)
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()

    def alive(self):
        """Whether the process is still running (a crash shows up here)."""
        return self.process is not None and self.process.poll() is None

    def remaining_stdout(self):
        """Lines printed on stdout after the ready line (only complete after stop())."""
        lines = []
        while True:
            try:
                line = self.stdout_lines.get_nowait()
            except queue.Empty:
                return lines
            if line:
                lines.append(line.rstrip("\n"))

    def _log_line(self, line):
        with self.logged:
            self.log.append(line)
            self.logged.notify_all()

    def wait_for_log(self, pattern, timeout=MAIL_TIMEOUT):
        """The first log line (standard error) matching the regular expression `pattern`,
        waiting for it to be written (at most `timeout` seconds); fails with the log's tail."""
        expression = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self.logged:
            while True:
                for line in self.log:
                    if expression.search(line):
                        return line
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no log line matched {pattern!r} within {timeout} s; "
                                         f"log: {self.log_tail()}")
                self.logged.wait(left)

    def log_lines(self):
        """The log lines read so far (standard error), as a list."""
        with self.logged:
            return list(self.log)

    def log_tail(self, count=20):
        """The last request-log lines, to make a failure message useful."""
        with self.logged:
            return "".join(list(self.log)[-count:])

    # -- plain HTTP (stdlib) ------------------------------------------------------------------

    def request(self, method, path, body=None, headers=None, timeout=10.0):
        """One HTTP request with urllib; returns (status, headers, body bytes) for every status
        (redirects are not followed)."""
        data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers=dict(headers or {}))
        if isinstance(body, (dict, list)):
            request.add_header("Content-Type", "application/json")
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=timeout) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.headers, error.read()

    def json(self, method, path, body=None, headers=None, timeout=10.0):
        """A request whose answer must be JSON; returns (status, parsed body)."""
        status, _, raw = self.request(method, path, body, headers, timeout)
        return status, json.loads(raw) if raw else None

    def anon_headers(self):
        """What a Supabase client sends with the anon key."""
        return {"apikey": self.anon_key, "Authorization": f"Bearer {self.anon_key}"}

    def service_headers(self):
        """What an admin client sends with the service_role key."""
        return {"apikey": self.service_key, "Authorization": f"Bearer {self.service_key}"}

    # -- the outbox (Mailpit API) -------------------------------------------------------------

    def clear_outbox(self):
        """DELETE /api/v1/messages: every message."""
        status, _, body = self.request("DELETE", "/api/v1/messages")
        if status != 200 or body != b"ok":
            raise AssertionError(f"DELETE /api/v1/messages answered {status} {body!r}")

    def messages_to(self, address):
        """The summaries of the messages to `address`, newest first (Mailpit search)."""
        query = urllib.parse.urlencode({"query": f"to:{address}"})
        status, page = self.json("GET", f"/api/v1/search?{query}")
        if status != 200:
            raise AssertionError(f"GET /api/v1/search answered {status}")
        return page["messages"]

    def latest_message_to(self, address, newer_than=None, timeout=MAIL_TIMEOUT):
        """The newest whole message to `address` whose ID differs from `newer_than` (polled with
        a deadline: mail may be written just after the request that caused it answers)."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.messages_to(address)
            if found and found[0]["ID"] != newer_than:
                status, message = self.json("GET", f"/api/v1/message/{found[0]['ID']}")
                if status != 200:
                    raise AssertionError(f"GET /api/v1/message/{found[0]['ID']} answered {status}")
                return message
            if time.monotonic() >= deadline:
                raise AssertionError(f"no new message to {address} within {timeout} s")
            time.sleep(0.05)

    @staticmethod
    def code_in(message):
        """The 6-digit code in a message's Text."""
        match = CODE.search(message["Text"])
        if not match:
            raise AssertionError(f"no 6-digit code in {message['Text']!r}")
        return match[1]

    @staticmethod
    def link_in(message):
        """The /verify link in a message's Text."""
        match = LINK.search(message["Text"])
        if not match:
            raise AssertionError(f"no /verify link in {message['Text']!r}")
        return match[0]

    @staticmethod
    def token_hash_in(message):
        """The `token` parameter of the message's link: the token hash /verify accepts."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(Server.link_in(message)).query)
        return query["token"][0]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Keeps 3xx answers as they are: the tests check the Location header itself."""

    def redirect_request(self, *arguments, **keywords):
        return None


def claims(access_token):
    """A JWT's payload, unverified: the tests only compare what the server put there."""
    payload = access_token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


class ServerTestCase(unittest.TestCase):
    """One `authflow serve` per class, started with `server_options()` (OPTIONS unless a class
    says otherwise) and stopped after the class; every test must leave it running."""

    OPTIONS = ()
    # The store, when a class needs one kind (None: the suite's, AUTHFLOW_TEST_STORE).
    STORE = None
    # GoTrue's variables the class sets for its server (None: only the test's own).
    ENVIRONMENT = None

    @classmethod
    def server_options(cls):
        return cls.OPTIONS

    @classmethod
    def setUpClass(cls):
        cls.server = Server(*cls.server_options(), store=cls.STORE,
                            environment=cls.ENVIRONMENT).start()
        cls.addClassCleanup(cls.server.stop)

    def tearDown(self):
        # A crash mid-test would otherwise only show up as connection errors in later tests.
        self.assertTrue(self.server.alive(),
                        f"the server exited during the test; log:\n{self.server.log_tail()}")

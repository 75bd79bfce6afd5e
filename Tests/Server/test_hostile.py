"""`authflow serve` against hostile clients, and a crash under load on a file store.

Raw sockets (standard library only, nothing from the client under test): garbage bytes,
truncated requests, a 2 MiB body, 2 000 connections at once, a client sending one byte a
second, an idle client, and broken JSON on /signup and /token. The server runs with
`--timeout 2`; after each test GET /health must still answer 200 and the process must be alive.
Then a server on a file store is killed (SIGKILL) in the middle of concurrent sign-ups and
sign-ins: `PRAGMA integrity_check` must say `ok`, and a new server on the same store must sign
in every user whose sign-up was answered.

Every loop is bounded in count and time; everything stays on loopback.
"""

import asyncio
import collections
import http.client
import json
import os
import resource
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import unittest
import uuid

from serve import Server, ServerTestCase

CONNECTIONS = 2000
TWO_MIB = 2 << 20
PASSWORD = "correct-horse-battery"


def raise_file_limit(wanted):
    """2 000 sockets need more descriptors than some shells allow; the hard limit is the
    ceiling. Returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


def wire(start_line, *headers, body=b""):
    """The bytes of an HTTP/1.1 request: start line, `Host: x`, headers, blank line, body."""
    return b"\r\n".join([start_line, b"Host: x", *headers, b""]) + b"\r\n" + body


def status_of(data):
    """The status code of a raw HTTP answer, or None when nothing (or no HTTP) came back."""
    line = data.split(b"\r\n", 1)[0]
    parts = line.split(b" ", 2)
    if len(parts) >= 2 and parts[0].startswith(b"HTTP/1.") and parts[1].isdigit():
        return int(parts[1])
    return None


def body_of(data):
    """The bytes after the blank line of a raw HTTP answer."""
    return data.partition(b"\r\n\r\n")[2]


def header_of(data, name):
    """A header's value in a raw HTTP answer (case-insensitive), or None."""
    head = data.partition(b"\r\n\r\n")[0].decode("latin-1")
    for line in head.split("\r\n")[1:]:
        key, _, value = line.partition(":")
        if key.strip().lower() == name.lower():
            return value.strip()
    return None


class RawClient:
    """Raw-socket exchanges with one server."""

    def __init__(self, server):
        self.address = (server.host, server.port)

    def connect(self, timeout):
        """A plain TCP connection to the server (loopback)."""
        return socket.create_connection(self.address, timeout=timeout)

    def exchange(self, payload, timeout=6.0, shut=False):
        """Sends `payload` (from a thread, so a server that answers and closes before reading
        it all is still heard), reads until the server closes or `timeout`; returns (bytes
        read, how it ended: closed / reset / timeout)."""
        connection = self.connect(timeout)
        sender = threading.Thread(target=self._send, args=(connection, payload, shut), daemon=True)
        data, ending = b"", "timeout"
        deadline = time.monotonic() + timeout
        try:
            sender.start()
            while time.monotonic() < deadline:
                connection.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = connection.recv(65536)
                if not chunk:
                    ending = "closed"
                    break
                data += chunk
        except socket.timeout:
            ending = "timeout"
        except ConnectionResetError:
            ending = "reset"
        finally:
            # Shut down first: it wakes a sender still blocked in sendall, so the socket is
            # closed only once no other thread uses it.
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sender.join(timeout)
            connection.close()
        return data, ending

    @staticmethod
    def _send(connection, payload, shut):
        """The writing half of exchange(); errors mean the server stopped reading."""
        try:
            if payload:
                connection.sendall(payload)
            if shut:
                connection.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server closed first: what it said is what the reader checks

    def get_health(self, timeout=5.0):
        """GET /health on a fresh connection; returns the status (None if no answer)."""
        data, _ = self.exchange(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                                timeout=timeout)
        return status_of(data)


class HostileServerCase(ServerTestCase):
    """One server with `--timeout 2` per class; each test ends with the server alive and
    healthy."""

    OPTIONS = ("--timeout", "2")

    @classmethod
    def setUpClass(cls):
        raise_file_limit(CONNECTIONS + 1000)  # before start: the server inherits it too
        super().setUpClass()
        cls.raw = RawClient(cls.server)

    def tearDown(self):
        super().tearDown()
        self.assertEqual(self.raw.get_health(), 200, "GET /health after the test")


class HostileHttpTests(HostileServerCase):
    """The HTTP layer under abuse."""

    def test_garbage_gets_a_4xx_or_a_close(self):
        """Bytes that are not HTTP (or barely): an error status or a closed connection, never a
        5xx and never a hang."""
        cases = {
            "binary": (bytes(range(256)) * 4, {400}),
            "no version": (b"GET /\r\n\r\n", {400}),
            "bad version": (b"GET /health HTTP/7.3\r\nHost: x\r\n\r\n", {400, 505}),
            "header without colon": (b"GET /health HTTP/1.1\r\nnonsense\r\n\r\n", {400}),
            "negative length": (wire(b"POST /signup HTTP/1.1", b"Content-Length: -5"), {400}),
            "length not a number": (wire(b"POST /signup HTTP/1.1", b"Content-Length: 1x"), {400}),
            "unknown method": (b"BREW /health HTTP/1.1\r\nHost: x\r\n\r\n", {400, 405, 501}),
            "20 KB header": (wire(b"GET /health HTTP/1.1", b"X-Big: " + b"a" * 20000),
                             {400, 413, 431}),
            "100 KB path": (wire(b"GET /" + b"a" * 100000 + b" HTTP/1.1"), {400, 414, 431}),
            "NUL in path": (b"GET /hea\x00lth HTTP/1.1\r\nHost: x\r\n\r\n", {400, 404}),
            "bare LF": (b"GET /health HTTP/1.1\nHost: x\nConnection: close\n\n", {200, 400}),
        }
        for name, (payload, allowed) in cases.items():
            with self.subTest(name):
                data, ending = self.raw.exchange(payload)
                self.assertIn(ending, ("closed", "reset"), f"{name}: the server kept it open")
                if data:
                    self.assertIn(status_of(data), allowed, data[:200])

    def test_truncated_requests_then_close(self):
        """A request cut off and the write side shut: the server closes (a 400 at most)."""
        cases = {
            "request line only": b"GET /health HTTP/1.1\r\n",
            "half a header": b"GET /health HTTP/1.1\r\nHost: x\r\nX-Half: abc",
            "short body": wire(b"POST /signup HTTP/1.1", b"Content-Length: 100", body=b'{"email"'),
            "half a chunk": wire(b"POST /signup HTTP/1.1", b"Transfer-Encoding: chunked",
                                 body=b"10\r\nabc"),
        }
        for name, payload in cases.items():
            with self.subTest(name):
                data, ending = self.raw.exchange(payload, shut=True)
                self.assertIn(ending, ("closed", "reset"))
                if data:
                    self.assertEqual(status_of(data), 400, data[:200])

    def test_truncated_requests_then_abrupt_close(self):
        """The client vanishes mid-request (RST): nothing to answer, the server carries on."""
        for payload in (b"POST /signup HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{",
                        b"GET /heal"):
            connection = self.raw.connect(5)
            connection.sendall(payload)
            # SO_LINGER 0: close() sends a reset instead of a FIN.
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()
            self.assertEqual(self.raw.get_health(), 200)

    def test_two_mib_body_is_413(self):
        """Bodies over GoTrue's 1 MiB are refused with 413, whether sent with a length or
        chunked."""
        body = b"x" * TWO_MIB
        cases = {
            "Content-Length": wire(b"POST /signup HTTP/1.1", b"Content-Type: application/json",
                                   b"Content-Length: %d" % len(body), body=body),
            "chunked": wire(b"POST /signup HTTP/1.1", b"Content-Type: application/json",
                            b"Transfer-Encoding: chunked",
                            body=b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"),
        }
        for name, payload in cases.items():
            with self.subTest(name):
                data, _ = self.raw.exchange(payload, timeout=15)
                self.assertEqual(status_of(data), 413, data[:300])

    def test_two_mib_declared_but_not_sent(self):
        """A 2 MiB Content-Length and then silence: 413 at once, or closed at the timeout."""
        payload = b"POST /signup HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n{}" % TWO_MIB
        started = time.monotonic()
        data, ending = self.raw.exchange(payload, timeout=12)
        self.assertIn(ending, ("closed", "reset"), "held open past --timeout")
        self.assertLess(time.monotonic() - started, 12)
        if data:
            self.assertEqual(status_of(data), 413, data[:200])

    def test_two_thousand_connections_at_once(self):
        """More connections than --max-connections (1024): some are served, the rest get 503
        JSON or are closed; nothing hangs past the bound, and the server survives."""
        self.assertGreaterEqual(raise_file_limit(CONNECTIONS + 1000), CONNECTIONS + 100,
                                "this test needs more open files than the hard limit allows")
        outcomes = asyncio.run(asyncio.wait_for(self._flood(CONNECTIONS), 60))
        counts = collections.Counter(outcomes)
        detail = ", ".join(f"{n} x {o}" for o, n in counts.most_common())
        self.assertGreater(counts["200"], 0, detail)
        self.assertLessEqual(set(counts), {"200", "503 json", "closed", "reset"}, detail)

    async def _flood(self, count):
        """Opens `count` connections, then sends a request on all of them at once."""
        go = asyncio.Event()
        opened = [asyncio.get_running_loop().create_future() for _ in range(count)]
        tasks = [asyncio.create_task(self._one_of_many(ready, go)) for ready in opened]
        await asyncio.wait_for(asyncio.gather(*opened), 30)
        go.set()
        return await asyncio.gather(*tasks)

    async def _one_of_many(self, ready, go):
        """One connection of the flood; returns how it ended."""
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.server.host, self.server.port), 20)
        except (OSError, asyncio.TimeoutError) as error:
            ready.set_result(None)
            return "connect " + type(error).__name__
        ready.set_result(None)
        try:
            await go.wait()
            writer.write(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            await writer.drain()
            data = await asyncio.wait_for(reader.read(), 20)
        except (ConnectionResetError, BrokenPipeError):
            return "reset"
        except asyncio.TimeoutError:
            return "timeout"
        finally:
            writer.close()
        if not data:
            return "closed"
        status = status_of(data)
        if status == 503:
            try:
                json.loads(body_of(data))
                is_json = header_of(data, "Content-Type") == "application/json"
                return "503 json" if is_json else "503 type"
            except ValueError:
                return "503 not json"
        return str(status)

    def test_one_byte_a_second_is_cut_off(self):
        """A client trickling a request never finishes it: the server closes it after about
        --timeout (2 s), and serves /health meanwhile."""
        request = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 100
        watcher = HealthWatcher(self.raw)
        connection = self.raw.connect(5)
        started = time.monotonic()
        watcher.start()
        closed_after = None
        try:
            for byte in request[:15]:  # at most 15 s
                try:
                    connection.send(bytes([byte]))
                    connection.settimeout(1)  # the pace: one byte, then up to 1 s of listening
                    if connection.recv(1024) == b"":
                        closed_after = time.monotonic() - started
                        break
                except socket.timeout:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    closed_after = time.monotonic() - started
                    break
        finally:
            connection.close()
            checks = watcher.stop()
        self.assertIsNotNone(closed_after, "still open after 15 bytes in 15 s")
        self.assertGreaterEqual(closed_after, 1.5, "closed before --timeout")
        self.assertLessEqual(closed_after, 8.0, "closed well after --timeout 2")
        self.assertTrue(checks and all(status == 200 for status in checks), checks)

    def test_idle_connection_is_closed(self):
        """A connection that sends nothing is closed after about --timeout."""
        connection = self.raw.connect(12)
        started = time.monotonic()
        try:
            self.assertEqual(connection.recv(1024), b"")
        except ConnectionResetError:
            pass
        finally:
            connection.close()
        self.assertLessEqual(time.monotonic() - started, 8.0)


class HealthWatcher:
    """GET /health about once a second from a thread, at most 20 times."""

    def __init__(self, raw):
        self.raw = raw
        self.statuses = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        """Begins checking in the background."""
        self.thread.start()

    def _run(self):
        """Checks until stopped, at most 20 times."""
        while not self.done.is_set() and len(self.statuses) < 20:
            self.statuses.append(self.raw.get_health(timeout=3))
            self.done.wait(1)

    def stop(self):
        """Ends the checks; returns the statuses seen (None for no answer)."""
        self.done.set()
        self.thread.join(10)
        return self.statuses


class BrokenJsonTests(HostileServerCase):
    """Bodies that are not the JSON /signup and /token expect: 400 JSON errors, never 500."""

    BODIES = {
        "empty": b"",
        "cut short": b'{"email": "a@example.com", "password": "secret123"',
        "only a brace": b"{",
        "an array": b"[]",
        "a string": b'"email"',
        "a number": b"12",
        "email a number, password an array": b'{"email": 5, "password": []}',
        "email an object": b'{"email": {"a": 1}, "password": "secret123"}',
        "password a bool": b'{"email": "a@example.com", "password": true}',
        "non-UTF-8 in a string": b'{"email": "\xff\xfe@example.com", "password": "secret123"}',
        "non-UTF-8 whole": b"\xff\xfe\x00{\x80}",
        "lone surrogate escape": b'{"email": "\\ud800@example.com", "password": "secret123"}',
        "NUL escape": b'{"email": "a\\u0000@example.com", "password": "secret123"}',
        "huge number": b'{"email": "a@example.com", "password": "x1234567", "data": {"n": 1e9999}}',
        "10 000 brackets": b"[" * 10000,
        "10 000 nested objects": b'{"data":' * 10000 + b"{}" + b"}" * 10000,
        "900 KB email": b'{"email": "%s@example.com", "password": "secret123"}' % (b"a" * 900_000),
        "100 character password": b'{"email": "long@example.com", "password": "%s"}' % (b"p" * 100),
        "trailing garbage": b'{"email": "a@example.com", "password": "secret123"} xyz',
        "two objects": b'{"email": "a@example.com", "password": "secret123"}{}',
        "single quotes": b"{'email': 'a@example.com', 'password': 'secret123'}",
        "unquoted key": b'{email: "a@example.com", "password": "secret123"}',
        "comment": b'{"email": "a@example.com", /* hi */ "password": "secret123"}',
        "NaN": b'{"email": "a@example.com", "password": "secret123", "data": {"n": NaN}}',
        "leading zero": b'{"email": "a@example.com", "password": "secret123", "data": {"n": 01}}',
        "raw tab in a string": b'{"email": "a@example.com", "password": "secret\t123"}',
        "bad escape": b'{"email": "a@example.com", "password": "secret\\x123"}',
    }
    PATHS = ("/signup", "/token?grant_type=password", "/token?grant_type=refresh_token")

    def allowed_codes(self, path):
        """GoTrue answers bad_json or validation_failed; for a well-formed password grant with
        odd values it looks the user up and says invalid_credentials."""
        codes = {"bad_json", "validation_failed"}
        return codes | {"invalid_credentials"} if "grant_type=password" in path else codes

    def test_broken_bodies_are_400_json(self):
        """Each body on each path: 400, application/json, GoTrue's legacy error shape."""
        for path in self.PATHS:
            for name, body in self.BODIES.items():
                with self.subTest(path=path, body=name):
                    status, headers, raw = self.server.request(
                        "POST", path, body, {"Content-Type": "application/json"}, timeout=15)
                    self.assertEqual(status, 400, raw[:300])
                    self.assertEqual(headers["Content-Type"], "application/json")
                    answer = json.loads(raw)
                    self.assertEqual(answer["code"], 400, answer)
                    self.assertIn(answer["error_code"], self.allowed_codes(path), answer)
                    self.assertIsInstance(answer["msg"], str)
            self.assertTrue(self.server.alive())


class LenientJsonTests(HostileServerCase):
    """JSON text between systems must be UTF-8 (RFC 8259 §8.1) and strict. GoTrue decodes
    with Go's encoding/json, which takes no byte-order mark, no UTF-16/32 and no trailing
    comma: each of these is 400 bad_json there."""

    VARIANTS = ("utf-16", "utf-16-le", "utf-16-be", "utf-32-le", "utf-8-sig", "trailing comma")

    @staticmethod
    def encode(variant, fields):
        """The JSON of `fields` in an encoding Go rejects, or with a trailing comma."""
        text = json.dumps(fields)
        if variant == "trailing comma":
            return text[:-1].encode() + b", }"
        return text.encode(variant)

    def test_what_go_rejects_is_bad_json(self):
        """Sign-up (a new address each time) and sign-in with each body: 400 bad_json."""
        for variant in self.VARIANTS:
            with self.subTest(path="/signup", body=variant):
                fields = {"email": f"lenient-{uuid.uuid4().hex[:8]}@example.com",
                          "password": PASSWORD}
                status, _, answer = self.server.request(
                    "POST", "/signup", self.encode(variant, fields),
                    {"Content-Type": "application/json"})
                self.assertEqual((status, json.loads(answer).get("error_code")), (400, "bad_json"))
            with self.subTest(path="/token", body=variant):
                fields = {"email": "test@example.com", "password": "TestPassword123!"}
                status, _, answer = self.server.request(
                    "POST", "/token?grant_type=password", self.encode(variant, fields),
                    {"Content-Type": "application/json"})
                self.assertEqual((status, json.loads(answer).get("error_code")), (400, "bad_json"))


class CrashRecoveryTests(unittest.TestCase):
    """SIGKILL in the middle of writes must leave the SQLite store sound and complete."""

    WORKERS = 4
    SIGN_UPS_BEFORE_KILL = 100
    ROUNDS_PER_WORKER = 150

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="authflow-crash-")
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)
        self.store = os.path.join(self.folder, "auth.db")

    def start(self):
        """A server on the test's file store; stopped at cleanup whatever happens."""
        server = Server("--autoconfirm", "--no-rate-limits", store=self.store).start()
        self.addCleanup(server.stop)
        return server

    def test_sigkill_mid_load_then_integrity_and_sign_in(self):
        """Concurrent sign-ups and sign-ins, SIGKILL, then `PRAGMA integrity_check` is ok and
        a new server signs in every user whose sign-up was answered."""
        server = self.start()
        load = Load(server, self.WORKERS, self.ROUNDS_PER_WORKER)
        load.start()
        try:
            self.assertTrue(load.wait_for_sign_ups(self.SIGN_UPS_BEFORE_KILL, timeout=20),
                            f"only {len(load.signed_up)} sign-ups; errors: {load.errors[:5]}")
            self.assertEqual(server.kill(), -signal.SIGKILL)
        finally:
            load.stop()
        self.assertEqual(load.unexpected, [], "answers other than 200 before the kill")

        check = subprocess.run(["sqlite3", self.store, "PRAGMA integrity_check"],
                               capture_output=True, text=True, timeout=30)
        self.assertEqual((check.returncode, check.stdout.strip()), (0, "ok"), check.stderr)

        restarted = self.start()
        for email in load.signed_up:
            status, answer = restarted.json("POST", "/token?grant_type=password",
                                            {"email": email, "password": PASSWORD},
                                            restarted.anon_headers())
            self.assertEqual(status, 200, f"{email}: {answer}")
            self.assertEqual(answer["user"]["email"], email)
        self.assertEqual(restarted.stop(), 0)


class Load:
    """Threads signing up new users and signing them in until stopped or out of rounds."""

    def __init__(self, server, workers, rounds):
        self.server = server
        self.rounds = rounds
        self.signed_up = []
        self.unexpected = []
        self.errors = []
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.threads = [threading.Thread(target=self._work, daemon=True) for _ in range(workers)]

    def start(self):
        """Starts every worker."""
        for thread in self.threads:
            thread.start()

    def stop(self):
        """Tells the workers to end and waits (bounded) for them."""
        self.done.set()
        for thread in self.threads:
            thread.join(20)

    def wait_for_sign_ups(self, count, timeout):
        """Polls (bounded) until `count` sign-ups were answered 200."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.signed_up) >= count:
                    return True
            if self.done.wait(0.02):
                break
        return False

    def _work(self):
        """One worker: sign up a new user, sign them in, again; a connection error after
        the kill ends it."""
        for _ in range(self.rounds):
            if self.done.is_set():
                return
            email = f"load-{uuid.uuid4().hex[:12]}@example.com"
            try:
                self._expect_200("/signup", email)
                with self.lock:
                    self.signed_up.append(email)
                self._expect_200("/token?grant_type=password", email)
            except (OSError, http.client.HTTPException) as error:  # the kill
                with self.lock:
                    self.errors.append(repr(error))
                if not self.done.is_set() and self.server.alive():
                    continue
                return

    def _expect_200(self, path, email):
        """One request; any answer but 200 is recorded (and ends this round)."""
        status, _, raw = self.server.request(
            "POST", path, {"email": email, "password": PASSWORD}, self.server.anon_headers())
        if status != 200:
            with self.lock:
                self.unexpected.append((path, status, raw[:200]))
            raise OSError(f"{path} answered {status}")


class LifecycleTests(unittest.TestCase):
    """SIGTERM and SIGINT stop the server cleanly (exit 0) and free the port."""

    def test_sigterm_and_sigint_stop_cleanly(self):
        """Each signal: exit status 0 within 10 s, and nothing listens on the port after."""
        for stop in (signal.SIGTERM, signal.SIGINT):
            with self.subTest(signal=stop.name):
                server = Server().start()
                self.addCleanup(server.stop)
                raw = RawClient(server)
                self.assertEqual(raw.get_health(), 200)
                server.process.send_signal(stop)
                self.assertEqual(server.process.wait(10), 0, server.log_tail())
                with self.assertRaises(OSError):
                    raw.connect(2).close()


if __name__ == "__main__":
    unittest.main()

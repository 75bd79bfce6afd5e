"""Testing tools of `authflow serve`: time travel over HTTP (`/authflow/v1/clock`) and fixed
emailed codes (`--test-otp`), driven by the official Supabase Auth client where it can be.

The client judges expiry by its own `time.time()`, so after moving the server's clock a test
moves the client's by the same amount (unittest.mock on the client module's `time`)."""

import os
import subprocess
import tempfile
import time
import types
import unittest
import uuid
from unittest import mock

from supabase_auth import SyncGoTrueClient
from supabase_auth._sync import gotrue_client
from supabase_auth.errors import AuthApiError

from serve import Server, ServerTestCase, binary

PASSWORD = "correct-horse-battery"
CLOCK = "/authflow/v1/clock"


def unique_email(label):
    return f"{label}-{uuid.uuid4().hex[:12]}@example.com"


def client_clock_moved(seconds):
    """The client module's `time`, `seconds` ahead of the real one."""
    return mock.patch.object(
        gotrue_client, "time", types.SimpleNamespace(time=lambda: time.time() + seconds))


class ClientCase(ServerTestCase):
    # Requests move the clock only of a throw-away store, which no other process shares.
    STORE = ":memory:"

    def client(self):
        client = SyncGoTrueClient(url=self.server.url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        return client

    def advance(self, duration):
        status, reading = self.server.json("POST", CLOCK, {"advance": duration})
        self.assertEqual(status, 200, reading)
        return reading


class TimeTravelTests(ClientCase):
    OPTIONS = ("--autoconfirm",)

    def test_an_expired_session_is_refreshed_without_waiting(self):
        email = unique_email("travel")
        client = self.client()
        client.sign_up({"email": email, "password": PASSWORD})
        before = client.get_session()
        self.assertIsNotNone(before)
        reading = self.advance("2h")
        self.assertGreaterEqual(reading["offset_seconds"], 7200)
        self.server.wait_for_log(r"authflow serve: clock moved forward 2h to ")

        # The server refuses the old access token: its exp has passed on the server's clock.
        status, error = self.server.json(
            "GET", "/user", headers={"apikey": self.server.anon_key,
                                     "Authorization": f"Bearer {before.access_token}"})
        self.assertEqual(status, 403, error)
        self.assertEqual(error["error_code"], "bad_jwt")
        self.assertTrue(error["msg"].endswith("token is expired"), error)

        with client_clock_moved(reading["offset_seconds"]):
            after = client.get_session()
            self.assertNotEqual(after.access_token, before.access_token)
            self.assertNotEqual(after.refresh_token, before.refresh_token)
            self.assertEqual(client.get_user().user.email, email)

    def test_get_reads_the_moved_clock(self):
        _, first = self.server.json("GET", CLOCK)
        self.advance("90s")
        status, second = self.server.json("GET", CLOCK)
        self.assertEqual(status, 200)
        self.assertTrue(second["movable"])
        self.assertGreaterEqual(second["offset_seconds"] - first["offset_seconds"], 90)

    def test_set_to_the_past_is_refused_with_the_servers_time(self):
        status, error = self.server.json("POST", CLOCK, {"set": "2001-01-01T00:00:00Z"})
        self.assertEqual(status, 400, error)
        self.assertIn("the clock only moves forward: the server's time is ", error["msg"])


class FileStoreClockTests(unittest.TestCase):
    """A file store's clock moves only with --allow-clock."""

    def serve(self, *options):
        directory = tempfile.mkdtemp()
        server = Server(*options, store=os.path.join(directory, "auth.db")).start()
        self.addCleanup(server.stop)
        return server

    def test_refused_without_allow_clock(self):
        server = self.serve()
        status, _, body = server.request("POST", CLOCK, {"advance": "1h"})
        self.assertEqual(status, 403)
        self.assertIn(b"--store :memory:", body)
        self.assertIn(b"--allow-clock", body)

    def test_moves_with_allow_clock(self):
        server = self.serve("--allow-clock")
        status, reading = server.json("POST", CLOCK, {"advance": "1h"})
        self.assertEqual(status, 200, reading)
        self.assertEqual(reading["offset_seconds"], 3600)


class FixedCodeTests(ClientCase):
    ADDRESS = "ada@example.com"
    OPTIONS = ("--test-otp", "ada@example.com=123456")

    def test_the_fixed_code_verifies_once_and_comes_again(self):
        client = self.client()
        client.sign_up({"email": self.ADDRESS, "password": PASSWORD})
        message = self.server.latest_message_to(self.ADDRESS)
        self.assertEqual(self.server.code_in(message), "123456")
        verified = client.verify_otp(
            {"email": self.ADDRESS, "token": "123456", "type": "signup"})
        self.assertEqual(verified.user.email, self.ADDRESS)
        with self.assertRaises(AuthApiError) as second:
            client.verify_otp({"email": self.ADDRESS, "token": "123456", "type": "signup"})
        self.assertEqual(second.exception.status, 403)

        # A new request (past the minute between emails to one address) sends it again.
        self.advance("61s")
        client.sign_in_with_otp(
            {"email": self.ADDRESS, "options": {"should_create_user": False}})
        again = self.server.latest_message_to(self.ADDRESS, newer_than=message["ID"])
        self.assertEqual(self.server.code_in(again), "123456")
        signed_in = client.verify_otp({"email": self.ADDRESS, "token": "123456", "type": "email"})
        self.assertEqual(signed_in.user.email, self.ADDRESS)

        other = unique_email("other")
        client.sign_up({"email": other, "password": PASSWORD})
        self.assertNotEqual(self.server.code_in(self.server.latest_message_to(other)), "123456")
        self.assertFalse(any("123456" in line for line in self.server.log_lines()),
                         self.server.log_tail())

    def test_refused_beyond_loopback(self):
        finished = subprocess.run(
            [binary(), "serve", "--store", ":memory:", "--port", "0", "--host", "0.0.0.0",
             "--test-otp", "ada@example.com=123456"],
            capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        self.assertEqual(finished.returncode, 2, finished.stderr)
        self.assertEqual(finished.stdout, "")
        lines = finished.stderr.splitlines()
        self.assertEqual(len(lines), 1, finished.stderr)
        self.assertIn("only runs on loopback", lines[0])
        self.assertNotIn("123456", finished.stderr)


if __name__ == "__main__":
    unittest.main()

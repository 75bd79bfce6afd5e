"""`authflow serve --seed N`: one fixed clock for everything the server stamps, so the emails in
its outbox carry the same time as the tokens and the accounts (a seeded run is reproducible)."""

import base64
import json
import subprocess
import time
import unittest

from serve import Server, ServerTestCase, binary

SEEDED = "2025-01-01T00:00:00Z"
SEEDED_SECONDS = 1_735_689_600


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


class SeededClockTests(ServerTestCase):
    OPTIONS = ("--seed", "1")
    # A seed runs only on a throw-away store.
    STORE = ":memory:"

    def sign_up(self, email):
        status, user = self.server.json(
            "POST", "/signup", {"email": email, "password": "Password123"},
            self.server.anon_headers())
        self.assertEqual(status, 200, user)
        return user

    def test_emails_carry_the_seeded_time_like_the_tokens(self):
        user = self.sign_up("clock-a@example.com")
        message = self.server.latest_message_to("clock-a@example.com")
        summary = self.server.messages_to("clock-a@example.com")[0]
        status, session = self.server.json(
            "POST", "/token?grant_type=password",
            {"email": "test@example.com", "password": "TestPassword123!"},
            self.server.anon_headers())
        self.assertEqual(status, 200, session)
        self.assertEqual(claims(session["access_token"])["iat"], SEEDED_SECONDS)
        self.assertEqual(user["created_at"], SEEDED)
        self.assertEqual(user["confirmation_sent_at"], SEEDED)
        self.assertEqual(summary["Created"], SEEDED)
        self.assertEqual(message["Date"], SEEDED)

    def test_the_wall_clock_moving_on_changes_no_stamp(self):
        self.sign_up("clock-b@example.com")
        time.sleep(1.1)
        self.sign_up("clock-c@example.com")
        later = self.server.latest_message_to("clock-c@example.com")
        self.assertEqual(later["Date"], SEEDED)
        self.assertEqual(self.server.messages_to("clock-c@example.com")[0]["Created"], SEEDED)


class SeededKeysTests(unittest.TestCase):
    """A seed makes codes and the clock reproducible, never the keys: two servers started with
    the same seed sign with different secrets, so a key printed by one opens nothing of the
    other's, and a seeded server listens on loopback only."""

    def test_the_same_seed_gives_the_same_codes_and_different_keys(self):
        servers = [Server("--seed", "1", store=":memory:").start() for _ in range(2)]
        for server in servers:
            self.addCleanup(server.stop)
        self.assertNotEqual(servers[0].service_key, servers[1].service_key)
        self.assertNotEqual(servers[0].anon_key, servers[1].anon_key)
        status, refused = servers[1].json("GET", "/admin/users", headers={
            "apikey": servers[0].anon_key, "Authorization": f"Bearer {servers[0].service_key}"})
        self.assertEqual((status, refused["error_code"]), (403, "bad_jwt"),
                         "one seeded server's admin key opens another's admin API")
        codes = []
        for server in servers:
            status, answer = server.json("POST", "/recover", {"email": "test@example.com"},
                                         server.anon_headers())
            self.assertEqual(status, 200, answer)
            codes.append(server.code_in(server.latest_message_to("test@example.com")))
        self.assertEqual(codes[0], codes[1], "the seed still fixes the emailed codes")

    def test_a_seeded_server_listens_on_loopback_only(self):
        finished = subprocess.run(
            [binary(), "serve", "--store", ":memory:", "--seed", "1", "--host", "0.0.0.0",
             "--port", "0"], capture_output=True, text=True, timeout=30)
        self.assertEqual(finished.returncode, 2, finished.stderr)
        self.assertEqual(finished.stderr.count("\n"), 1, finished.stderr)
        self.assertIn("--seed", finished.stderr)
        self.assertIn("--host 0.0.0.0", finished.stderr)


if __name__ == "__main__":
    unittest.main()

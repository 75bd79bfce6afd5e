"""`authflow serve --seed N`: one fixed clock for everything the server stamps, so the emails in
its outbox carry the same time as the tokens and the accounts (a seeded run is reproducible)."""

import base64
import json
import time
import unittest

from serve import ServerTestCase

SEEDED = "2025-01-01T00:00:00Z"
SEEDED_SECONDS = 1_735_689_600


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


class SeededClockTests(ServerTestCase):
    OPTIONS = ("--seed", "1")

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


if __name__ == "__main__":
    unittest.main()

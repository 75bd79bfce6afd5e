"""`authflow serve`'s request rate limits, as GoTrue applies them, through the official Supabase
Auth client (supabase-auth 2.34.1) and plain httpx.

GoTrue (`performRateLimiting` in internal/api/middleware.go) counts requests per client, the
client named by the first comma-separated value of the header GOTRUE_RATE_LIMIT_HEADER names;
with no header configured it limits nothing, which is how supabase-py's own CI runs it. Each
limiter (internal/api/apilimiter) is a token bucket per client with a burst of 30. Listening
beyond loopback (serve keys by the peer address then) is tested in Swift (RouteLimitTests):
these tests stay on loopback.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_rate_limits
"""

import time
import unittest
import uuid

import httpx
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from serve import ServerTestCase

DEMO_EMAIL, DEMO_PASSWORD = "test@example.com", "TestPassword123!"
HEADER = "X-Client-IP"
BURST = 30  # GoTrue's burst for the OTP, token and verify limiters, whatever their rate
LOOP_SECONDS = 60.0  # no loop below runs longer, whatever the count
LIMIT_REACHED = {"code": 429, "error_code": "over_request_rate_limit",
                 "msg": "Request rate limit reached"}


def unique_email(label):
    """A fresh address, so no test meets another's per-address email gap."""
    return f"{label}-{uuid.uuid4().hex[:12]}@example.com"


def bounded(count):
    """range(count), stopping with a failure when the loop runs past LOOP_SECONDS."""
    deadline = time.monotonic() + LOOP_SECONDS
    for index in range(count):
        if time.monotonic() > deadline:
            raise AssertionError(f"only {index} of {count} requests within {LOOP_SECONDS} s")
        yield index


class RateLimitCase(ServerTestCase):
    """Starts one server per class with OPTIONS; gives clients that send chosen headers."""

    def client(self, client_key=None):
        """The Supabase client, sending `client_key` in HEADER when given."""
        headers = self.server.anon_headers()
        if client_key is not None:
            headers[HEADER] = client_key
        client = SyncGoTrueClient(url=self.server.url, headers=headers, auto_refresh_token=False)
        self.addCleanup(client.close)
        return client

    def http(self, client_key=None):
        """Plain httpx (GoTrue's legacy error shape: no API version header)."""
        headers = self.server.anon_headers()
        if client_key is not None:
            headers[HEADER] = client_key
        http = httpx.Client(base_url=self.server.url, headers=headers, timeout=10)
        self.addCleanup(http.close)
        return http

    def assertLimited(self, raised):
        """The client's error for GoTrue's 429 over_request_rate_limit."""
        error = raised.exception
        self.assertEqual((error.status, error.code, error.message),
                         (429, "over_request_rate_limit", "Request rate limit reached"),
                         error.to_dict())


class NoHeaderTests(RateLimitCase):
    """Default serve on loopback: no request is limited, as in GoTrue without a header. The
    hourly budget of emails (a limit GoTrue keeps too, and serve counts for unknown addresses
    as well, so as not to tell who has an account) is raised so that only request limits are
    measured."""

    OPTIONS = ("--rate-limit-email-sent", "1000")
    COUNT = 2 * BURST + 100  # past a burst, and the shell engine's store-wide 150 sign-ins

    def test_sign_ins_in_a_row_are_never_limited(self):
        client = self.client()
        for _ in bounded(self.COUNT):
            response = client.sign_in_with_password(
                {"email": DEMO_EMAIL, "password": DEMO_PASSWORD})
            self.assertEqual(response.user.email, DEMO_EMAIL)

    def test_verifies_in_a_row_are_never_limited(self):
        client = self.client()
        for index in bounded(2 * BURST):
            with self.assertRaises(AuthApiError) as raised:
                client.verify_otp({"token_hash": f"{index:056x}", "type": "email"})
            self.assertEqual((raised.exception.status, raised.exception.code),
                             (403, "otp_expired"))

    def test_recoveries_in_a_row_are_never_limited(self):
        client = self.client()
        for _ in bounded(2 * BURST):
            self.assertIsNone(client.reset_password_for_email(unique_email("recover")))

    def test_a_client_header_changes_nothing_when_none_is_configured(self):
        client = self.client("one-client")
        for _ in bounded(2 * BURST):
            client.reset_password_for_email(unique_email("recover"))


class HeaderKeyedTests(RateLimitCase):
    """With --rate-limit-header, each value of the header is a client with its own budgets.
    The rates are 1 per 5 minutes, so no request comes back during a test: each client gets
    GoTrue's burst of 30 and no more."""

    OPTIONS = ("--rate-limit-header", HEADER, "--rate-limit-otp", "1", "--rate-limit-verify", "1",
               "--rate-limit-token-refresh", "1", "--rate-limit-email-sent", "1000")

    def fresh_key(self):
        """A client no other test has used."""
        return f"client-{uuid.uuid4().hex[:8]}"

    def test_recoveries_spend_only_the_clients_own_budget(self):
        key = self.fresh_key()
        spender = self.client(key)
        for _ in bounded(BURST):
            spender.reset_password_for_email(unique_email("recover"))
        with self.assertRaises(AuthApiError) as raised:
            spender.reset_password_for_email(unique_email("recover"))
        self.assertLimited(raised)
        # The first comma-separated value names the client, as a proxy's list does.
        answer = self.http(f"{key}, 10.0.0.1").post("/recover", json={"email": unique_email("r")})
        self.assertEqual((answer.status_code, answer.json()), (429, LIMIT_REACHED))
        self.assertEqual(answer.headers["x-sb-error-code"], "over_request_rate_limit")

        self.assertIsNone(self.client(self.fresh_key()).reset_password_for_email(unique_email("r")))
        self.assertIsNone(self.client().reset_password_for_email(unique_email("r")),
                          "a request without the header is not limited")
        # Another route's budget is its own: the spent client can still sign in.
        self.client(key).sign_in_with_password({"email": DEMO_EMAIL, "password": DEMO_PASSWORD})

    def test_sign_ins_spend_only_the_clients_own_budget(self):
        key = self.fresh_key()
        spender = self.client(key)
        for _ in bounded(BURST):
            spender.sign_in_with_password({"email": DEMO_EMAIL, "password": DEMO_PASSWORD})
        with self.assertRaises(AuthApiError) as raised:
            spender.sign_in_with_password({"email": DEMO_EMAIL, "password": DEMO_PASSWORD})
        self.assertLimited(raised)
        with self.assertRaises(AuthApiError) as raised:
            spender.sign_in_with_password({"email": DEMO_EMAIL, "password": "a wrong one"})
        self.assertLimited(raised)
        other = self.client(self.fresh_key())
        other.sign_in_with_password({"email": DEMO_EMAIL, "password": DEMO_PASSWORD})
        self.client().sign_in_with_password({"email": DEMO_EMAIL, "password": DEMO_PASSWORD})

    def test_verifies_are_limited_per_client_and_the_link_answers_json(self):
        key = self.fresh_key()
        spender = self.client(key)
        for index in bounded(BURST):
            with self.assertRaises(AuthApiError) as raised:
                spender.verify_otp({"token_hash": f"{index:056x}", "type": "email"})
            self.assertEqual(raised.exception.code, "otp_expired")
        with self.assertRaises(AuthApiError) as raised:
            spender.verify_otp({"token_hash": "0" * 56, "type": "email"})
        self.assertLimited(raised)
        # The emailed link too: over the limit GoTrue's middleware answers JSON, no redirect.
        link = self.http(key).get("/verify", params={"token": "0" * 56, "type": "signup"})
        self.assertEqual((link.status_code, link.json()), (429, LIMIT_REACHED))
        fresh = self.http(self.fresh_key()).get("/verify",
                                                params={"token": "0" * 56, "type": "signup"})
        self.assertEqual(fresh.status_code, 303)


if __name__ == "__main__":
    unittest.main()

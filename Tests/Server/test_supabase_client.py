"""`authflow serve` driven by the official Supabase Auth client (supabase-auth 2.34.1).

Every call goes through `SyncGoTrueClient` / `SyncGoTrueAdminAPI` (and the async twins where
they add something), so an answer the client cannot parse fails the test: the client raises
pydantic's ValidationError for a 2xx body that fits none of its models, and AuthUnknownError for
an error body that is not GoTrue's JSON. The values are then checked against GoTrue's behaviour
(supabase/auth, internal/api). What the client does not expose (the GET /verify redirect,
the two error shapes, /health, /settings, features that are off) is checked with plain httpx.

Each class starts its own server (`serve.Server`) with the options it needs, and every test
makes its own users, so tests do not depend on each other's order.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest discover -s Tests/Server
"""

import asyncio
import hashlib
import time
import unittest
import urllib.parse
import uuid

import httpx
from supabase_auth import (
    AsyncGoTrueAdminAPI,
    AsyncGoTrueClient,
    SyncGoTrueAdminAPI,
    SyncGoTrueClient,
)
from supabase_auth.errors import AuthApiError, AuthWeakPasswordError
from supabase_auth.types import AuthOtpResponse, AuthResponse, Session, User, UserResponse

from serve import ServerTestCase, claims

DEMO_EMAIL, DEMO_PASSWORD = "test@example.com", "TestPassword123!"
UNCONFIRMED_EMAIL, UNCONFIRMED_PASSWORD = "unverified@example.com", "Test1234"
PASSWORD = "correct-horse-battery"
SITE_URL = "http://127.0.0.1:3000"
API_VERSION = {"X-Supabase-Api-Version": "2024-01-01"}


def unique_email(label):
    """A fresh address per test, so no test sees another's user, mail or rate limit."""
    return f"{label}-{uuid.uuid4().hex[:12]}@example.com"


def gotrue_token_hash(email, code):
    """GoTrue's own token hash, hex(sha224(email + code)): computable from the address and a
    guessed code, so the server's links carry a keyed hash of the same shape instead."""
    return hashlib.sha224((email + code).encode()).hexdigest()


class ServerCase(ServerTestCase):
    """Starts one server per class with OPTIONS; gives clients bound to it (URL + PREFIX)."""

    PREFIX = ""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.base_url = cls.server.url + cls.PREFIX

    # -- clients ------------------------------------------------------------------------------

    def client(self):
        """A client as an app builds it: the anon key as apikey and Bearer. No auto-refresh
        timer: a background refresh would make requests the test did not ask for."""
        client = SyncGoTrueClient(url=self.base_url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        return client

    def admin(self, headers=None):
        """The admin API with the service_role key (or the given headers)."""
        if headers is None:
            headers = self.server.service_headers()
        admin = SyncGoTrueAdminAPI(url=self.base_url, headers=headers)
        self.addCleanup(admin.close)
        return admin

    def http(self):
        """Plain httpx for what the client does not expose; redirects are not followed."""
        http = httpx.Client(base_url=self.base_url, headers=self.server.anon_headers(), timeout=10)
        self.addCleanup(http.close)
        return http

    # -- users --------------------------------------------------------------------------------

    def confirmed_user(self, label="user", password=PASSWORD):
        """A confirmed user made through the admin API (no email sent); returns (email, User)."""
        email = unique_email(label)
        user = self.admin().create_user(
            {"email": email, "password": password, "email_confirm": True}).user
        return email, user

    def signed_in(self, label="user"):
        """A fresh confirmed user and a client holding their session; returns (client, email)."""
        email, _ = self.confirmed_user(label)
        client = self.client()
        client.sign_in_with_password({"email": email, "password": PASSWORD})
        return client, email

    # -- assertions ---------------------------------------------------------------------------

    def assertApiError(self, raised, status, code, message=None):
        """The AuthApiError the client built from GoTrue's error JSON has this status and code
        (code is only set when the server answers the 2024-01-01 shape with its header)."""
        error = raised.exception
        self.assertEqual((error.status, error.code), (status, code), error.to_dict())
        if message is not None:
            self.assertEqual(error.message, message)

    def assertSession(self, session, email):
        """A whole GoTrue session for `email`: bearer JWT for that user, ~1 h, a refresh token."""
        self.assertIsInstance(session, Session)
        self.assertEqual(session.token_type, "bearer")
        self.assertTrue(3500 <= session.expires_in <= 3600, session.expires_in)
        self.assertAlmostEqual(session.expires_at, time.time() + session.expires_in, delta=120)
        self.assertTrue(session.refresh_token)
        self.assertEqual(session.user.email, email)
        token = claims(session.access_token)
        self.assertEqual(token["sub"], session.user.id)
        self.assertEqual(token["email"], email)
        self.assertEqual(token["role"], "authenticated")
        self.assertEqual(token["aud"], "authenticated")
        self.assertEqual(token["exp"] - token["iat"], 3600)
        self.assertTrue(token["session_id"])

    def assertEmailUser(self, user, email, confirmed):
        """A GoTrue email user: UUID id, email provider metadata, one email identity."""
        self.assertIsInstance(user, User)
        uuid.UUID(user.id)
        self.assertEqual(user.email, email)
        self.assertEqual(user.aud, "authenticated")
        self.assertEqual(user.role, "authenticated")
        self.assertEqual(user.app_metadata.get("provider"), "email")
        self.assertEqual(user.app_metadata.get("providers"), ["email"])
        self.assertEqual(user.email_confirmed_at is not None, confirmed, user.email_confirmed_at)
        self.assertEqual([i.provider for i in user.identities], ["email"])
        identity = user.identities[0]
        self.assertEqual(identity.user_id, user.id)
        self.assertEqual(identity.identity_data.get("email"), email)
        self.assertEqual(identity.identity_data.get("sub"), user.id)

    def mail_code(self, email):
        """The newest mail to `email` (polled), and the code it carries."""
        message = self.server.latest_message_to(email)
        code = self.server.code_in(message)
        return message, code


# ================================================================================= sign up


class SignUpWithAutoconfirmTests(ServerCase):
    """--autoconfirm (what `supabase start` runs): sign-up signs in at once, no mail."""

    OPTIONS = ("--autoconfirm",)

    def test_sign_up_returns_a_session_and_saves_it(self):
        """The client takes a Session answer as "signed in" and stores it."""
        client, email = self.client(), unique_email("auto")
        response = client.sign_up(
            {"email": email, "password": PASSWORD, "options": {"data": {"name": "Ada"}}})
        self.assertIsInstance(response, AuthResponse)
        self.assertSession(response.session, email)
        self.assertEmailUser(response.user, email, confirmed=True)
        self.assertEqual(response.user.user_metadata.get("name"), "Ada")
        self.assertEqual(client.get_session().access_token, response.session.access_token)
        self.assertEqual(self.server.messages_to(email), [], "autoconfirm sends no confirmation")

    def test_duplicate_sign_up_is_user_already_exists(self):
        """With autoconfirm a second sign-up is a 422 the client exposes as .code."""
        email = unique_email("dup")
        self.client().sign_up({"email": email, "password": PASSWORD})
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_up({"email": email, "password": PASSWORD})
        self.assertApiError(raised, 422, "user_already_exists", "User already registered")

    def test_weak_password_is_auth_weak_password_error_with_reasons(self):
        """GoTrue's weak_password error carries reasons; without them the client breaks."""
        with self.assertRaises(AuthWeakPasswordError) as raised:
            self.client().sign_up({"email": unique_email("weak"), "password": "abc"})
        error = raised.exception
        self.assertEqual((error.status, error.code, error.reasons),
                         (422, "weak_password", ["length"]))
        self.assertEqual(error.message, "Password should be at least 6 characters.")

    def test_settings_say_autoconfirm(self):
        """/settings tells clients that sign-up signs in directly."""
        answer = self.http().get("/settings")
        self.assertEqual(answer.status_code, 200)
        self.assertIs(answer.json()["mailer_autoconfirm"], True)


class SignUpWithConfirmationTests(ServerCase):
    """Default mode: sign-up answers the bare user and mails a code and a link."""

    def test_sign_up_returns_the_user_and_mails_a_code_and_link(self):
        """No session; the mail's link carries a token of GoTrue's shape that the address and
        code alone cannot give."""
        client, email = self.client(), unique_email("confirm")
        response = client.sign_up({"email": email, "password": PASSWORD})
        self.assertIsNone(response.session)
        self.assertIsNone(client.get_session())
        self.assertEmailUser(response.user, email, confirmed=False)
        self.assertIsNotNone(response.user.confirmation_sent_at)
        message, code = self.mail_code(email)
        self.assertEqual([to["Address"] for to in message["To"]], [email])
        link = urllib.parse.urlsplit(self.server.link_in(message))
        query = urllib.parse.parse_qs(link.query)
        self.assertEqual(link.path, "/verify")
        self.assertEqual(query["type"], ["signup"])
        self.assertRegex(query["token"][0], r"^[0-9a-f]{56}$")
        self.assertNotEqual(query["token"], [gotrue_token_hash(email, code)])

    def test_unconfirmed_sign_in_is_email_not_confirmed(self):
        """Right password, unconfirmed email: 400 email_not_confirmed."""
        email = unique_email("early")
        self.client().sign_up({"email": email, "password": PASSWORD})
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertApiError(raised, 400, "email_not_confirmed", "Email not confirmed")

    def test_verify_otp_with_the_mailed_code_confirms_and_signs_in(self):
        """verify_otp(email, token, type=signup) answers a session; then sign-in works."""
        client, email = self.client(), unique_email("code")
        client.sign_up({"email": email, "password": PASSWORD})
        _, code = self.mail_code(email)
        response = client.verify_otp({"email": email, "token": code, "type": "signup"})
        self.assertSession(response.session, email)
        self.assertEmailUser(response.user, email, confirmed=True)
        self.assertIs(response.user.user_metadata.get("email_verified"), True)
        self.assertEqual(client.get_session().access_token, response.session.access_token)
        signed_in = self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertSession(signed_in.session, email)

    def test_verify_otp_with_the_token_hash_from_the_link(self):
        """The link's token works as token_hash, once."""
        client, email = self.client(), unique_email("hash")
        client.sign_up({"email": email, "password": PASSWORD})
        hashed = self.server.token_hash_in(self.server.latest_message_to(email))
        response = client.verify_otp({"token_hash": hashed, "type": "signup"})
        self.assertSession(response.session, email)
        with self.assertRaises(AuthApiError) as raised:
            self.client().verify_otp({"token_hash": hashed, "type": "signup"})
        self.assertApiError(raised, 403, "otp_expired")

    def test_wrong_code_is_otp_expired(self):
        """GoTrue does not tell a wrong code from an expired one."""
        client, email = self.client(), unique_email("wrong")
        client.sign_up({"email": email, "password": PASSWORD})
        _, code = self.mail_code(email)
        wrong = f"{(int(code) + 1) % 1_000_000:06d}"
        with self.assertRaises(AuthApiError) as raised:
            client.verify_otp({"email": email, "token": wrong, "type": "signup"})
        self.assertApiError(raised, 403, "otp_expired", "Token has expired or is invalid")

    def test_duplicate_of_a_confirmed_user_is_a_user_without_identities(self):
        """GoTrue hides that the address is taken: 200, a fake user, identities [], no mail."""
        email, real = self.confirmed_user("taken")
        response = self.client().sign_up({"email": email, "password": "another-password"})
        self.assertIsNone(response.session)
        self.assertEqual(response.user.identities, [])
        self.assertEqual(response.user.email, email)
        self.assertNotEqual(response.user.id, real.id)
        self.assertEqual(self.server.messages_to(email), [])

    def test_duplicate_of_the_demo_account(self):
        """The demo account is a confirmed user like any other."""
        response = self.client().sign_up({"email": DEMO_EMAIL, "password": "another-password"})
        self.assertIsNone(response.session)
        self.assertEqual(response.user.identities, [])

    def test_resend_signup_mails_a_new_code(self):
        """resend(type=signup) answers {} (AuthOtpResponse) and mails a code that verifies;
        an immediate second resend is inside GoTrue's 60 s per-address gap: 429."""
        email = unique_email("resend")
        self.admin().create_user({"email": email, "password": PASSWORD})  # unconfirmed, no mail
        client = self.client()
        response = client.resend({"type": "signup", "email": email})
        self.assertIsInstance(response, AuthOtpResponse)
        _, code = self.mail_code(email)
        with self.assertRaises(AuthApiError) as raised:
            client.resend({"type": "signup", "email": email})
        self.assertApiError(raised, 429, "over_email_send_rate_limit")
        verified = client.verify_otp({"email": email, "token": code, "type": "signup"})
        self.assertSession(verified.session, email)

    def test_reset_password_then_verify_recovery_code_then_new_password(self):
        """The recovery mail's code signs in (type=recovery); the new password then works."""
        email, _ = self.confirmed_user("recover")
        client = self.client()
        self.assertIsNone(client.reset_password_for_email(email))
        message, code = self.mail_code(email)
        self.assertEqual(urllib.parse.parse_qs(
            urllib.parse.urlsplit(self.server.link_in(message)).query)["type"], ["recovery"])
        response = client.verify_otp({"email": email, "token": code, "type": "recovery"})
        self.assertSession(response.session, email)
        client.update_user({"password": "a-brand-new-password"})
        signed_in = self.client().sign_in_with_password(
            {"email": email, "password": "a-brand-new-password"})
        self.assertSession(signed_in.session, email)
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertApiError(raised, 400, "invalid_credentials")

    def test_reset_password_for_an_unknown_address_says_nothing(self):
        """GoTrue answers 200 {} for unknown users (no account probing) and mails nothing."""
        email = unique_email("nobody")
        self.assertIsNone(self.client().reset_password_for_email(email))
        self.assertEqual(self.server.messages_to(email), [])

    def test_sign_in_with_otp_for_an_existing_user(self):
        """sign_in_with_otp mails a code; verify_otp(type=email) answers the user's session."""
        email, user = self.confirmed_user("otp")
        client = self.client()
        self.assertIsInstance(client.sign_in_with_otp({"email": email}), AuthOtpResponse)
        _, code = self.mail_code(email)
        response = client.verify_otp({"email": email, "token": code, "type": "email"})
        self.assertSession(response.session, email)
        self.assertEqual(response.user.id, user.id)

    def test_sign_in_with_otp_creates_a_new_user(self):
        """With create_user (the default) an unknown address becomes a user, confirmed by the
        code."""
        email, client = unique_email("otpnew"), self.client()
        client.sign_in_with_otp({"email": email})
        _, code = self.mail_code(email)
        response = client.verify_otp({"email": email, "token": code, "type": "email"})
        self.assertSession(response.session, email)
        self.assertEmailUser(response.user, email, confirmed=True)

    def test_sign_in_with_otp_without_create_user_is_otp_disabled(self):
        """should_create_user=False and an unknown address: 422 otp_disabled, no mail."""
        email = unique_email("otpnone")
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_otp(
                {"email": email, "options": {"should_create_user": False}})
        self.assertApiError(raised, 422, "otp_disabled")
        self.assertEqual(self.server.messages_to(email), [])


# ================================================================================= sessions


class SessionTests(ServerCase):
    """Sign in, the user, refresh (default reuse interval 10 s), sign out."""

    def test_sign_in_with_password(self):
        """A session for the demo account, stored by the client."""
        client = self.client()
        response = client.sign_in_with_password({"email": DEMO_EMAIL, "password": DEMO_PASSWORD})
        self.assertSession(response.session, DEMO_EMAIL)
        self.assertEmailUser(response.user, DEMO_EMAIL, confirmed=True)
        self.assertIsNotNone(response.user.last_sign_in_at)
        self.assertEqual(claims(response.session.access_token)["amr"][0]["method"], "password")
        self.assertEqual(client.get_session().refresh_token, response.session.refresh_token)

    def test_email_is_matched_without_case(self):
        """GoTrue lower-cases the address it looks up."""
        response = self.client().sign_in_with_password(
            {"email": DEMO_EMAIL.upper(), "password": DEMO_PASSWORD})
        self.assertEqual(response.user.email, DEMO_EMAIL)

    def test_wrong_password_is_invalid_credentials(self):
        """400 invalid_credentials, exposed as AuthApiError.code."""
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_password({"email": DEMO_EMAIL, "password": "not-it"})
        self.assertApiError(raised, 400, "invalid_credentials", "Invalid login credentials")

    def test_unknown_email_is_invalid_credentials(self):
        """The same answer as a wrong password: no account probing."""
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_password(
                {"email": unique_email("ghost"), "password": PASSWORD})
        self.assertApiError(raised, 400, "invalid_credentials", "Invalid login credentials")

    def test_unconfirmed_demo_account(self):
        """email_not_confirmed only after the right password; a wrong one stays invalid."""
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_password(
                {"email": UNCONFIRMED_EMAIL, "password": UNCONFIRMED_PASSWORD})
        self.assertApiError(raised, 400, "email_not_confirmed", "Email not confirmed")
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_password(
                {"email": UNCONFIRMED_EMAIL, "password": "nope-nope"})
        self.assertApiError(raised, 400, "invalid_credentials")

    def test_get_user_from_the_session_and_from_a_jwt(self):
        """GET /user with the stored session's token, and with an explicit one."""
        client, email = self.signed_in("getuser")
        response = client.get_user()
        self.assertIsInstance(response, UserResponse)
        self.assertEmailUser(response.user, email, confirmed=True)
        explicit = self.client().get_user(client.get_session().access_token)
        self.assertEqual(explicit.user.id, response.user.id)

    def test_get_user_with_the_anon_key_or_junk_is_bad_jwt(self):
        """The anon key has no sub; junk does not parse: both 403 bad_jwt."""
        for token in (self.server.anon_key, "not.a.jwt"):
            with self.subTest(token=token[:12]), self.assertRaises(AuthApiError) as raised:
                self.client().get_user(token)
            self.assertApiError(raised, 403, "bad_jwt")

    def test_update_user_password(self):
        """PUT /user {password}: the new password signs in, the old one no longer does."""
        client, email = self.signed_in("newpass")
        response = client.update_user({"password": "another-good-password"})
        self.assertEqual(response.user.email, email)
        self.assertSession(self.client().sign_in_with_password(
            {"email": email, "password": "another-good-password"}).session, email)
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertApiError(raised, 400, "invalid_credentials")

    def test_update_user_same_or_weak_password(self):
        """422 same_password; a short one is AuthWeakPasswordError like at sign-up."""
        client, _ = self.signed_in("samepass")
        with self.assertRaises(AuthApiError) as raised:
            client.update_user({"password": PASSWORD})
        self.assertApiError(raised, 422, "same_password")
        with self.assertRaises(AuthWeakPasswordError) as weak:
            client.update_user({"password": "abc"})
        self.assertEqual(weak.exception.reasons, ["length"])

    def test_update_user_data_merges_and_null_deletes(self):
        """`data` merges into user_metadata key by key; a null value deletes the key."""
        client, _ = self.signed_in("data")
        first = client.update_user({"data": {"theme": "dark", "lang": "en", "size": 3}})
        before = first.user.user_metadata
        self.assertEqual({key: before.get(key) for key in ("theme", "lang", "size")},
                         {"theme": "dark", "lang": "en", "size": 3})
        response = client.update_user({"data": {"lang": None, "size": 4, "new": [1, 2]}})
        metadata = response.user.user_metadata
        expected = {key: value for key, value in before.items() if key != "lang"}
        self.assertEqual(metadata, {**expected, "size": 4, "new": [1, 2]})
        self.assertEqual(client.get_session().user.user_metadata, metadata)
        self.assertEqual(client.get_user().user.user_metadata, metadata)

    def test_refresh_rotates_the_refresh_token(self):
        """refresh_session() answers a new session for the same user and stores it."""
        client, email = self.signed_in("refresh")
        first = client.get_session()
        response = client.refresh_session()
        self.assertSession(response.session, email)
        self.assertNotEqual(response.session.refresh_token, first.refresh_token)
        self.assertEqual(claims(response.session.access_token)["session_id"],
                         claims(first.access_token)["session_id"])
        self.assertEqual(client.get_session().refresh_token, response.session.refresh_token)

    def test_reusing_a_rotated_token_within_the_interval_gives_the_same_session(self):
        """Inside the reuse interval (10 s here) the parent of the active token answers that
        active token again: two tabs refreshing at once both stay signed in."""
        client, _ = self.signed_in("reuse")
        parent = client.get_session().refresh_token
        rotated = self.client().refresh_session(parent).session
        again = self.client().refresh_session(parent).session
        self.assertEqual(again.refresh_token, rotated.refresh_token)
        self.assertEqual(claims(again.access_token)["session_id"],
                         claims(rotated.access_token)["session_id"])

    def test_unknown_refresh_token_is_refresh_token_not_found(self):
        """400 refresh_token_not_found."""
        with self.assertRaises(AuthApiError) as raised:
            self.client().refresh_session("no-such-refresh-token-at-all")
        self.assertApiError(raised, 400, "refresh_token_not_found",
                            "Invalid Refresh Token: Refresh Token Not Found")

    def test_sign_out_ends_the_session(self):
        """After sign_out the access token is refused and the refresh token unknown."""
        client, _ = self.signed_in("bye")
        session = client.get_session()
        client.sign_out()
        self.assertIsNone(client.get_session())
        with self.assertRaises(AuthApiError) as raised:
            self.client().get_user(session.access_token)
        self.assertApiError(raised, 403, "session_not_found")
        with self.assertRaises(AuthApiError) as raised:
            self.client().refresh_session(session.refresh_token)
        self.assertApiError(raised, 400, "refresh_token_not_found")

    def test_sign_out_others_keeps_this_session(self):
        """scope=others ends the user's other sessions only."""
        email, _ = self.confirmed_user("others")
        here, there = self.client(), self.client()
        for client in (here, there):
            client.sign_in_with_password({"email": email, "password": PASSWORD})
        elsewhere = there.get_session()
        here.sign_out({"scope": "others"})
        self.assertEqual(here.get_user().user.email, email)
        with self.assertRaises(AuthApiError) as raised:
            self.client().get_user(elsewhere.access_token)
        self.assertApiError(raised, 403, "session_not_found")

    def test_async_client_same_flow(self):
        """The async client (a line-for-line copy) against the same server."""
        email, user = self.confirmed_user("async")
        users, fetched, session = asyncio.run(self._async_flow(email))
        self.assertSession(session, email)
        self.assertEqual(fetched.user.id, user.id)
        self.assertIn(user.id, [u.id for u in users])

    async def _async_flow(self, email):
        """Sign in, get_user, sign_out, then the admin list; returns what the checks need."""
        async with AsyncGoTrueClient(url=self.base_url, headers=self.server.anon_headers(),
                                     auto_refresh_token=False) as client:
            signed_in = await client.sign_in_with_password({"email": email, "password": PASSWORD})
            fetched = await client.get_user()
            await client.sign_out()
            if await client.get_session() is not None:
                raise AssertionError("the async client kept its session after sign_out")
        async with AsyncGoTrueAdminAPI(url=self.base_url,
                                       headers=self.server.service_headers()) as admin:
            users = await admin.list_users()
        return users, fetched, signed_in.session


class RefreshTokenReuseTests(ServerCase):
    """--refresh-token-reuse-interval 0: any reuse of a rotated token is an attack."""

    OPTIONS = ("--refresh-token-reuse-interval", "0")

    def test_reusing_a_rotated_token_is_refresh_token_already_used(self):
        """400 refresh_token_already_used, and the session's tokens are revoked with it."""
        client = self.client()
        email, _ = self.confirmed_user("replay")
        parent = client.sign_in_with_password(
            {"email": email, "password": PASSWORD}).session.refresh_token
        rotated = self.client().refresh_session(parent).session.refresh_token
        with self.assertRaises(AuthApiError) as raised:
            self.client().refresh_session(parent)
        self.assertApiError(raised, 400, "refresh_token_already_used",
                            "Invalid Refresh Token: Already Used")
        with self.assertRaises(AuthApiError) as raised:
            self.client().refresh_session(rotated)
        self.assertEqual(raised.exception.status, 400, raised.exception.to_dict())


# ================================================================================= admin


class AdminTests(ServerCase):
    """The admin API with the service_role key."""

    def test_create_user_confirmed_with_metadata(self):
        """POST /admin/users: metadata kept, provider keys merged into app_metadata."""
        email = unique_email("admin")
        user = self.admin().create_user({
            "email": email, "password": PASSWORD, "email_confirm": True,
            "user_metadata": {"name": "Ada"}, "app_metadata": {"plan": "pro"}}).user
        self.assertEmailUser(user, email, confirmed=True)
        self.assertEqual(user.user_metadata.get("name"), "Ada")
        self.assertEqual(user.app_metadata.get("plan"), "pro")
        signed_in = self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertEqual(signed_in.user.id, user.id)

    def test_create_user_without_email_confirm_is_unconfirmed(self):
        """No email_confirm: the user exists but cannot sign in yet, and no mail is sent."""
        email = unique_email("pending")
        user = self.admin().create_user({"email": email, "password": PASSWORD}).user
        self.assertEmailUser(user, email, confirmed=False)
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertApiError(raised, 400, "email_not_confirmed")
        self.assertEqual(self.server.messages_to(email), [])

    def test_create_duplicate_is_email_exists(self):
        """422 email_exists."""
        email, _ = self.confirmed_user("twice")
        with self.assertRaises(AuthApiError) as raised:
            self.admin().create_user({"email": email, "password": PASSWORD})
        self.assertApiError(raised, 422, "email_exists",
                            "A user with this email address has already been registered")

    def test_list_users_with_default_params(self):
        """list_users() sends ?page=&per_page= (empty): the defaults, every user here."""
        _, user = self.confirmed_user("listed")
        users = self.admin().list_users()
        emails = [u.email for u in users]
        self.assertIn(user.id, [u.id for u in users])
        self.assertIn(DEMO_EMAIL, emails)
        self.assertIn(UNCONFIRMED_EMAIL, emails)
        self.assertEqual(len(set(u.id for u in users)), len(users))
        created = [u.created_at for u in users]
        self.assertEqual(created, sorted(created, reverse=True), "GoTrue: created_at desc")

    def test_list_users_pagination(self):
        """page/per_page slice the same list: each user once, then an empty page."""
        for label in ("page-a", "page-b", "page-c"):
            self.confirmed_user(label)
        admin = self.admin()
        everyone = [u.id for u in admin.list_users()]
        self.assertGreaterEqual(len(everyone), 5)
        self.assertLess(len(everyone), 50, "the default page must hold them all")
        one_by_one = [u.id for page in range(1, len(everyone) + 1)
                      for u in admin.list_users(page=page, per_page=1)]
        self.assertEqual(one_by_one, everyone)
        self.assertEqual([u.id for u in admin.list_users(page=1, per_page=2)], everyone[:2])
        self.assertEqual([u.id for u in admin.list_users(page=2, per_page=2)], everyone[2:4])
        self.assertEqual(admin.list_users(page=len(everyone) + 1, per_page=1), [])

    def test_get_user_by_id(self):
        """GET /admin/users/{id}: the same user; an unknown id is 404 user_not_found."""
        email, user = self.confirmed_user("byid")
        fetched = self.admin().get_user_by_id(user.id).user
        self.assertEmailUser(fetched, email, confirmed=True)
        self.assertEqual(fetched.id, user.id)
        with self.assertRaises(AuthApiError) as raised:
            self.admin().get_user_by_id(str(uuid.uuid4()))
        self.assertApiError(raised, 404, "user_not_found", "User not found")

    def test_update_user_by_id(self):
        """PUT merges user_metadata (null deletes), confirms, and sets the password."""
        email = unique_email("update")
        admin = self.admin()
        user = admin.create_user(
            {"email": email, "password": PASSWORD, "user_metadata": {"a": 1, "b": 2}}).user
        updated = admin.update_user_by_id(user.id, {
            "user_metadata": {"a": None, "c": 3}, "email_confirm": True,
            "password": "password-set-by-admin"}).user
        self.assertEqual(updated.id, user.id)
        self.assertNotIn("a", updated.user_metadata)
        self.assertEqual((updated.user_metadata.get("b"), updated.user_metadata.get("c")), (2, 3))
        self.assertIsNotNone(updated.email_confirmed_at)
        self.assertEqual(admin.get_user_by_id(user.id).user.user_metadata, updated.user_metadata)
        signed_in = self.client().sign_in_with_password(
            {"email": email, "password": "password-set-by-admin"})
        self.assertEqual(signed_in.user.id, user.id)

    def test_delete_user(self):
        """DELETE, then the user is gone: 404 on get and on a second delete, no sign-in."""
        email, user = self.confirmed_user("delete")
        admin = self.admin()
        self.assertIsNone(admin.delete_user(user.id))
        with self.assertRaises(AuthApiError) as raised:
            admin.get_user_by_id(user.id)
        self.assertApiError(raised, 404, "user_not_found")
        with self.assertRaises(AuthApiError) as raised:
            admin.delete_user(user.id)
        self.assertApiError(raised, 404, "user_not_found")
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertApiError(raised, 400, "invalid_credentials")

    def test_generate_link_recovery(self):
        """generate_link answers the user plus the link properties, and the hash verifies."""
        email, user = self.confirmed_user("genlink")
        response = self.admin().generate_link({"type": "recovery", "email": email})
        properties = response.properties
        self.assertEqual(response.user.id, user.id)
        self.assertRegex(properties.email_otp, r"^\d{6}$")
        self.assertRegex(properties.hashed_token, r"^[0-9a-f]{56}$")
        self.assertNotEqual(
            properties.hashed_token, gotrue_token_hash(email, properties.email_otp))
        self.assertEqual(properties.verification_type, "recovery")
        self.assertIn(f"token={properties.hashed_token}", properties.action_link)
        verified = self.client().verify_otp(
            {"token_hash": properties.hashed_token, "type": "recovery"})
        self.assertSession(verified.session, email)

    def test_anon_key_is_not_admin(self):
        """The anon key, and client.admin (which copies the client's anon headers): 403."""
        anon = self.admin(headers=self.server.anon_headers())
        with self.assertRaises(AuthApiError) as raised:
            anon.list_users()
        self.assertApiError(raised, 403, "not_admin", "User not allowed")
        with self.assertRaises(AuthApiError) as raised:
            self.client().admin.create_user({"email": unique_email("nope"), "password": PASSWORD})
        self.assertApiError(raised, 403, "not_admin")

    def test_a_user_token_is_not_admin(self):
        """A signed-in user's JWT on /admin: 403 not_admin."""
        client, _ = self.signed_in("notadmin")
        token = client.get_session().access_token
        admin = self.admin(
            headers={"apikey": self.server.anon_key, "Authorization": f"Bearer {token}"})
        with self.assertRaises(AuthApiError) as raised:
            admin.list_users()
        self.assertApiError(raised, 403, "not_admin")

    def test_no_token_is_no_authorization(self):
        """Without a Bearer token: 401 no_authorization."""
        with self.assertRaises(AuthApiError) as raised:
            self.admin(headers={}).list_users()
        self.assertApiError(raised, 401, "no_authorization")


# ================================================================================= /auth/v1


class AuthV1PrefixTests(ServerCase):
    """The client's url set to <base>/auth/v1, as the `supabase` package builds it."""

    OPTIONS = ("--autoconfirm",)
    PREFIX = "/auth/v1"

    def test_core_flow(self):
        """Sign up, sign in, user, update, refresh, sign out: all under /auth/v1."""
        client, email = self.client(), unique_email("prefix")
        self.assertSession(client.sign_up({"email": email, "password": PASSWORD}).session, email)
        client.sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertEqual(client.get_user().user.email, email)
        updated = client.update_user({"data": {"via": "auth/v1"}})
        self.assertEqual(updated.user.user_metadata.get("via"), "auth/v1")
        refreshed = client.refresh_session()
        self.assertSession(refreshed.session, email)
        client.sign_out()
        with self.assertRaises(AuthApiError) as raised:
            self.client().get_user(refreshed.session.access_token)
        self.assertApiError(raised, 403, "session_not_found")

    def test_errors_and_admin(self):
        """Errors keep their code; the admin API lives under the prefix too."""
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_password({"email": DEMO_EMAIL, "password": "not-it"})
        self.assertApiError(raised, 400, "invalid_credentials")
        email, user = self.confirmed_user("prefixadmin")
        admin = self.admin()
        self.assertEqual(admin.get_user_by_id(user.id).user.email, email)
        self.assertIn(user.id, [u.id for u in admin.list_users()])
        admin.delete_user(user.id)
        with self.assertRaises(AuthApiError) as raised:
            admin.get_user_by_id(user.id)
        self.assertApiError(raised, 404, "user_not_found")

    def test_recovery(self):
        """reset_password_for_email and verify_otp under the prefix."""
        email, _ = self.confirmed_user("prefixrecover")
        client = self.client()
        client.reset_password_for_email(email)
        _, code = self.mail_code(email)
        self.assertSession(
            client.verify_otp({"email": email, "token": code, "type": "recovery"}).session, email)


# ================================================================================= raw HTTP


class PlainHttpTests(ServerCase):
    """What the client hides: the link redirect, the error shapes, health, settings, features
    that are off. Users are still made with the client."""

    FRAGMENT_KEYS = ["access_token", "expires_at", "expires_in", "refresh_token", "sb",
                     "token_type", "type"]

    def signed_up_link(self, label, redirect_to=None):
        """Signs a new user up (confirmations on) and returns (email, the mailed link)."""
        email = unique_email(label)
        options = {"email_redirect_to": redirect_to} if redirect_to else {}
        self.client().sign_up({"email": email, "password": PASSWORD, "options": options})
        return email, self.server.link_in(self.server.latest_message_to(email))

    def test_verify_link_redirects_with_the_session_in_the_fragment(self):
        """GET /verify → 303 to the site URL, the session in the fragment (keys sorted, as
        Go's url.Values encodes them); the tokens in it work."""
        email, link = self.signed_up_link("link")
        answer = self.http().get(link)
        self.assertEqual(answer.status_code, 303)
        location = answer.headers["location"]
        base, _, fragment = location.partition("#")
        self.assertEqual(base, SITE_URL)
        pairs = urllib.parse.parse_qsl(fragment, keep_blank_values=True)
        self.assertEqual([key for key, _ in pairs], self.FRAGMENT_KEYS)
        values = dict(pairs)
        self.assertEqual((values["token_type"], values["type"], values["sb"]),
                         ("bearer", "signup", ""))
        self.assertTrue(3500 <= int(values["expires_in"]) <= 3600)
        self.assertAlmostEqual(int(values["expires_at"]), time.time() + 3600, delta=120)
        self.assertEqual(self.client().get_user(values["access_token"]).user.email, email)
        self.assertSession(self.client().refresh_session(values["refresh_token"]).session, email)

    def test_used_link_redirects_with_otp_expired(self):
        """A second GET of the same link: 303 with GoTrue's error fragment."""
        _, link = self.signed_up_link("used")
        http = self.http()
        self.assertEqual(http.get(link).status_code, 303)
        answer = http.get(link)
        self.assertEqual(answer.status_code, 303)
        base, _, fragment = answer.headers["location"].partition("#")
        self.assertEqual(base, SITE_URL)
        self.assertEqual(urllib.parse.parse_qsl(fragment, keep_blank_values=True), [
            ("error", "access_denied"), ("error_code", "otp_expired"),
            ("error_description", "Email link is invalid or has expired"), ("sb", "")])

    def test_link_keeps_an_allowed_redirect(self):
        """email_redirect_to on the site's host carries through the link to the redirect."""
        _, link = self.signed_up_link("redirect", redirect_to=SITE_URL + "/welcome")
        answer = self.http().get(link)
        self.assertEqual(answer.status_code, 303)
        self.assertTrue(answer.headers["location"].startswith(SITE_URL + "/welcome#access_token="),
                        answer.headers["location"])

    def test_error_shapes_legacy_and_2024(self):
        """Without the version header: {code:int, error_code, msg}; with 2024-01-01 (or a later
        date): {code:str, message} and the header echoed. x-sb-error-code on both."""
        wrong = {"email": DEMO_EMAIL, "password": "not-it"}
        http = self.http()
        legacy = {"code": 400, "error_code": "invalid_credentials",
                  "msg": "Invalid login credentials"}
        current = {"code": "invalid_credentials", "message": "Invalid login credentials"}
        cases = [
            ({}, legacy, None),
            ({"X-Supabase-Api-Version": "2024-1-1"}, legacy, None),  # not YYYY-MM-DD: legacy
            (API_VERSION, current, "2024-01-01"),
            ({"X-Supabase-Api-Version": "2030-06-01"}, current, "2024-01-01"),  # the closest
        ]
        for headers, body, echoed in cases:
            with self.subTest(headers=headers):
                answer = http.post("/token?grant_type=password", json=wrong, headers=headers)
                self.assertEqual(answer.status_code, 400)
                self.assertEqual(answer.headers["content-type"], "application/json")
                self.assertEqual(answer.json(), body)
                self.assertEqual(answer.headers.get("x-sb-error-code"), "invalid_credentials")
                self.assertEqual(answer.headers.get("x-supabase-api-version"), echoed)

    def test_weak_password_shapes(self):
        """weak_password keeps its reasons object in both shapes."""
        http = self.http()
        weak = {"email": unique_email("weakshape"), "password": "abc"}
        legacy = http.post("/signup", json=weak)
        self.assertEqual((legacy.status_code, legacy.json()), (422, {
            "code": 422, "error_code": "weak_password",
            "msg": "Password should be at least 6 characters.",
            "weak_password": {"reasons": ["length"]}}))
        self.assertEqual(legacy.headers.get("x-sb-error-code"), "weak_password")
        current = http.post("/signup", json=weak, headers=API_VERSION)
        self.assertEqual((current.status_code, current.json()), (422, {
            "code": "weak_password", "message": "Password should be at least 6 characters.",
            "weak_password": {"reasons": ["length"]}}))

    def test_health(self):
        """/health (also under /auth/v1) is GoTrue's."""
        for path in ("/health", "/auth/v1/health"):
            with self.subTest(path=path):
                answer = self.http().get(path)
                self.assertEqual(answer.status_code, 200)
                self.assertEqual(answer.headers["content-type"], "application/json")
                body = answer.json()
                self.assertEqual(body["name"], "GoTrue")
                self.assertEqual(body["description"],
                                 "GoTrue is a user registration and authentication API")
                self.assertIsInstance(body["version"], str)

    def test_settings(self):
        """/settings: email on, phone and anonymous off, confirmations on in this mode."""
        answer = self.http().get("/settings")
        self.assertEqual(answer.status_code, 200)
        settings = answer.json()
        self.assertEqual({key: settings["external"][key] for key in
                          ("email", "phone", "anonymous_users", "github")},
                         {"email": True, "phone": False, "anonymous_users": False, "github": False})
        self.assertEqual((settings["disable_signup"], settings["mailer_autoconfirm"],
                          settings["phone_autoconfirm"], settings["saml_enabled"]),
                         (False, False, False, False))

    def assertJsonError(self, answer, status, code):
        """A GoTrue JSON error (legacy shape: no version header sent)."""
        self.assertEqual(answer.status_code, status, answer.text)
        self.assertEqual(answer.headers["content-type"], "application/json")
        body = answer.json()
        self.assertEqual((body["code"], body["error_code"]), (status, code), body)
        self.assertEqual(answer.headers.get("x-sb-error-code"), code)

    def test_features_that_are_off_answer_json(self):
        """Phone factors, OAuth providers, SAML, anonymous sign-ins: GoTrue's JSON errors."""
        client, _ = self.signed_in("features")
        http = self.http()
        user_headers = {"Authorization": f"Bearer {client.get_session().access_token}"}
        enroll = http.post("/factors", json={"factor_type": "phone", "phone": "+15555550100"},
                           headers=user_headers)
        self.assertJsonError(enroll, 422, "mfa_phone_enroll_not_enabled")
        self.assertJsonError(http.get("/authorize", params={"provider": "github"}),
                             400, "validation_failed")
        self.assertJsonError(http.post("/sso", json={"domain": "example.com"}),
                             404, "saml_provider_disabled")
        self.assertJsonError(http.post("/signup", json={}), 422, "anonymous_provider_disabled")

    def test_features_that_are_off_through_the_client(self):
        """The same refusals reach the client as AuthApiError with their codes."""
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_anonymously()
        self.assertApiError(raised, 422, "anonymous_provider_disabled",
                            "Anonymous sign-ins are disabled")
        with self.assertRaises(AuthApiError) as raised:
            self.client().sign_in_with_sso({"domain": "example.com"})
        self.assertApiError(raised, 404, "saml_provider_disabled", "SAML 2.0 is disabled")


if __name__ == "__main__":
    unittest.main()

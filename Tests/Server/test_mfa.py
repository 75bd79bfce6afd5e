"""TOTP multi-factor authentication on `authflow serve`, driven by the official Supabase Auth
client (supabase-auth 2.34.1): `client.mfa.enroll / challenge / verify / challenge_and_verify /
unenroll / list_factors / get_authenticator_assurance_level` and the admin's
`auth.admin.mfa.list_factors / delete_factor`. Codes are computed here from the returned secret
with the standard library (RFC 6238: HMAC-SHA1, 6 digits, 30 s), as an authenticator app does.

GoTrue's behaviour is the reference (supabase/auth, internal/api/mfa.go); where authflow is
deliberately stricter (a code is accepted once, RFC 6238 §5.2) the test says so.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_mfa
"""

import base64
import hashlib
import hmac
import struct
import time
import unittest
import uuid

import httpx
from supabase_auth import SyncGoTrueAdminAPI, SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from serve import ServerTestCase, claims

PASSWORD = "correct-horse-battery"
PERIOD = 30
BOUNDARY_MARGIN = 3.0  # seconds a step must still have before a code is computed and sent


def totp(secret, step):
    """RFC 6238's code of time step `step` for a base32 `secret` (RFC 4226 truncation)."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    mac = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    number = (int.from_bytes(mac[offset:offset + 4], "big") & 0x7FFFFFFF) % 1_000_000
    return f"{number:06d}"


def steady_step():
    """The current time step, after waiting (at most BOUNDARY_MARGIN s) until the step has
    at least that long left, so the server checks a code in the step it was computed for."""
    left = PERIOD - time.time() % PERIOD
    if left < BOUNDARY_MARGIN:
        time.sleep(left + 0.2)
    return int(time.time() // PERIOD)


class MFACase(ServerTestCase):
    """One server per class with OPTIONS; clients bound to it; a fresh user per test."""

    def client(self):
        """A client as an app builds it, without the auto-refresh timer."""
        client = SyncGoTrueClient(url=self.server.url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        return client

    def admin(self):
        """The admin API with the service_role key."""
        admin = SyncGoTrueAdminAPI(url=self.server.url, headers=self.server.service_headers())
        self.addCleanup(admin.close)
        return admin

    def http(self):
        """Plain httpx, for what the client does not expose."""
        http = httpx.Client(base_url=self.server.url, headers=self.server.anon_headers(),
                            timeout=10)
        self.addCleanup(http.close)
        return http

    def signed_in(self, email=None):
        """A client signed in as `email` (a new confirmed user when None); (client, email)."""
        if email is None:
            email = f"mfa-{uuid.uuid4().hex[:12]}@example.com"
            self.admin().create_user({"email": email, "password": PASSWORD, "email_confirm": True})
        client = self.client()
        client.sign_in_with_password({"email": email, "password": PASSWORD})
        return client, email

    def enrolled(self, name="Phone"):
        """A signed-in client with a TOTP factor enrolled: (client, email, factor id, secret)."""
        client, email = self.signed_in()
        factor = client.mfa.enroll({"factor_type": "totp", "friendly_name": name})
        return client, email, factor.id, factor.totp.secret

    def raised(self):
        """A client whose session a verified factor raised to aal2."""
        client, email, factor_id, secret = self.enrolled()
        client.mfa.challenge_and_verify({"factor_id": factor_id, "code": totp(secret, steady_step())})
        return client, email, factor_id, secret

    def assertApiError(self, raised, status, code, message=None):
        error = raised.exception
        self.assertEqual((error.status, error.code), (status, code), error.to_dict())
        if message is not None:
            self.assertEqual(error.message, message)


class EnrolmentTests(MFACase):
    """POST /factors and what a user's factors look like afterwards."""

    def test_enroll_answers_the_secret_its_uri_and_qr_code(self):
        client, email = self.signed_in()
        factor = client.mfa.enroll({"factor_type": "totp", "friendly_name": "Phone"})
        uuid.UUID(factor.id)
        self.assertEqual((factor.type, factor.friendly_name), ("totp", "Phone"))
        self.assertRegex(factor.totp.secret, r"^[A-Z2-7]{32}$")
        self.assertEqual(
            factor.totp.uri,
            f"otpauth://totp/127.0.0.1:3000:{email}?algorithm=SHA1&digits=6"
            f"&issuer=127.0.0.1:3000&period=30&secret={factor.totp.secret}")
        # The client turns GoTrue's raw SVG into a data URI.
        self.assertTrue(factor.totp.qr_code.startswith(
            'data:image/svg+xml;utf-8,<?xml version="1.0"?>\n<!-- Generated by SVGo -->\n<svg '),
            factor.totp.qr_code[:120])
        self.assertTrue(factor.totp.qr_code.endswith("</svg>\n"))
        listed = client.mfa.list_factors()
        self.assertEqual([(f.id, f.status, f.factor_type, f.friendly_name) for f in listed.all],
                         [(factor.id, "unverified", "totp", "Phone")])
        self.assertEqual(listed.totp, [], "only verified factors are listed as totp")
        level = client.mfa.get_authenticator_assurance_level()
        self.assertEqual((level.current_level, level.next_level), ("aal1", "aal1"))

    def test_the_issuer_can_be_named(self):
        client, email = self.signed_in()
        factor = client.mfa.enroll({"factor_type": "totp", "issuer": "Acme Corp"})
        self.assertTrue(factor.totp.uri.startswith(f"otpauth://totp/Acme%20Corp:{email}?"))
        self.assertIn("&issuer=Acme%20Corp&", factor.totp.uri)

    def test_refusals_have_gotrues_codes(self):
        client, _ = self.signed_in()
        client.mfa.enroll({"factor_type": "totp", "friendly_name": "Phone"})
        with self.assertRaises(AuthApiError) as raised:
            client.mfa.enroll({"factor_type": "totp", "friendly_name": "Phone"})
        self.assertApiError(raised, 422, "mfa_factor_name_conflict",
                            'A factor with the friendly name "Phone" for this user already exists')
        with self.assertRaises(AuthApiError) as raised:
            client.mfa.enroll({"factor_type": "phone", "phone": "+15555550100"})
        self.assertApiError(raised, 422, "mfa_phone_enroll_not_enabled",
                            "MFA enroll is disabled for Phone")
        anonymous = self.http().post("/factors", json={"factor_type": "totp"})
        self.assertEqual(anonymous.status_code, 403, anonymous.text)  # the anon key has no user


class VerificationTests(MFACase):
    """Challenges, codes and the aal2 session."""

    def test_challenge_and_verify_raise_the_same_session_to_aal2(self):
        client, _, factor_id, secret = self.enrolled()
        before = client.get_session()
        challenge = client.mfa.challenge({"factor_id": factor_id})
        self.assertEqual(challenge.factor_type, "totp")
        self.assertAlmostEqual(challenge.expires_at, time.time() + 300, delta=30)
        verified = client.mfa.verify({"factor_id": factor_id, "challenge_id": challenge.id,
                                      "code": totp(secret, steady_step())})
        self.assertEqual(verified.token_type, "bearer")
        token = claims(verified.access_token)
        self.assertEqual(token["aal"], "aal2")
        self.assertEqual(token["session_id"], claims(before.access_token)["session_id"])
        self.assertEqual([entry["method"] for entry in token["amr"]], ["totp", "password"])
        self.assertNotEqual(verified.refresh_token, before.refresh_token)
        self.assertEqual(client.get_session().access_token, verified.access_token,
                         "the client keeps the raised session")
        level = client.mfa.get_authenticator_assurance_level()
        self.assertEqual((level.current_level, level.next_level), ("aal2", "aal2"))
        self.assertEqual([m.method for m in level.current_authentication_methods],
                         ["totp", "password"])
        self.assertEqual([f.id for f in client.mfa.list_factors().totp], [factor_id])
        refreshed = client.refresh_session()
        self.assertEqual(claims(refreshed.session.access_token)["aal"], "aal2")

    def test_a_step_either_side_is_accepted_and_two_are_not(self):
        client, _, factor_id, secret = self.enrolled()
        for offset in (-2, 2):
            with self.assertRaises(AuthApiError) as raised:
                client.mfa.challenge_and_verify(
                    {"factor_id": factor_id, "code": totp(secret, steady_step() + offset)})
            self.assertApiError(raised, 422, "mfa_verification_failed", "Invalid TOTP code entered")
        for offset in (-1, 0, 1):
            verified = client.mfa.challenge_and_verify(
                {"factor_id": factor_id, "code": totp(secret, steady_step() + offset)})
            self.assertEqual(claims(verified.access_token)["aal"], "aal2", offset)

    def test_a_code_is_accepted_once(self):
        """Stricter than GoTrue (RFC 6238 §5.2): the same code again is a wrong code."""
        client, _, factor_id, secret = self.enrolled()
        step = steady_step()
        client.mfa.challenge_and_verify({"factor_id": factor_id, "code": totp(secret, step)})
        with self.assertRaises(AuthApiError) as raised:
            client.mfa.challenge_and_verify({"factor_id": factor_id, "code": totp(secret, step)})
        self.assertApiError(raised, 422, "mfa_verification_failed")

    def test_a_wrong_code_keeps_the_challenge_and_a_used_one_is_spent(self):
        client, _, factor_id, secret = self.enrolled()
        challenge = client.mfa.challenge({"factor_id": factor_id})
        step = steady_step()
        wrong = f"{(int(totp(secret, step)) + 1) % 1_000_000:06d}"
        with self.assertRaises(AuthApiError) as raised:
            client.mfa.verify({"factor_id": factor_id, "challenge_id": challenge.id,
                               "code": wrong})
        self.assertApiError(raised, 422, "mfa_verification_failed")
        client.mfa.verify({"factor_id": factor_id, "challenge_id": challenge.id,
                           "code": totp(secret, step)})
        with self.assertRaises(AuthApiError) as raised:
            client.mfa.verify({"factor_id": factor_id, "challenge_id": challenge.id,
                               "code": totp(secret, step + 1)})
        self.assertApiError(raised, 422, "mfa_ip_address_mismatch",
                            "Challenge and verify IP addresses mismatch.")
        with self.assertRaises(AuthApiError) as raised:
            client.mfa.verify({"factor_id": factor_id, "challenge_id": str(uuid.uuid4()),
                               "code": totp(secret, step + 1)})
        self.assertApiError(raised, 422, "mfa_factor_not_found")

    def test_verifying_signs_out_the_users_aal1_sessions(self):
        first, email, factor_id, secret = self.enrolled()
        second, _ = self.signed_in(email)
        stale_token = second.get_session().access_token
        first.mfa.challenge_and_verify({"factor_id": factor_id, "code": totp(secret, steady_step())})
        answer = self.http().get("/user", headers={"Authorization": f"Bearer {stale_token}"})
        self.assertEqual((answer.status_code, answer.json()["error_code"]),
                         (403, "session_not_found"))
        self.assertEqual(first.get_user().user.email, email)

    def test_a_new_sign_in_is_aal1_and_knows_aal2_is_next(self):
        client, email, factor_id, _ = self.raised()
        later, _ = self.signed_in(email)
        level = later.mfa.get_authenticator_assurance_level()
        self.assertEqual((level.current_level, level.next_level), ("aal1", "aal2"))
        with self.assertRaises(AuthApiError) as raised:
            later.mfa.enroll({"factor_type": "totp", "friendly_name": "Second"})
        self.assertApiError(raised, 403, "insufficient_aal", "AAL2 required to enroll a new factor")
        with self.assertRaises(AuthApiError) as raised:
            later.mfa.unenroll({"factor_id": factor_id})
        self.assertApiError(raised, 422, "insufficient_aal",
                            "AAL2 required to unenroll verified factor")
        with self.assertRaises(AuthApiError) as raised:
            later.update_user({"password": "another-password-1"})
        self.assertApiError(raised, 401, "insufficient_aal")
        client.update_user({"password": "another-password-1"})

    def test_unenrolling_from_aal2_drops_the_session_to_aal1(self):
        client, _, factor_id, _ = self.raised()
        self.assertEqual(client.mfa.unenroll({"factor_id": factor_id}).id, factor_id)
        self.assertEqual(client.mfa.list_factors().all, [])
        refreshed = client.refresh_session()
        token = claims(refreshed.session.access_token)
        self.assertEqual((token["aal"], [e["method"] for e in token["amr"]]),
                         ("aal1", ["password"]))
        with self.assertRaises(AuthApiError) as raised:
            client.mfa.unenroll({"factor_id": factor_id})
        self.assertApiError(raised, 404, "mfa_factor_not_found", "Factor not found")


class GuessingTests(MFACase):
    """What a wrong TOTP code costs on a server with no per-client limit (loopback, no
    rate-limit header, the default): a challenge is spent after five, and every code checked
    spends one of the account's checks, whoever sends it."""

    def wrong(self, secret, step, n=1):
        right = {totp(secret, step + offset) for offset in (-1, 0, 1)}
        return next(code for code in (f"{(7919 * i + n) % 1_000_000:06d}" for i in range(100))
                    if code not in right)

    def test_a_challenge_is_spent_after_five_wrong_codes(self):
        client, _, factor_id, secret = self.enrolled()
        challenge = client.mfa.challenge({"factor_id": factor_id})
        step = steady_step()
        for n in range(5):
            with self.assertRaises(AuthApiError) as raised:
                client.mfa.verify({"factor_id": factor_id, "challenge_id": challenge.id,
                                   "code": self.wrong(secret, step, n)})
            self.assertApiError(raised, 422, "mfa_verification_failed")
        with self.assertRaises(AuthApiError) as raised:
            client.mfa.verify({"factor_id": factor_id, "challenge_id": challenge.id,
                               "code": totp(secret, step)})
        self.assertApiError(raised, 422, "mfa_challenge_expired")
        client.mfa.challenge_and_verify({"factor_id": factor_id, "code": totp(secret, step)})

    def test_thirty_wrong_codes_spend_the_accounts_checks(self):
        client, email, factor_id, secret = self.enrolled()
        step = steady_step()
        for n in range(30):
            with self.assertRaises(AuthApiError) as raised:
                client.mfa.challenge_and_verify({"factor_id": factor_id,
                                                 "code": self.wrong(secret, step, n)})
            self.assertApiError(raised, 422, "mfa_verification_failed")
        # Another session of the same account, as another client would have: no checks left.
        other, _ = self.signed_in(email)
        with self.assertRaises(AuthApiError) as raised:
            other.mfa.challenge_and_verify({"factor_id": factor_id,
                                            "code": totp(secret, steady_step())})
        self.assertApiError(raised, 429, "over_request_rate_limit")
        # Another account's checks are its own.
        self.raised()


class DeleteAccountTests(MFACase):
    """`DELETE /user` (authflow's own route) under PUT /user's MFA rule."""

    def test_an_aal1_session_of_a_user_with_a_factor_deletes_nothing(self):
        client, email, _, _ = self.raised()
        later, _ = self.signed_in(email)
        answer = self.http().delete(
            "/user", headers={"Authorization": f"Bearer {later.get_session().access_token}"})
        self.assertEqual((answer.status_code, answer.json()["error_code"]),
                         (401, "insufficient_aal"))
        self.assertEqual(later.get_user().user.email, email)
        answer = self.http().delete(
            "/user", headers={"Authorization": f"Bearer {client.get_session().access_token}"})
        self.assertEqual(answer.status_code, 204)


class FirebaseSurfaceTests(MFACase):
    """A factor enrolled through GoTrue's routes holds on the Firebase surface: a password
    sign-in answers Identity Platform's `mfaPendingCredential` and `mfaInfo`, and
    `v2/accounts/mfaSignIn:finalize` takes the TOTP code, as the Firebase SDKs send them."""

    OPTIONS = ("--firebase-project", "demo-mfa")
    V1 = "/identitytoolkit.googleapis.com/v1"
    V2 = "/identitytoolkit.googleapis.com/v2"

    def firebase(self, path, body):
        """A call as the Firebase SDKs make it: an API key, no Supabase headers."""
        with httpx.Client(base_url=self.server.url, timeout=10) as http:
            answer = http.post(path, params={"key": "fake-api-key"}, json=body)
        return answer.status_code, answer.json()

    def test_a_password_sign_in_waits_for_the_code_and_the_code_finishes_it(self):
        client, email, factor_id, secret = self.raised()
        status, pending = self.firebase(f"{self.V1}/accounts:signInWithPassword",
                                        {"email": email, "password": PASSWORD,
                                         "returnSecureToken": True})
        self.assertEqual(status, 200, pending)
        self.assertNotIn("idToken", pending)
        self.assertEqual([factor["mfaEnrollmentId"] for factor in pending["mfaInfo"]], [factor_id])
        self.assertEqual(pending["mfaInfo"][0]["totpInfo"], {})

        step = steady_step() + 1  # the step just used to raise the session is spent
        status, answer = self.firebase(f"{self.V2}/accounts/mfaSignIn:finalize", {
            "mfaPendingCredential": pending["mfaPendingCredential"],
            "mfaEnrollmentId": factor_id,
            "totpVerificationInfo": {"verificationCode": totp(secret, step)}})
        self.assertEqual(status, 200, answer)
        firebase = claims(answer["idToken"])["firebase"]
        self.assertEqual((firebase["sign_in_second_factor"], firebase["second_factor_identifier"]),
                         ("totp", factor_id))

    def test_a_custom_tokens_session_changes_no_credential(self):
        _, email, _, _ = self.raised()
        status, user = self.server.json("GET", "/admin/users?per_page=1000",
                                        headers=self.server.service_headers())
        self.assertEqual(status, 200, user)
        user_id = next(u["id"] for u in user["users"] if u["email"] == email)
        status, signed_in = self.firebase(f"{self.V1}/accounts:signInWithCustomToken",
                                          {"token": f'{{"uid":"{user_id}"}}',
                                           "returnSecureToken": True})
        self.assertEqual(status, 200, signed_in)
        for path, body in [
            ("accounts:update", {"idToken": signed_in["idToken"], "password": "another-pass-1"}),
            ("accounts:update", {"idToken": signed_in["idToken"], "email": "x@example.com"}),
            ("accounts:delete", {"idToken": signed_in["idToken"]}),
            ("accounts:sendOobCode", {"idToken": signed_in["idToken"],
                                      "requestType": "VERIFY_AND_CHANGE_EMAIL",
                                      "newEmail": "x@example.com"}),
        ]:
            status, answer = self.firebase(f"{self.V1}/{path}", body)
            self.assertEqual((status, answer["error"]["message"]),
                             (400, "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"), path)


class AdminFactorTests(MFACase):
    """auth.admin.mfa: a user's factors listed and removed with the service_role key."""

    def test_list_and_delete_a_users_factors(self):
        client, _, factor_id, _ = self.raised()
        user_id = client.get_user().user.id
        admin = self.admin()
        listed = admin.mfa.list_factors({"user_id": user_id})
        self.assertEqual([(f.id, f.status, f.factor_type) for f in listed],
                         [(factor_id, "verified", "totp")])
        self.assertEqual(admin.mfa.delete_factor({"user_id": user_id, "id": factor_id}).id,
                         factor_id)
        self.assertEqual(admin.mfa.list_factors({"user_id": user_id}), [])
        refreshed = client.refresh_session()
        self.assertEqual(claims(refreshed.session.access_token)["aal"], "aal1")
        with self.assertRaises(AuthApiError) as raised:
            admin.mfa.delete_factor({"user_id": user_id, "id": factor_id})
        self.assertApiError(raised, 404, "mfa_factor_not_found")


class SwitchedOffTests(MFACase):
    """GOTRUE_MFA_TOTP_ENROLL_ENABLED / _VERIFY_ENABLED off, as command-line options."""

    OPTIONS = ("--mfa-totp-enroll", "false")

    def test_enrolment_is_refused(self):
        client, _ = self.signed_in()
        with self.assertRaises(AuthApiError) as raised:
            client.mfa.enroll({"factor_type": "totp"})
        self.assertApiError(raised, 422, "mfa_totp_enroll_not_enabled",
                            "MFA enroll is disabled for TOTP")


if __name__ == "__main__":
    unittest.main()

"""`authflow serve --firebase-project` driven by Google's official Firebase Admin SDK
(firebase-admin 7.7.0) in emulator mode, and by plain HTTP for the public REST API the client
SDKs call.

The Admin SDK talks to `FIREBASE_AUTH_EMULATOR_HOST` with `Authorization: Bearer owner`; an
answer it cannot read raises UnexpectedResponseError, and error bodies must carry the
emulator's codes for the SDK's error classes (EmailAlreadyExistsError, UserNotFoundError) to
come out. The same server also answers GoTrue, so a user made here can sign in there.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest discover -s Tests/Server
"""

import json
import queue
import time
import unittest
import urllib.parse
import uuid

from firebase_admin import auth

from firebase_case import PROJECT, V1, FirebaseAppCase, bad_request

PASSWORD = "secret123"
EMULATOR = f"/emulator/v1/projects/{PROJECT}"
LINE_TIMEOUT = 10.0


def unique_email(label):
    """A fresh address per test, so no test sees another's user or codes."""
    return f"{label}-{uuid.uuid4().hex[:12]}@example.com"


def oob_code(link):
    """The oobCode parameter of an emulator action link."""
    return urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["oobCode"][0]


class FirebaseCase(FirebaseAppCase):
    """One server per class (no rate limits: the suite makes many users quickly), an Admin SDK
    app bound to it, and helpers for the REST API."""

    OPTIONS = ("--firebase-project", PROJECT, "--no-rate-limits")

    def sign_up(self, email, password=PASSWORD):
        return self.rest_json("signUp", {"email": email, "password": password,
                                         "returnSecureToken": True})

    def sign_in(self, email, password=PASSWORD):
        return self.rest("signInWithPassword", {"email": email, "password": password,
                                                "returnSecureToken": True})

    def refresh(self, refresh_token):
        return self.server.request(
            "POST", "/securetoken.googleapis.com/v1/token?key=fake-api-key",
            {"grant_type": "refresh_token", "refresh_token": refresh_token})

    def listed_codes(self):
        status, body = self.server.json("GET", f"{EMULATOR}/oobCodes")
        self.assertEqual(status, 200)
        return body["oobCodes"]


class AdminSDKTest(FirebaseCase):
    def test_the_second_ready_line_names_the_project_and_the_host(self):
        try:
            line = self.server.stdout_lines.get(timeout=LINE_TIMEOUT).rstrip("\n")
        except queue.Empty:
            self.fail("no Firebase line after the ready line")
        self.assertEqual(line, f"authflow serve: Firebase Auth emulator for project {PROJECT} at "
                               f"{self.server.url} (FIREBASE_AUTH_EMULATOR_HOST={self.host})")

    def test_create_then_get_by_uid_and_by_email(self):
        email = unique_email("create")
        user = auth.create_user(email=email.upper(), password=PASSWORD, display_name="Bob",
                                app=self.app)
        self.assertEqual(user.email, email)
        self.assertEqual(user.display_name, "Bob")
        self.assertFalse(user.email_verified)
        self.assertFalse(user.disabled)
        self.assertEqual([(p.provider_id, p.uid) for p in user.provider_data],
                         [("password", email)])
        self.assertGreater(user.user_metadata.creation_timestamp, 1_700_000_000_000)
        self.assertGreater(user.tokens_valid_after_timestamp, 1_700_000_000_000)
        self.assertEqual(auth.get_user(user.uid, app=self.app).email, email)
        self.assertEqual(auth.get_user_by_email(email, app=self.app).uid, user.uid)

        chosen = auth.create_user(uid=f"uid-{uuid.uuid4().hex[:8]}", email=unique_email("uid"),
                                  email_verified=True, disabled=True, app=self.app)
        self.assertTrue(chosen.email_verified)
        self.assertTrue(chosen.disabled)
        self.assertEqual(chosen.provider_data, [], "no password, no password provider")

    def test_list_users_pages_and_iterates_across_pages(self):
        made = {auth.create_user(email=unique_email("list"), app=self.app).uid for _ in range(5)}
        page = auth.list_users(max_results=2, app=self.app)
        self.assertEqual(len(page.users), 2)
        self.assertTrue(page.has_next_page)
        uids = [user.uid for user in page.iterate_all()]
        self.assertEqual(uids, sorted(uids), "pages go by uid")
        self.assertEqual(len(uids), len(set(uids)))
        self.assertTrue(made <= set(uids))
        self.assertLessEqual(len(uids), 1000)

    def test_update_password_name_verified_and_disabled(self):
        email = unique_email("update")
        user = auth.create_user(email=email, password=PASSWORD, app=self.app)
        updated = auth.update_user(user.uid, password="another-secret", display_name="Robert",
                                   email_verified=True, app=self.app)
        self.assertEqual(updated.display_name, "Robert")
        self.assertTrue(updated.email_verified)
        self.assertEqual(self.sign_in(email, "another-secret")[0], 200)
        self.assertTrue(auth.update_user(user.uid, disabled=True, app=self.app).disabled)
        self.assertEqual(self.sign_in(email, "another-secret"), (400, bad_request("USER_DISABLED")))
        self.assertFalse(auth.update_user(user.uid, disabled=False, app=self.app).disabled)
        self.assertIsNone(auth.update_user(user.uid, display_name=auth.DELETE_ATTRIBUTE,
                                            app=self.app).display_name)

    def test_a_reset_link_resets_the_password_through_the_rest_api(self):
        email = unique_email("reset")
        auth.create_user(email=email, password=PASSWORD, app=self.app)
        link = auth.generate_password_reset_link(email, app=self.app)
        self.assertTrue(link.startswith(f"{self.server.url}/emulator/action?mode=resetPassword"
                                        "&lang=en&oobCode="), link)
        self.assertTrue(link.endswith("&apiKey=fake-api-key"))
        code = oob_code(link)
        listed = [entry for entry in self.listed_codes() if entry["oobCode"] == code]
        self.assertEqual(listed, [{"email": email, "requestType": "PASSWORD_RESET",
                                   "oobCode": code, "oobLink": link}])
        checked = self.rest_json("resetPassword", {"oobCode": code})
        self.assertEqual(checked["requestType"], "PASSWORD_RESET")
        self.assertEqual(checked["email"], email)
        self.rest_json("resetPassword", {"oobCode": code, "newPassword": "reset-secret"})
        self.assertEqual(self.sign_in(email, "reset-secret")[0], 200)
        self.assertNotIn(code, [entry["oobCode"] for entry in self.listed_codes()])
        self.assertEqual(self.rest("resetPassword", {"oobCode": code, "newPassword": "x" * 8}),
                         (400, bad_request("INVALID_OOB_CODE")))

    def test_a_verification_link_verifies_through_the_rest_api(self):
        email = unique_email("verify")
        user = auth.create_user(email=email, password=PASSWORD, app=self.app)
        link = auth.generate_email_verification_link(email, app=self.app)
        code = oob_code(link)
        self.assertIn(code, [entry["oobCode"] for entry in self.listed_codes()])
        answer = self.rest_json("update", {"oobCode": code})
        self.assertTrue(answer["emailVerified"])
        self.assertTrue(auth.get_user(user.uid, app=self.app).email_verified)

    def test_revoking_refresh_tokens_ends_the_sessions(self):
        email = unique_email("revoke")
        user = auth.create_user(email=email, password=PASSWORD, app=self.app)
        status, raw = self.sign_in(email)
        self.assertEqual(status, 200)
        session = json.loads(raw)
        time.sleep(1.1)  # validSince is in whole seconds; the SDK sends the current one
        auth.revoke_refresh_tokens(user.uid, app=self.app)
        revoked = auth.get_user(user.uid, app=self.app)
        self.assertGreater(revoked.tokens_valid_after_timestamp,
                           user.tokens_valid_after_timestamp)
        status, _, raw = self.refresh(session["refreshToken"])
        self.assertEqual((status, raw), (400, bad_request("INVALID_REFRESH_TOKEN")))
        self.assertEqual(self.rest("lookup", {"idToken": session["idToken"]}),
                         (400, bad_request("TOKEN_EXPIRED")))
        self.assertEqual(self.sign_in(email)[0], 200, "a new sign-in works")

    def test_delete_one_and_many(self):
        user = auth.create_user(email=unique_email("delete"), app=self.app)
        auth.delete_user(user.uid, app=self.app)
        with self.assertRaises(auth.UserNotFoundError):
            auth.get_user(user.uid, app=self.app)
        uids = [auth.create_user(email=unique_email("many"), app=self.app).uid for _ in range(2)]
        result = auth.delete_users(uids, app=self.app)
        self.assertEqual((result.success_count, result.failure_count), (2, 0))

    def test_errors_come_out_as_the_sdks_classes(self):
        email = unique_email("errors")
        user = auth.create_user(email=email, password=PASSWORD, app=self.app)
        with self.assertRaises(auth.EmailAlreadyExistsError):
            auth.create_user(email=email, app=self.app)
        with self.assertRaises(auth.UidAlreadyExistsError):
            auth.create_user(uid=user.uid, email=unique_email("other"), app=self.app)
        with self.assertRaises(auth.UserNotFoundError):
            auth.get_user("no-such-uid", app=self.app)
        with self.assertRaises(auth.UserNotFoundError):
            auth.get_user_by_email(unique_email("nobody"), app=self.app)
        with self.assertRaises(auth.UserNotFoundError):
            auth.update_user("no-such-uid", display_name="x", app=self.app)
        with self.assertRaises(auth.UserNotFoundError):
            auth.delete_user("no-such-uid", app=self.app)
        with self.assertRaises(auth.EmailNotFoundError):
            auth.generate_password_reset_link(unique_email("nobody"), app=self.app)

    def test_a_user_made_here_signs_in_through_gotrue(self):
        email = unique_email("both")
        user = auth.create_user(email=email, password=PASSWORD, email_verified=True, app=self.app)
        status, session = self.server.json(
            "POST", "/token?grant_type=password", {"email": email, "password": PASSWORD},
            self.server.anon_headers())
        self.assertEqual(status, 200, session)
        self.assertEqual(session["user"]["id"], user.uid)
        # One account, but each surface renews only its own sessions' tokens.
        status, raw = self.refresh(session["refresh_token"])[::2]
        self.assertEqual(status, 400, raw)
        self.assertEqual(json.loads(raw)["error"]["message"], "INVALID_REFRESH_TOKEN")


class RestAPITest(FirebaseCase):
    """What the client SDKs call, over plain HTTP."""

    def test_sign_up_verify_by_code_and_look_up(self):
        email = unique_email("rest")
        signed_up = self.sign_up(email)
        self.assertEqual(signed_up["kind"], "identitytoolkit#SignupNewUserResponse")
        self.assertEqual(signed_up["expiresIn"], "3600")
        sent = self.rest_json("sendOobCode", {"requestType": "VERIFY_EMAIL",
                                              "idToken": signed_up["idToken"]})
        self.assertEqual(sent, {"kind": "identitytoolkit#GetOobConfirmationCodeResponse",
                                "email": email})
        entry = [entry for entry in self.listed_codes() if entry["email"] == email][-1]
        self.assertEqual(entry["requestType"], "VERIFY_EMAIL")
        mail = self.server.latest_message_to(email)
        self.assertIn(entry["oobLink"], mail["Text"])
        self.assertEqual(mail["Subject"], f"Verify your email for {PROJECT}")
        self.rest_json("update", {"oobCode": entry["oobCode"]})
        users = self.rest_json("lookup", {"idToken": signed_up["idToken"]})["users"]
        self.assertEqual(len(users), 1)
        self.assertTrue(users[0]["emailVerified"])
        self.assertEqual(users[0]["localId"], signed_up["localId"])

    def test_sign_in_refresh_and_the_error_bodies(self):
        email = unique_email("signin")
        self.sign_up(email)
        status, raw = self.sign_in(email)
        self.assertEqual(status, 200)
        session = json.loads(raw)
        self.assertTrue(session["registered"])
        self.assertEqual(self.sign_in(email, "wrong-password"),
                         (400, bad_request("INVALID_PASSWORD")))
        self.assertEqual(self.sign_in(unique_email("nobody")), (400, bad_request("EMAIL_NOT_FOUND")))
        self.assertEqual(self.rest("signInWithPassword", {"email": email}),
                         (400, bad_request("MISSING_PASSWORD")))
        status, _, raw = self.server.request(
            "POST", f"{V1}/accounts:signInWithPassword", {"email": email, "password": PASSWORD})
        self.assertEqual(status, 403)
        self.assertEqual(json.loads(raw)["error"]["status"], "PERMISSION_DENIED")

        status, headers, raw = self.refresh(session["refreshToken"])
        self.assertEqual(status, 200, raw)
        refreshed = json.loads(raw)
        self.assertEqual(refreshed["expires_in"], "3600")
        self.assertEqual(refreshed["user_id"], session["localId"])
        self.assertNotEqual(refreshed["refresh_token"], session["refreshToken"])
        form = urllib.parse.urlencode({"grant_type": "refresh_token",
                                       "refresh_token": refreshed["refresh_token"]}).encode()
        status, _, raw = self.server.request(
            "POST", "/securetoken.googleapis.com/v1/token?key=k", form,
            {"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(status, 200, raw)
        status, _, raw = self.refresh("not-a-refresh-token")
        self.assertEqual((status, raw), (400, bad_request("INVALID_REFRESH_TOKEN")))

    def test_the_ios_sdks_legacy_paths(self):
        email = unique_email("legacy")
        self.sign_up(email)
        status, _, raw = self.server.request(
            "POST", "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword?key=k",
            {"email": email, "password": PASSWORD, "returnSecureToken": True})
        self.assertEqual(status, 200, raw)
        self.assertEqual(json.loads(raw)["kind"], "identitytoolkit#VerifyPasswordResponse")


if __name__ == "__main__":
    unittest.main()

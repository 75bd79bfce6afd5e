"""Session cookies on `authflow serve --firebase-project`, as a web app's server makes and checks
them with Google's Admin SDK in emulator mode: `create_session_cookie` for a signed-in user's
ID token, `verify_session_cookie` with and without the revocation check, a disabled user's and
a revoked user's cookies refused, and the emulator's errors for a bad request.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_firebase_session_cookies
"""

import datetime
import json
import time
import unittest

from firebase_admin import auth

from test_firebase_admin import FirebaseCase, PROJECT, unique_email, bad_request

COOKIE = f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}:createSessionCookie"
OWNER = {"Authorization": "Bearer owner"}


class SessionCookieTest(FirebaseCase):
    def signed_in(self, label):
        email = unique_email(label)
        user = auth.create_user(email=email, password="secret123", app=self.app)
        status, raw = self.sign_in(email)
        self.assertEqual(status, 200, raw)
        return user, json.loads(raw)["idToken"]

    def test_a_cookie_is_made_and_verified_with_the_users_claims(self):
        user, id_token = self.signed_in("cookie")
        cookie = auth.create_session_cookie(
            id_token, expires_in=datetime.timedelta(hours=1), app=self.app)
        claims = auth.verify_session_cookie(cookie, check_revoked=True, app=self.app)
        self.assertEqual(claims["uid"], user.uid)
        self.assertEqual(claims["email"], user.email)
        self.assertEqual(claims["iss"], f"https://session.firebase.google.com/{PROJECT}")
        self.assertEqual(claims["exp"] - claims["iat"], 3600)
        # A cookie is not an ID token.
        self.assertEqual(self.rest("lookup", {"idToken": cookie}),
                         (400, bad_request("INVALID_ID_TOKEN")))

    def test_a_disabled_users_cookie_is_refused_when_checked(self):
        user, id_token = self.signed_in("disabled")
        cookie = auth.create_session_cookie(
            id_token, expires_in=datetime.timedelta(minutes=5), app=self.app)
        auth.update_user(user.uid, disabled=True, app=self.app)
        auth.verify_session_cookie(cookie, app=self.app)  # without the check, still good
        with self.assertRaises(auth.UserDisabledError):
            auth.verify_session_cookie(cookie, check_revoked=True, app=self.app)

    def test_a_revoked_users_cookie_is_refused_when_checked(self):
        user, id_token = self.signed_in("revoked")
        cookie = auth.create_session_cookie(
            id_token, expires_in=datetime.timedelta(days=14), app=self.app)
        # Tokens issued before this second no longer count (a second ahead of the cookie's iat,
        # without waiting for the clock to turn).
        status, body = self.server.json(
            "POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:update",
            {"localId": user.uid, "validSince": str(int(time.time()) + 60)}, headers=OWNER)
        self.assertEqual(status, 200, body)
        with self.assertRaises(auth.RevokedSessionCookieError):
            auth.verify_session_cookie(cookie, check_revoked=True, app=self.app)

    def test_the_emulators_errors(self):
        _, id_token = self.signed_in("errors")
        cases = [
            ({}, "MISSING_ID_TOKEN"),
            ({"idToken": id_token, "validDuration": 60}, "INVALID_DURATION"),
            ({"idToken": id_token, "validDuration": 15 * 24 * 3600}, "INVALID_DURATION"),
            ({"idToken": "not-a-token"}, "INVALID_ID_TOKEN"),
        ]
        for body, message in cases:
            status, _, raw = self.server.request("POST", COOKIE, body, headers=OWNER)
            self.assertEqual((status, raw), (400, bad_request(message)), body)
        # Only an admin makes cookies.
        status, _, _ = self.server.request(
            "POST", COOKIE + "?key=fake-api-key", {"idToken": id_token})
        self.assertNotEqual(status, 200)
        status, body = self.server.json("POST", COOKIE, {"idToken": id_token}, headers=OWNER)
        self.assertEqual(status, 200, body)
        claims = auth.verify_session_cookie(body["sessionCookie"], app=self.app)
        self.assertEqual(claims["exp"] - claims["iat"], 14 * 24 * 3600, "two weeks by default")


if __name__ == "__main__":
    unittest.main()

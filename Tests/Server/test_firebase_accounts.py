"""`authflow serve --firebase-project`'s accounts, driven by Google's Firebase Admin SDK
(firebase-admin 7.7.0) in emulator mode and by the REST calls the client SDKs make: custom
tokens, custom claims, profile changes, disabling and revoking, lookups by identifier,
anonymous sign-up and linking, and Secure Token.

The server is started without `--no-rate-limits`: the Firebase surface spends none of GoTrue's
request budgets, as the emulator has none.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_firebase_accounts
"""

import json
import time
import unittest
import uuid

from firebase_admin import auth

from firebase_case import PROJECT, V1, FirebaseAppCase, bad_request
from serve import claims

PASSWORD = "secret123"
TOKEN = "/securetoken.googleapis.com/v1/token?key=fake-api-key"


def unique(label):
    """A fresh id or address part per test, so no test sees another's users."""
    return f"{label}-{uuid.uuid4().hex[:12]}"


class FirebaseAccountsTest(FirebaseAppCase):
    def refresh(self, refresh_token):
        status, _, raw = self.server.request(
            "POST", TOKEN, {"grant_type": "refresh_token", "refresh_token": refresh_token})
        return status, raw

    def test_an_admin_sdk_custom_token_signs_in_with_its_claims(self):
        uid = unique("custom")
        token = auth.create_custom_token(uid, {"tier": "gold", "level": 3}, app=self.app)
        self.assertEqual(claims(token.decode())["aud"],
                         "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit"
                         ".v1.IdentityToolkit")
        first = self.rest_json("signInWithCustomToken",
                               {"token": token.decode(), "returnSecureToken": True})
        self.assertTrue(first["isNewUser"])
        verified = auth.verify_id_token(first["idToken"], app=self.app)
        self.assertEqual(verified["uid"], uid)
        self.assertEqual((verified["tier"], verified["level"]), ("gold", 3))
        self.assertEqual(verified["firebase"]["sign_in_provider"], "custom")
        self.assertIsNone(auth.get_user(uid, app=self.app).email)

        again = self.rest_json("signInWithCustomToken", {"token": token.decode()})
        self.assertFalse(again["isNewUser"])
        status, raw = self.refresh(again["refreshToken"])
        self.assertEqual(status, 200, raw)
        self.assertEqual(claims(json.loads(raw)["id_token"])["tier"], "gold",
                         "a refreshed ID token keeps the custom token's claims")

        self.assertEqual(self.rest("signInWithCustomToken", {"token": "{not json"}),
                         (400, bad_request("INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts "
                                           "strict JSON or JWTs as fake custom tokens.))")))
        self.assertEqual(self.rest("signInWithCustomToken",
                                   {"token": json.dumps({"uid": "x", "claims": {"sub": "y"}})}),
                         (400, bad_request("FORBIDDEN_CLAIM : sub")))
        # A web page of another site may not choose whom it signs in as.
        status, raw = self.rest("signInWithCustomToken", {"token": token.decode()},
                                headers={"Origin": "https://evil.example"})
        self.assertEqual(status, 400)
        self.assertTrue(json.loads(raw)["error"]["message"].startswith(
            "INVALID_CUSTOM_TOKEN : ((signInWithCustomToken answers no web page of another site"),
            raw)

    def test_custom_claims_set_by_the_admin_sdk_are_in_the_next_id_token(self):
        email = f"{unique('claims')}@example.com"
        user = auth.create_user(email=email, password=PASSWORD, app=self.app)
        auth.set_custom_user_claims(user.uid, {"admin": True, "name": "Claimed"}, app=self.app)
        signed_in = self.rest_json("signInWithPassword", {"email": email, "password": PASSWORD})
        verified = auth.verify_id_token(signed_in["idToken"], app=self.app)
        self.assertIs(verified["admin"], True)
        self.assertEqual(verified["name"], "Claimed")
        self.assertEqual(verified["email"], email, "reserved claims stay the account's")
        auth.set_custom_user_claims(user.uid, None, app=self.app)
        signed_in = self.rest_json("signInWithPassword", {"email": email, "password": PASSWORD})
        self.assertNotIn("admin", auth.verify_id_token(signed_in["idToken"], app=self.app))
        owner = {"Authorization": "Bearer owner"}
        for attributes, message in [('{"iss":1,"sub":2}', "FORBIDDEN_CLAIM : iss"),
                                    ("[1]", "INVALID_CLAIMS"),
                                    ('{"a":"' + "x" * 1000 + '"}', "CLAIMS_TOO_LARGE")]:
            status, _, raw = self.server.request(
                "POST", f"{V1}/projects/{PROJECT}/accounts:update",
                {"localId": user.uid, "customAttributes": attributes}, owner)
            self.assertEqual((status, raw), (400, bad_request(message)))

    def test_update_user_photo_disable_and_revoke(self):
        email = f"{unique('update')}@example.com"
        user = auth.create_user(email=email, password=PASSWORD, app=self.app)
        photo = "http://127.0.0.1/photo.png"
        self.assertEqual(auth.update_user(user.uid, photo_url=photo, app=self.app).photo_url, photo)
        self.assertIsNone(auth.update_user(user.uid, photo_url=auth.DELETE_ATTRIBUTE,
                                           app=self.app).photo_url)
        session = self.rest_json("signInWithPassword", {"email": email, "password": PASSWORD})
        auth.verify_id_token(session["idToken"], check_revoked=True, app=self.app)

        self.assertTrue(auth.update_user(user.uid, disabled=True, app=self.app).disabled)
        with self.assertRaises(auth.UserDisabledError):
            auth.verify_id_token(session["idToken"], check_revoked=True, app=self.app)
        self.assertEqual(self.refresh(session["refreshToken"]), (400, bad_request("USER_DISABLED")))
        auth.update_user(user.uid, disabled=False, app=self.app)

        time.sleep(1.1)  # validSince is in whole seconds; the SDK sends the current one
        auth.revoke_refresh_tokens(user.uid, app=self.app)
        revoked = auth.get_user(user.uid, app=self.app)
        self.assertGreater(revoked.tokens_valid_after_timestamp,
                           user.tokens_valid_after_timestamp)
        with self.assertRaises(auth.RevokedIdTokenError):
            auth.verify_id_token(session["idToken"], check_revoked=True, app=self.app)
        fresh = self.rest_json("signInWithPassword", {"email": email, "password": PASSWORD})
        auth.verify_id_token(fresh["idToken"], check_revoked=True, app=self.app)

    def test_get_users_by_uid_and_email(self):
        first = auth.create_user(email=f"{unique('get')}@example.com", app=self.app)
        second = auth.create_user(uid=unique("chosen"), app=self.app)
        self.assertIsNone(second.email, "an admin's account needs no email")
        found = auth.get_users([auth.UidIdentifier(second.uid), auth.EmailIdentifier(first.email),
                                auth.UidIdentifier("nobody-here")], app=self.app)
        self.assertEqual(sorted(user.uid for user in found.users),
                         sorted([first.uid, second.uid]))
        self.assertEqual([identifier.uid for identifier in found.not_found], ["nobody-here"])

    def test_anonymous_sign_up_then_linking_an_email_and_password(self):
        anonymous = self.rest_json("signUp", {"returnSecureToken": True})
        self.assertNotIn("email", anonymous)
        verified = auth.verify_id_token(anonymous["idToken"], app=self.app)
        self.assertEqual(verified["provider_id"], "anonymous")
        self.assertEqual(verified["firebase"], {"identities": {},
                                                "sign_in_provider": "anonymous"})
        record = auth.get_user(anonymous["localId"], app=self.app)
        self.assertIsNone(record.email)
        self.assertEqual(record.provider_data, [])

        email = f"{unique('linked')}@example.com"
        linked = self.rest_json("signUp", {"idToken": anonymous["idToken"], "email": email,
                                           "password": PASSWORD, "displayName": "Linked"})
        self.assertEqual(linked["localId"], anonymous["localId"])
        self.assertEqual(claims(linked["idToken"])["firebase"]["sign_in_provider"], "password")
        signed_in = self.rest_json("signInWithPassword", {"email": email, "password": PASSWORD})
        self.assertEqual(signed_in["localId"], anonymous["localId"])
        record = auth.get_user(anonymous["localId"], app=self.app)
        self.assertEqual((record.email, record.display_name), (email, "Linked"))
        self.assertEqual([p.provider_id for p in record.provider_data], ["password"])

        self.assertEqual(self.rest("signUp", {"email": "", "password": ""}),
                         (400, bad_request("INVALID_EMAIL")))
        self.assertEqual(self.rest("signUp", {"targetProjectId": PROJECT}),
                         (400, bad_request("INSUFFICIENT_PERMISSION : Only authenticated "
                                           "requests can specify target_project_id.")))

    def test_secure_token_keeps_the_sign_in_time_and_reads_the_token_first(self):
        self.assertEqual(self.refresh("malformedToken"), (400, bad_request("INVALID_REFRESH_TOKEN")))
        status, _, raw = self.server.request("POST", TOKEN, {"refresh_token": "x" * 43})
        self.assertEqual((status, raw), (400, bad_request("MISSING_GRANT_TYPE")))
        session = self.rest_json("signUp", {"email": f"{unique('time')}@example.com",
                                            "password": PASSWORD})
        signed_in_at = claims(session["idToken"])["auth_time"]
        time.sleep(1.1)
        status, raw = self.refresh(session["refreshToken"])
        self.assertEqual(status, 200, raw)
        refreshed = claims(json.loads(raw)["id_token"])
        self.assertEqual(refreshed["auth_time"], signed_in_at)
        self.assertGreater(refreshed["iat"], signed_in_at)
        record = auth.get_user(session["localId"], app=self.app)
        self.assertEqual(record.user_metadata.last_sign_in_timestamp // 1000, signed_in_at)
        self.assertGreater(record.user_metadata.last_refresh_timestamp // 1000, signed_in_at)


if __name__ == "__main__":
    unittest.main()

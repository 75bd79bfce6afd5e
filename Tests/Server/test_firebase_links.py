"""The Firebase Auth emulator's out-of-band codes and email links on `authflow serve
--firebase-project`: links made by Google's `firebase-admin` (7.7.0) with ActionCodeSettings,
the emulator's `/emulator/action` pages they open, and the REST calls the client SDKs make with
their codes (`signInWithEmailLink`, `resetPassword`, `accounts:update` with `oobCode`).

The server runs with GoTrue's default limits, to show that Firebase's codes wait on none of
them (the emulator has neither an interval between two emails nor an hourly budget) while
GoTrue's own routes keep theirs.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_firebase_links
"""

import json
import urllib.parse

from firebase_admin import auth

from firebase_case import PROJECT, V1, FirebaseAppCase, bad_request
from test_firebase_admin import EMULATOR, PASSWORD, oob_code, unique_email

APP_URL = "http://127.0.0.1:3000/finish"


class LinksCase(FirebaseAppCase):
    """One server per class with default limits, an Admin SDK app bound to it, REST helpers."""

    def answer(self, operation, body):
        """A public Identity Toolkit call with an API key; (status, parsed body)."""
        return self.server.json("POST", f"{V1}/accounts:{operation}?key=fake-api-key", body)

    def listed(self):
        status, body = self.server.json("GET", f"{EMULATOR}/oobCodes")
        self.assertEqual(status, 200)
        return body["oobCodes"]

    def open_link(self, link, **extra):
        """GETs an emulator link (its host is the server's), redirects not followed."""
        parts = urllib.parse.urlsplit(link)
        self.assertEqual(f"{parts.scheme}://{parts.netloc}", self.server.url)
        query = parts.query + ("&" + urllib.parse.urlencode(extra) if extra else "")
        return self.server.request("GET", f"{parts.path}?{query}")


class EmailLinkTest(LinksCase):
    def test_a_sign_in_link_from_the_admin_sdk_makes_and_signs_in_the_account(self):
        email = unique_email("link")
        settings = auth.ActionCodeSettings(url=APP_URL, handle_code_in_app=True)
        link = auth.generate_sign_in_with_email_link(email.upper(), settings, app=self.app)
        code = oob_code(link)
        self.assertEqual(link, f"{self.server.url}/emulator/action?mode=signIn&lang=en&oobCode="
                               f"{code}&apiKey=fake-api-key&continueUrl="
                               f"{urllib.parse.quote(APP_URL, safe='')}")
        self.assertIn({"email": email, "requestType": "EMAIL_SIGNIN", "oobCode": code,
                       "oobLink": link}, self.listed())

        status, headers, _ = self.open_link(link)
        self.assertEqual(status, 303)
        self.assertEqual(headers["Location"], f"{APP_URL}?mode=signIn&lang=en&oobCode={code}"
                                              "&apiKey=fake-api-key")
        self.assertEqual(self.answer("resetPassword", {"oobCode": code})[1],
                         {"kind": "identitytoolkit#ResetPasswordResponse",
                          "requestType": "EMAIL_SIGNIN"})
        self.assertEqual(
            self.answer("signInWithEmailLink", {"email": unique_email("other"), "oobCode": code}),
            (400, json.loads(bad_request(
                "INVALID_EMAIL : The email provided does not match the sign-in email address."))))

        signed_in = self.rest_json("signInWithEmailLink", {"email": email, "oobCode": code})
        self.assertEqual(list(signed_in), ["kind", "email", "localId", "isNewUser", "idToken",
                                           "refreshToken", "expiresIn"])
        self.assertEqual(signed_in["kind"], "identitytoolkit#EmailLinkSigninResponse")
        self.assertTrue(signed_in["isNewUser"])
        user = auth.get_user_by_email(email, app=self.app)
        self.assertEqual(user.uid, signed_in["localId"])
        self.assertTrue(user.email_verified)
        self.assertEqual([(p.provider_id, p.uid) for p in user.provider_data],
                         [("password", email)])
        self.assertEqual(self.answer("signInWithEmailLink", {"email": email, "oobCode": code}),
                         (400, json.loads(bad_request("INVALID_OOB_CODE"))))

        # A second link, used with another user's ID token, moves that user to the address.
        other = self.rest_json("signUp", {"email": unique_email("mover"), "password": PASSWORD})
        second = unique_email("moved")
        code = oob_code(auth.generate_sign_in_with_email_link(second, settings, app=self.app))
        moved = self.rest_json("signInWithEmailLink",
                             {"email": second, "oobCode": code, "idToken": other["idToken"]})
        self.assertEqual((moved["localId"], moved["isNewUser"]), (other["localId"], False))
        self.assertEqual(auth.get_user(other["localId"], app=self.app).email, second)

    def test_the_legacy_path_signs_in_an_existing_account(self):
        email = unique_email("legacy")
        made = self.rest_json("signUp", {"email": email, "password": PASSWORD})
        self.rest_json("sendOobCode", {"requestType": 6, "email": email})
        code = [entry for entry in self.listed() if entry["email"] == email][-1]["oobCode"]
        status, answer = self.server.json(
            "POST", "/www.googleapis.com/identitytoolkit/v3/relyingparty/emailLinkSignin?key=k",
            {"email": email, "oobCode": code})
        self.assertEqual(status, 200, answer)
        self.assertEqual((answer["localId"], answer["isNewUser"]), (made["localId"], False))
        users = self.rest_json("lookup", {"idToken": answer["idToken"]})["users"]
        self.assertTrue(users[0]["emailLinkSignin"])
        self.assertEqual(self.answer("signInWithPassword", {"email": email, "password": PASSWORD})[0],
                         200, "the password still works")


class ActionLinkTest(LinksCase):
    def test_a_verification_link_with_a_continue_url_verifies_and_redirects(self):
        email = unique_email("verify")
        user = auth.create_user(email=email, password=PASSWORD, app=self.app)
        link = auth.generate_email_verification_link(
            email, auth.ActionCodeSettings(url=APP_URL), app=self.app)
        self.assertIn("mode=verifyEmail&lang=en&oobCode=", link)
        status, headers, _ = self.open_link(link)
        self.assertEqual((status, headers["Location"]), (303, APP_URL))
        self.assertTrue(auth.get_user(user.uid, app=self.app).email_verified)
        status, _, raw = self.open_link(link)
        self.assertEqual(status, 400)
        self.assertEqual(json.loads(raw)["authEmulator"]["error"],
                         "Your request to verify your email has expired or the link has "
                         "already been used.")
        with self.assertRaises(auth.UserNotFoundError):
            auth.generate_email_verification_link(unique_email("nobody"), app=self.app)

    def test_a_reset_link_asks_for_the_password_then_sets_it(self):
        email = unique_email("reset")
        auth.create_user(email=email, password=PASSWORD, app=self.app)
        link = auth.generate_password_reset_link(email, app=self.app)
        status, _, raw = self.open_link(link)
        self.assertEqual(status, 400)
        page = json.loads(raw)["authEmulator"]
        self.assertEqual(page["error"], "missing newPassword query parameter")
        self.assertEqual(page["urlTemplate"], link + "&newPassword=NEW_PASSWORD_HERE")
        status, _, raw = self.open_link(link, newPassword="reset-secret")
        self.assertEqual(status, 200, raw)
        self.assertEqual(json.loads(raw), {"authEmulator": {
            "success": "The password has been successfully updated.", "email": email}})
        self.assertEqual(self.answer("signInWithPassword",
                                   {"email": email, "password": "reset-secret"})[0], 200)

    def test_verify_and_change_email_moves_the_account(self):
        email, new_email = unique_email("before"), unique_email("after")
        signed_up = self.rest_json("signUp", {"email": email, "password": PASSWORD})
        self.assertEqual(self.answer("sendOobCode", {"requestType": "VERIFY_AND_CHANGE_EMAIL",
                                                   "idToken": signed_up["idToken"]}),
                         (400, json.loads(bad_request("MISSING_NEW_EMAIL"))))
        self.rest_json("sendOobCode", {"requestType": 7, "idToken": signed_up["idToken"],
                                     "newEmail": new_email})
        entry = [entry for entry in self.listed() if entry["email"] == email][-1]
        self.assertEqual(list(entry), ["email", "newEmail", "requestType", "oobCode", "oobLink"])
        self.assertEqual((entry["newEmail"], entry["requestType"]),
                         (new_email, "VERIFY_AND_CHANGE_EMAIL"))
        self.assertEqual(self.server.latest_message_to(new_email)["Subject"],
                         f"Verify your new email for {PROJECT}")
        checked = self.rest_json("resetPassword", {"oobCode": entry["oobCode"]})
        self.assertEqual(checked["newEmail"], new_email)
        applied = self.rest_json("update", {"oobCode": entry["oobCode"]})
        self.assertEqual((applied["email"], applied["newEmail"], applied["emailVerified"]),
                         (new_email, new_email, True))
        self.assertEqual(auth.get_user_by_email(new_email, app=self.app).uid,
                         signed_up["localId"])


class NoLimitTest(LinksCase):
    def test_codes_wait_on_no_email_limit_while_gotrue_keeps_its_own(self):
        email = unique_email("limits")
        signed_up = self.rest_json("signUp", {"email": email, "password": PASSWORD})
        self.rest_json("sendOobCode", {"requestType": "VERIFY_EMAIL",
                                     "idToken": signed_up["idToken"]})
        for _ in range(5):
            self.rest_json("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email})
        self.assertEqual(len([entry for entry in self.listed() if entry["email"] == email]), 6)
        self.assertEqual(len(self.server.messages_to(email)), 6)
        # GoTrue's interval for the address never saw those: its first recover goes out.
        status, body = self.server.json("POST", "/recover", {"email": email},
                                        self.server.anon_headers())
        self.assertEqual(status, 200, body)
        status, body = self.server.json("POST", "/recover", {"email": email},
                                        self.server.anon_headers())
        self.assertEqual((status, body["error_code"]), (429, "over_email_send_rate_limit"))
        self.rest_json("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email})


if __name__ == "__main__":
    import unittest

    unittest.main()

"""Phone numbers on `authflow serve --firebase-project`: an admin's, through Google's Firebase
Admin SDK (firebase-admin 7.7.0) in emulator mode, and phone sign-in through the REST calls the
Firebase JS SDK makes on an emulator (`accounts:sendVerificationCode`, the code read from the
emulator's `verificationCodes`, `accounts:signInWithPhoneNumber`, linking with an ID token).

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_firebase_phone
"""

import json
import random
import unittest
import uuid

from firebase_admin import auth, exceptions

from firebase_case import PROJECT, FirebaseAppCase, bad_request
from serve import claims

CODES = f"/emulator/v1/projects/{PROJECT}/verificationCodes"
TOKEN = "/securetoken.googleapis.com/v1/token?key=fake-api-key"


def unique_phone():
    """A fresh E.164 number per test, so no test sees another's user or codes."""
    return f"+1555{random.randrange(10_000_000):07d}"


class FirebasePhoneTest(FirebaseAppCase):
    def listed(self):
        status, body = self.server.json("GET", CODES)
        self.assertEqual(status, 200)
        return body["verificationCodes"]

    def send_code(self, phone):
        """What the JS SDK's signInWithPhoneNumber sends first, with the emulator's fake
        reCAPTCHA; the session and the code the emulator lists for it."""
        sent = self.rest_json("sendVerificationCode", {
            "phoneNumber": phone, "recaptchaToken": "fake-recaptcha-token",
            "clientType": "CLIENT_TYPE_WEB"})
        self.assertEqual(list(sent), ["sessionInfo"])
        entries = [entry for entry in self.listed() if entry["sessionInfo"] == sent["sessionInfo"]]
        self.assertEqual(len(entries), 1)
        self.assertEqual(entries[0]["phoneNumber"], phone)
        self.assertRegex(entries[0]["code"], r"^\d{6}$")
        return sent["sessionInfo"], entries[0]["code"]

    # -- the Admin SDK ------------------------------------------------------------------------

    def test_create_get_update_and_remove_a_number_with_the_admin_sdk(self):
        phone = unique_phone()
        user = auth.create_user(phone_number=phone, display_name="Pat", app=self.app)
        self.assertEqual(user.phone_number, phone)
        self.assertIsNone(user.email)
        self.assertEqual([(info.provider_id, info.uid, info.phone_number)
                          for info in user.provider_data], [("phone", phone, phone)])
        self.assertEqual(auth.get_user_by_phone_number(phone, app=self.app).uid, user.uid)
        found = auth.get_users([auth.PhoneIdentifier(phone),
                                auth.PhoneIdentifier(unique_phone())], app=self.app)
        self.assertEqual([found_user.uid for found_user in found.users], [user.uid])
        self.assertEqual(len(found.not_found), 1)

        with self.assertRaises(auth.PhoneNumberAlreadyExistsError):
            auth.create_user(phone_number=phone, app=self.app)
        other = auth.create_user(email=f"{uuid.uuid4().hex[:12]}@example.com", app=self.app)
        with self.assertRaises(auth.PhoneNumberAlreadyExistsError):
            auth.update_user(other.uid, phone_number=phone, app=self.app)
        # The SDK lets "+1" through; the server holds numbers to E.164, as GoTrue does.
        with self.assertRaises(exceptions.InvalidArgumentError) as refused:
            auth.update_user(other.uid, phone_number="+1", app=self.app)
        self.assertIn("INVALID_PHONE_NUMBER", str(refused.exception))

        changed = unique_phone()
        updated = auth.update_user(user.uid, phone_number=changed, app=self.app)
        self.assertEqual(updated.phone_number, changed)
        self.assertEqual(auth.get_user_by_phone_number(changed, app=self.app).uid, user.uid)
        with self.assertRaises(auth.UserNotFoundError):
            auth.get_user_by_phone_number(phone, app=self.app)
        both = auth.update_user(other.uid, phone_number=phone, app=self.app)
        self.assertEqual(sorted(info.provider_id for info in both.provider_data), ["phone"],
                         "no password, so no password provider")
        listed = {listed_user.uid: listed_user.phone_number
                  for listed_user in auth.list_users(app=self.app).iterate_all()}
        self.assertEqual(listed[user.uid], changed)
        self.assertEqual(listed[other.uid], phone)

        # phone_number=None leaves the number as it is; DELETE_ATTRIBUTE sends
        # deleteProvider: ["phone"].
        self.assertEqual(auth.update_user(user.uid, phone_number=None, app=self.app).phone_number,
                         changed)
        removed = auth.update_user(user.uid, phone_number=auth.DELETE_ATTRIBUTE, app=self.app)
        self.assertIsNone(removed.phone_number)
        self.assertEqual(removed.provider_data, [])
        with self.assertRaises(auth.UserNotFoundError):
            auth.get_user_by_phone_number(changed, app=self.app)
        self.assertEqual(auth.create_user(phone_number=changed, app=self.app).phone_number,
                         changed, "a removed number is free again")

    def test_an_imported_number_signs_in(self):
        phone = unique_phone()
        uid = f"imported-{uuid.uuid4().hex[:8]}"
        result = auth.import_users([auth.ImportUserRecord(uid=uid, phone_number=phone)],
                                   app=self.app)
        self.assertEqual((result.success_count, result.failure_count), (1, 0))
        self.assertEqual(auth.get_user(uid, app=self.app).phone_number, phone)
        clash = auth.import_users([auth.ImportUserRecord(uid=f"{uid}-2", phone_number=phone)],
                                  app=self.app)
        self.assertEqual(clash.failure_count, 1)
        session_info, code = self.send_code(phone)
        signed_in = self.rest_json("signInWithPhoneNumber",
                                   {"sessionInfo": session_info, "code": code})
        self.assertEqual((signed_in["localId"], signed_in["isNewUser"]), (uid, False))

    # -- phone sign-in over REST ----------------------------------------------------------------

    def test_a_listed_code_signs_the_number_up_then_in(self):
        phone = unique_phone()
        session_info, code = self.send_code(phone)
        wrong = "000000" if code != "000000" else "000001"
        self.assertEqual(self.rest("signInWithPhoneNumber",
                                   {"sessionInfo": session_info, "code": wrong}),
                         (400, bad_request("INVALID_CODE")))
        status, raw = self.rest("signInWithPhoneNumber", {"sessionInfo": session_info, "code": code})
        self.assertEqual(status, 200, raw)
        signed_up = json.loads(raw)
        self.assertEqual(list(signed_up), ["isNewUser", "phoneNumber", "localId", "idToken",
                                           "refreshToken", "expiresIn"])
        self.assertEqual((signed_up["isNewUser"], signed_up["phoneNumber"]), (True, phone))
        token = claims(signed_up["idToken"])
        self.assertEqual(token["phone_number"], phone)
        self.assertEqual(token["firebase"], {"identities": {"phone": [phone]},
                                             "sign_in_provider": "phone"})
        self.assertNotIn("provider_id", token)
        self.assertNotIn("email_verified", token)
        verified = auth.verify_id_token(signed_up["idToken"], app=self.app)
        self.assertEqual((verified["uid"], verified["phone_number"]), (signed_up["localId"], phone))
        self.assertEqual(auth.get_user(signed_up["localId"], app=self.app).phone_number, phone)

        self.assertNotIn(session_info, [entry["sessionInfo"] for entry in self.listed()])
        self.assertEqual(self.rest("signInWithPhoneNumber",
                                   {"sessionInfo": session_info, "code": code}),
                         (400, bad_request("INVALID_SESSION_INFO")), "a code works once")

        status, _, raw = self.server.request(
            "POST", TOKEN, {"grant_type": "refresh_token",
                            "refresh_token": signed_up["refreshToken"]})
        self.assertEqual(status, 200, raw)
        refreshed = claims(json.loads(raw)["id_token"])
        self.assertEqual(refreshed["firebase"]["sign_in_provider"], "phone")

        session_info, code = self.send_code(phone)
        signed_in = self.rest_json("signInWithPhoneNumber",
                                   {"sessionInfo": session_info, "code": code})
        self.assertEqual((signed_in["isNewUser"], signed_in["localId"]),
                         (False, signed_up["localId"]))

    def test_a_number_links_to_the_signed_in_user(self):
        anonymous = self.rest_json("signUp", {"returnSecureToken": True})
        phone = unique_phone()
        session_info, code = self.send_code(phone)
        linked = self.rest_json("signInWithPhoneNumber", {
            "idToken": anonymous["idToken"], "sessionInfo": session_info, "code": code})
        self.assertEqual((linked["isNewUser"], linked["localId"], linked["phoneNumber"]),
                         (False, anonymous["localId"], phone))
        looked_up = self.rest_json("lookup", {"idToken": linked["idToken"]})["users"][0]
        self.assertEqual(looked_up["phoneNumber"], phone)
        self.assertEqual(looked_up["providerUserInfo"],
                         [{"providerId": "phone", "phoneNumber": phone, "rawId": phone}])
        self.assertNotIn("provider_id", claims(linked["idToken"]), "no longer anonymous")

        other = self.rest_json("signUp", {"returnSecureToken": True})
        session_info, code = self.send_code(phone)
        proof = self.rest_json("signInWithPhoneNumber", {
            "idToken": other["idToken"], "sessionInfo": session_info, "code": code})
        self.assertEqual(sorted(proof), ["phoneNumber", "temporaryProof", "temporaryProofExpiresIn"])
        self.assertEqual(proof["phoneNumber"], phone)
        self.assertEqual(self.rest("signInWithPhoneNumber", {
            "idToken": other["idToken"], "phoneNumber": phone,
            "temporaryProof": proof["temporaryProof"]}),
            (400, bad_request("PHONE_NUMBER_EXISTS")))

    def test_the_emulators_answers_for_bad_requests(self):
        for body in ({"recaptchaToken": "ignored"}, {"phoneNumber": "5555550100"}):
            self.assertEqual(self.rest("sendVerificationCode", body),
                             (400, bad_request("INVALID_PHONE_NUMBER : Invalid format.")))
        self.assertEqual(self.rest("signInWithPhoneNumber", {"code": "123456"}),
                         (400, bad_request("MISSING_SESSION_INFO")))
        self.assertEqual(self.rest("signInWithPhoneNumber", {"sessionInfo": "x"}),
                         (400, bad_request("MISSING_CODE")))
        self.assertEqual(self.rest("signInWithPhoneNumber", {"sessionInfo": "x", "code": "1"}),
                         (400, bad_request("INVALID_SESSION_INFO")))

        phone = unique_phone()
        user = auth.create_user(phone_number=phone, disabled=True, app=self.app)
        session_info, code = self.send_code(phone)
        self.assertEqual(self.rest("signInWithPhoneNumber",
                                   {"sessionInfo": session_info, "code": code}),
                         (400, bad_request("USER_DISABLED")))
        auth.delete_user(user.uid, app=self.app)

    def test_the_codes_are_listed_for_this_machine_only(self):
        self.send_code(unique_phone())
        status, _, _ = self.server.request("GET", CODES, headers={"Origin": "https://evil.example"})
        self.assertEqual(status, 403)


if __name__ == "__main__":
    unittest.main()

"""`authflow serve --firebase-project`: listing and finding users with Google's Admin SDK
(firebase-admin 7.7.0), and over plain HTTP `accounts:createAuthUri`, `accounts:query` and the
project's configuration (Identity Toolkit's v2 `config` and the emulator's own), as the Firebase
Auth emulator answers them.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_firebase_config -v
"""

import json
import unittest

from firebase_admin import auth

from test_firebase_admin import EMULATOR, PASSWORD, PROJECT, V1, FirebaseCase, bad_request, \
    unique_email

OWNER = {"Authorization": "Bearer owner"}
V2_CONFIG = f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/config"
DEFAULTS = {"signIn": {"allowDuplicateEmails": False}, "blockingFunctions": {},
            "emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}}


class ListingAndConfigTest(FirebaseCase):
    def setUp(self):
        # The configuration lives in the server process: every test starts from the defaults.
        self.assertEqual(self.server.json("PATCH", f"{EMULATOR}/config", {})[0], 200)

    def tearDown(self):
        self.server.json("PATCH", f"{EMULATOR}/config", {})
        super().tearDown()

    def admin(self, method, path, body=None):
        """A privileged call (`Bearer owner`); (status, parsed body)."""
        return self.server.json(method, path, body, OWNER)

    def create_auth_uri(self, identifier, session="session-1"):
        return self.rest("createAuthUri", {"identifier": identifier,
                                           "continueUri": "http://localhost:3000/",
                                           "sessionId": session})

    def test_list_users_pages_by_uid_and_a_full_page_names_a_next_one(self):
        made = {auth.create_user(email=unique_email("page"), app=self.app).uid for _ in range(5)}
        page = auth.list_users(max_results=2, app=self.app)
        self.assertEqual(len(page.users), 2)
        self.assertEqual(page.next_page_token, page.users[-1].uid)
        uids = [user.uid for user in page.iterate_all()]
        self.assertEqual(uids, sorted(uids))
        self.assertEqual(len(uids), len(set(uids)))
        self.assertTrue(made <= set(uids))
        # Exactly all of them on one page: the emulator still names a next page, an empty one.
        whole = auth.list_users(max_results=len(uids), app=self.app)
        self.assertTrue(whole.has_next_page)
        self.assertEqual(whole.get_next_page().users, [])

    def test_get_users_by_uid_email_provider_and_phone(self):
        email = unique_email("get")
        with_password = auth.create_user(email=email, password=PASSWORD, app=self.app)
        without = auth.create_user(email=unique_email("nopassword"), app=self.app)
        missing = [auth.UidIdentifier("no-such-uid"), auth.PhoneIdentifier("+15555550100"),
                   auth.ProviderIdentifier("password", without.email)]
        result = auth.get_users([auth.UidIdentifier(without.uid), auth.EmailIdentifier(email),
                                 auth.ProviderIdentifier("password", email)] + missing, app=self.app)
        self.assertEqual(sorted(user.uid for user in result.users),
                         sorted([with_password.uid, without.uid]))
        self.assertEqual(len(result.not_found), len(missing))

    def test_get_user_by_email_ignores_case_and_names_a_missing_one(self):
        email = unique_email("byemail")
        user = auth.create_user(email=email, password=PASSWORD, display_name="Ada", app=self.app)
        found = auth.get_user_by_email(email.upper(), app=self.app)
        self.assertEqual((found.uid, found.display_name), (user.uid, "Ada"))
        self.assertEqual([(p.provider_id, p.uid) for p in found.provider_data], [("password", email)])
        with self.assertRaises(auth.UserNotFoundError):
            auth.get_user_by_email(unique_email("nobody"), app=self.app)

    def test_create_auth_uri_says_how_an_email_signs_in_unless_privacy_hides_it(self):
        email = unique_email("authuri")
        self.sign_up(email)
        status, raw = self.create_auth_uri(email.upper())
        self.assertEqual(status, 200, raw)
        self.assertEqual(raw, json.dumps({
            "kind": "identitytoolkit#CreateAuthUriResponse", "registered": True,
            "allProviders": ["password"], "sessionId": "session-1",
            "signinMethods": ["password"]}, separators=(",", ":")).encode())
        unknown = json.loads(self.create_auth_uri(unique_email("unknown"), session="")[1])
        self.assertFalse(unknown["registered"])
        self.assertRegex(unknown["sessionId"], r"^[A-Za-z0-9]{27}$")
        self.assertEqual(self.rest("createAuthUri", {"continueUri": "http://localhost/"}),
                         (400, bad_request("MISSING_IDENTIFIER")))
        self.assertEqual(self.rest("createAuthUri", {"identifier": email, "continueUri": "nope"}),
                         (400, bad_request("INVALID_CONTINUE_URI")))
        self.server.json("PATCH", f"{EMULATOR}/config",
                         {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}})
        self.assertEqual(json.loads(self.create_auth_uri(email)[1]),
                         {"kind": "identitytoolkit#CreateAuthUriResponse", "sessionId": "session-1"})

    def test_query_lists_every_user_by_uid_or_counts_them(self):
        for _ in range(3):
            auth.create_user(email=unique_email("query"), app=self.app)
        path = f"{V1}/projects/{PROJECT}/accounts:query"
        status, count = self.admin("POST", path, {"returnUserInfo": False})
        self.assertEqual(status, 200)
        status, listed = self.admin("POST", path, {})
        self.assertEqual(status, 200)
        self.assertEqual(listed["recordsCount"], count["recordsCount"])
        uids = [user["localId"] for user in listed["userInfo"]]
        self.assertEqual(uids, sorted(uids))
        self.assertEqual(len(uids), int(count["recordsCount"]))
        status, reversed_ = self.admin("POST", f"{V1}/projects/{PROJECT}:queryAccounts",
                                       {"order": "DESC"})
        self.assertEqual([user["localId"] for user in reversed_["userInfo"]], uids[::-1])
        status, refused = self.admin("POST", path, {"limit": "10"})
        self.assertEqual((status, refused["error"]["message"]), (501, "limit is not implemented."))
        status, _, raw = self.server.request("POST", f"{path}?key=fake-api-key", {})
        self.assertEqual((status, raw), (400, bad_request(
            "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")))

    def test_v2_config_masks_resets_and_its_flags_take_effect(self):
        self.assertEqual(self.admin("GET", V2_CONFIG), (200, DEFAULTS))
        self.assertEqual(self.server.json("GET", V2_CONFIG)[0], 403, "an admin's route")
        status, masked = self.admin(
            "PATCH", f"{V2_CONFIG}?updateMask=emailPrivacyConfig.enableImprovedEmailPrivacy,"
                     "blockingFunctions.forwardInboundCredentials.idToken",
            {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True},
             "signIn": {"allowDuplicateEmails": True},
             "blockingFunctions": {"forwardInboundCredentials": {"idToken": True}}})
        self.assertEqual((status, masked), (200, {
            "signIn": {"allowDuplicateEmails": False},
            "blockingFunctions": {"forwardInboundCredentials": {"idToken": True}},
            "emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}))
        email = unique_email("privacy")
        self.sign_up(email)
        self.assertEqual(self.sign_in(email, "wrong-password"),
                         (400, bad_request("INVALID_LOGIN_CREDENTIALS")))
        self.assertEqual(self.server.json("GET", f"{EMULATOR}/config"), (200, {
            "signIn": {"allowDuplicateEmails": False},
            "emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}))
        # No mask: every field the emulator keeps is set from the body, unsent ones to defaults.
        status, reset = self.admin("PATCH", V2_CONFIG, {"signIn": {"allowDuplicateEmails": True}})
        self.assertEqual(reset, dict(DEFAULTS, signIn={"allowDuplicateEmails": True}))
        self.assertEqual(self.sign_in(email, "wrong-password"), (400, bad_request("INVALID_PASSWORD")))
        status, refused = self.admin("PATCH", V2_CONFIG, {"blockingFunctions": {"triggers": {
            "beforeCreate": {"functionUri": "http://127.0.0.1:5001/demo-app/us-central1/f"}}}})
        self.assertEqual(status, 501, refused)

    def test_the_emulators_own_config_sets_the_flags_sent_and_an_empty_patch_resets(self):
        self.admin("PATCH", f"{V2_CONFIG}?updateMask=blockingFunctions",
                   {"blockingFunctions": {"forwardInboundCredentials": {"accessToken": True}}})
        status, flags = self.server.json("PATCH", f"{EMULATOR}/config",
                                         {"signIn": {"allowDuplicateEmails": True}})
        self.assertEqual((status, flags), (200, {
            "signIn": {"allowDuplicateEmails": True},
            "emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}}))
        self.assertIn("forwardInboundCredentials", self.admin("GET", V2_CONFIG)[1]["blockingFunctions"])
        self.assertEqual(self.server.json("PATCH", f"{EMULATOR}/config", {})[0], 200)
        self.assertEqual(self.admin("GET", V2_CONFIG), (200, DEFAULTS))


if __name__ == "__main__":
    unittest.main()

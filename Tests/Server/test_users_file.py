"""`authflow serve --users FILE`: accounts seeded at start with fixed ids, reached through
supabase-auth (authflow's users file) and through firebase-admin and the REST API the client
SDKs call (the Firebase emulator's accounts.json, moved over unchanged).

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_users_file
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from firebase_admin import auth
from supabase_auth import SyncGoTrueClient

from firebase_case import PROJECT, V1, FirebaseAppCase
from serve import Server, ServerTestCase, binary

ADA_ID = "6f9619ff-8b86-4011-b42d-00c04fc964ff"

USERS = {"users": [
    {"id": ADA_ID, "email": "ada@example.com", "password": "correct horse",
     "email_confirm": True, "user_metadata": {"full_name": "Ada Lovelace"},
     "app_metadata": {"plan": "pro"}},
    {"id": "11111111-2222-4333-8444-555555555555", "email": "bob@example.com",
     "password_hash": "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"},
]}

# What `firebase emulators:export` writes to auth_export/accounts.json.
ACCOUNTS = {"kind": "identitytoolkit#DownloadAccountResponse", "users": [
    {"localId": "Xy7fLQ2kZ9", "email": "grace@example.com", "emailVerified": True,
     "displayName": "Grace Hopper", "passwordHash": "fakeHash:salt=fakeSaltQw3:password=cobol1959",
     "salt": "fakeSaltQw3", "passwordUpdatedAt": 1700000000000, "validSince": "1700000000",
     "disabled": False, "createdAt": "1700000000000", "lastLoginAt": "1700000000000",
     "customAttributes": "{\"role\":\"admiral\"}",
     "providerUserInfo": [{"providerId": "password", "email": "grace@example.com",
                           "federatedId": "grace@example.com", "rawId": "grace@example.com",
                           "displayName": "Grace Hopper"}]},
]}


def write_json(value):
    """A temporary file holding `value`, removed when the test process ends."""
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    with handle:
        json.dump(value, handle)
    return handle.name


class SeededGoTrue(ServerTestCase):
    """A fresh server seeded with authflow's users file."""

    @classmethod
    def server_options(cls):
        cls.users_path = write_json(USERS)
        cls.addClassCleanup(os.unlink, cls.users_path)
        return ("--users", cls.users_path)

    def client(self):
        client = SyncGoTrueClient(url=self.server.url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        return client

    def test_seeded_user_signs_in_with_its_fixed_id_and_metadata(self):
        answer = self.client().sign_in_with_password(
            {"email": "ada@example.com", "password": "correct horse"})
        self.assertEqual(answer.user.id, ADA_ID)
        self.assertEqual(answer.user.user_metadata, {"full_name": "Ada Lovelace"})
        self.assertEqual(answer.user.app_metadata["plan"], "pro")
        self.assertIsNotNone(answer.user.email_confirmed_at)

    def test_no_demo_accounts_beside_the_file(self):
        status, _, _ = self.server.request(
            "POST", "/token?grant_type=password",
            {"email": "test@example.com", "password": "TestPassword123!"},
            headers=self.server.anon_headers())
        self.assertEqual(status, 400)


class SeededFirebase(FirebaseAppCase):
    """A fresh server seeded with the Firebase emulator's accounts.json."""

    @classmethod
    def server_options(cls):
        cls.accounts_path = write_json(ACCOUNTS)
        cls.addClassCleanup(os.unlink, cls.accounts_path)
        return ("--users", cls.accounts_path, "--firebase-project", PROJECT)

    def test_admin_sdk_finds_the_account_by_its_local_id(self):
        user = auth.get_user("Xy7fLQ2kZ9", app=self.app)
        self.assertEqual(user.email, "grace@example.com")
        self.assertTrue(user.email_verified)
        self.assertEqual(user.display_name, "Grace Hopper")
        self.assertEqual(user.custom_claims, {"role": "admiral"})
        self.assertEqual(user.user_metadata.creation_timestamp, 1700000000000)

    def test_rest_sign_in_with_the_exported_password(self):
        status, _, raw = self.server.request(
            "POST", f"{V1}/accounts:signInWithPassword?key=fake-api-key",
            {"email": "grace@example.com", "password": "cobol1959", "returnSecureToken": True})
        self.assertEqual(status, 200, raw)
        self.assertEqual(json.loads(raw)["localId"], "Xy7fLQ2kZ9")


class UsersFileAtStart(unittest.TestCase):
    """What starting with a users file does to a store, and to a bad file."""

    def wait_for_log(self, server, text, timeout=10.0):
        server.wait_for_log(re.escape(text), timeout)

    def test_each_start_applies_the_file_idempotently(self):
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder, True)
        users = write_json(USERS)
        self.addCleanup(os.unlink, users)
        store = os.path.join(folder, "auth.db")
        first = Server("--users", users, store=store).start()
        self.addCleanup(first.stop)
        self.wait_for_log(first, "2 added, 0 updated, 0 unchanged")
        first.stop()
        second = Server("--users", users, store=store).start()
        self.addCleanup(second.stop)
        self.wait_for_log(second, "0 added, 0 updated, 2 unchanged")

    def test_a_bad_file_refuses_to_start_with_one_line(self):
        bad = write_json({"users": [{"id": ADA_ID, "email": "ada@example.com",
                                     "password_hash": "md5:abc"}]})
        self.addCleanup(os.unlink, bad)
        result = subprocess.run(
            [binary(), "serve", "--store", ":memory:", "--port", "0", "--users", bad],
            capture_output=True, text=True, timeout=30)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout, "")
        self.assertEqual(
            result.stderr,
            f"authflow serve: users file {bad}: users[0] ({ADA_ID}): password_hash: is not a "
            "bcrypt hash ($2a$, $2b$ or $2y$, 60 characters); give one, or a password\n")

    def test_a_hash_too_slow_to_check_refuses_to_start_with_one_line(self):
        # Cost 31: one sign-in would hold a CPU for about a day.
        slow = "$2b$31$" + "a" * 53
        bad = write_json({"users": [{"id": ADA_ID, "email": "ada@example.com",
                                     "password_hash": slow}]})
        self.addCleanup(os.unlink, bad)
        result = subprocess.run(
            [binary(), "serve", "--store", ":memory:", "--port", "0", "--users", bad],
            capture_output=True, text=True, timeout=30)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout, "")
        self.assertEqual(
            result.stderr,
            f"authflow serve: users file {bad}: users[0] ({ADA_ID}): password_hash: has bcrypt "
            "cost 31, above the highest authflow checks at sign-in (14); rehash it at cost 14 "
            "or lower, or give a password\n")


if __name__ == "__main__":
    unittest.main()

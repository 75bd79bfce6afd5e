"""User import on `authflow serve --firebase-project`, as Google's Admin SDK does it:
`auth.import_users` with the hash algorithms a migration brings (HMAC-SHA256, PBKDF2-SHA256,
bcrypt, SHA-256 and MD5 with rounds, standard scrypt), users without passwords, and a user's
entry of another provider (`google.com`), kept, found and unlinked as the emulator does. Every
hash is made here with Python's hashlib, hmac and bcrypt; each imported user then signs in
through the REST API (`accounts:signInWithPassword`) and through GoTrue (`POST
/token?grant_type=password`), which share the account.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_firebase_import
"""

import base64
import hashlib
import hmac
import json
import os
import unittest

import bcrypt
from firebase_admin import auth, exceptions

from test_firebase_admin import FirebaseCase, unique_email

PASSWORD = "Imported-123"
KEY = b"an importer's signer key"


def repeated(name, data, rounds):
    """Firebase's reading of a digest with rounds: H(salt + password), then H of that, `rounds`
    times in all (0 and 1 both hash once)."""
    digest = hashlib.new(name, data).digest()
    for _ in range(1, max(rounds, 1)):
        digest = hashlib.new(name, digest).digest()
    return digest


class ImportTest(FirebaseCase):
    def imported(self, label, hash_alg, make_hash, **fields):
        """A user imported with a hash of PASSWORD made by `make_hash(password, salt)`."""
        salt = os.urandom(12)
        user = auth.ImportUserRecord(
            uid=f"{label}-{os.urandom(4).hex()}", email=unique_email(label), email_verified=True,
            password_hash=make_hash(PASSWORD.encode(), salt), password_salt=salt, **fields)
        result = auth.import_users([user], hash_alg=hash_alg, app=self.app)
        self.assertEqual((result.success_count, result.failure_count), (1, 0),
                         [error.reason for error in result.errors])
        return user

    def goTrue_sign_in(self, email, password):
        return self.server.request(
            "POST", "/token?grant_type=password", {"email": email, "password": password},
            headers=self.server.anon_headers())

    def assert_signs_in_on_both_surfaces(self, user):
        status, raw = self.sign_in(user.email, "not-" + PASSWORD)
        self.assertEqual(status, 400, raw)
        self.assertEqual(json.loads(raw)["error"]["message"], "INVALID_PASSWORD")
        status, raw = self.sign_in(user.email, PASSWORD)
        self.assertEqual(status, 200, raw)
        self.assertEqual(json.loads(raw)["localId"], user.uid)
        # The first sign-in rehashed the password with bcrypt; GoTrue reads the same account.
        status, _, raw = self.goTrue_sign_in(user.email, "not-" + PASSWORD)
        self.assertEqual(status, 400, raw)
        status, _, raw = self.goTrue_sign_in(user.email, PASSWORD)
        self.assertEqual(status, 200, raw)
        self.assertEqual(json.loads(raw)["user"]["id"], user.uid)

    def test_hmac_sha256(self):
        user = self.imported(
            "hmac", auth.UserImportHash.hmac_sha256(key=KEY),
            lambda password, salt: hmac.new(KEY, salt + password, "sha256").digest())
        self.assert_signs_in_on_both_surfaces(user)

    def test_pbkdf2_sha256(self):
        user = self.imported(
            "pbkdf2", auth.UserImportHash.pbkdf2_sha256(rounds=1000),
            lambda password, salt: hashlib.pbkdf2_hmac("sha256", password, salt, 1000))
        self.assert_signs_in_on_both_surfaces(user)

    def test_bcrypt(self):
        user = self.imported(
            "bcrypt", auth.UserImportHash.bcrypt(),
            lambda password, _: bcrypt.hashpw(password, bcrypt.gensalt(4)))
        self.assert_signs_in_on_both_surfaces(user)

    def test_sha256_with_rounds(self):
        user = self.imported(
            "sha256", auth.UserImportHash.sha256(rounds=7),
            lambda password, salt: repeated("sha256", salt + password, 7))
        self.assert_signs_in_on_both_surfaces(user)

    def test_md5_with_rounds(self):
        user = self.imported(
            "md5", auth.UserImportHash.md5(rounds=2),
            lambda password, salt: repeated("md5", salt + password, 2))
        self.assert_signs_in_on_both_surfaces(user)

    def test_standard_scrypt(self):
        user = self.imported(
            "scrypt",
            auth.UserImportHash.standard_scrypt(
                memory_cost=1024, parallelization=1, block_size=8, derived_key_length=32),
            lambda password, salt: hashlib.scrypt(password, salt=salt, n=1024, r=8, p=1, dklen=32))
        self.assert_signs_in_on_both_surfaces(user)

    def test_firebase_scrypt_with_the_sdks_own_vector(self):
        # The vector firebase-admin's own integration test imports: "password", salt "NaCl".
        user = auth.ImportUserRecord(
            uid=f"fbscrypt-{os.urandom(4).hex()}", email=unique_email("fbscrypt"),
            password_hash=base64.b64decode(
                "V358E8LdWJXAO7muq0CufVpEOXaj8aFiC7T/rcaGieN04q/ZPJ08WhJEHGjj9lz/2TT+/86N5VjVoc5DdBhBiw=="),
            password_salt=b"NaCl")
        key = base64.b64decode(
            "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")
        scrypt = auth.UserImportHash.scrypt(
            key=key, salt_separator=b"\x07", rounds=8, memory_cost=14)
        result = auth.import_users([user], hash_alg=scrypt, app=self.app)
        self.assertEqual(result.success_count, 1, [error.reason for error in result.errors])
        status, raw = self.sign_in(user.email, "password")
        self.assertEqual(status, 200, raw)

    def test_users_without_passwords_and_what_an_import_keeps(self):
        plain = auth.ImportUserRecord(
            uid=f"plain-{os.urandom(4).hex()}", email=unique_email("plain"),
            display_name="Ada", photo_url="https://example.com/ada.png", email_verified=True,
            disabled=True, custom_claims={"role": "admin"},
            user_metadata=auth.UserMetadata(
                creation_timestamp=1_700_000_000_000, last_sign_in_timestamp=1_700_000_100_000))
        bare = auth.ImportUserRecord(uid=f"bare-{os.urandom(4).hex()}")
        result = auth.import_users([plain, bare], app=self.app)
        self.assertEqual((result.success_count, result.failure_count), (2, 0),
                         [error.reason for error in result.errors])
        kept = auth.get_user(plain.uid, app=self.app)
        self.assertEqual(
            (kept.email, kept.display_name, kept.photo_url, kept.email_verified, kept.disabled,
             kept.custom_claims),
            (plain.email, "Ada", "https://example.com/ada.png", True, True, {"role": "admin"}))
        self.assertEqual(kept.user_metadata.creation_timestamp, 1_700_000_000_000)
        self.assertEqual(kept.user_metadata.last_sign_in_timestamp, 1_700_000_100_000)
        self.assertEqual(auth.get_user(bare.uid, app=self.app).email, None)
        status, raw = self.sign_in(plain.email, PASSWORD)
        self.assertEqual(json.loads(raw)["error"]["message"], "USER_DISABLED", raw)

    def test_a_google_entry_is_kept_found_and_unlinked(self):
        google_id = f"google-{os.urandom(4).hex()}"
        user = auth.ImportUserRecord(
            uid=f"linked-{os.urandom(4).hex()}", email=unique_email("linked"),
            provider_data=[auth.UserProvider(
                uid=google_id, provider_id="google.com", email="ada@gmail.example",
                display_name="Ada G")])
        result = auth.import_users([user], app=self.app)
        self.assertEqual((result.success_count, result.failure_count), (1, 0),
                         [error.reason for error in result.errors])
        kept = auth.get_user(user.uid, app=self.app)
        self.assertEqual(
            [(p.provider_id, p.uid, p.email, p.display_name) for p in kept.provider_data],
            [("google.com", google_id, "ada@gmail.example", "Ada G")])
        found = auth.get_users([auth.ProviderIdentifier("google.com", google_id)], app=self.app)
        self.assertEqual([u.uid for u in found.users], [user.uid])

        rival = auth.ImportUserRecord(
            uid=f"rival-{os.urandom(4).hex()}",
            provider_data=[auth.UserProvider(uid=google_id, provider_id="google.com")])
        refused = auth.import_users([rival], app=self.app)
        self.assertEqual([(e.index, e.reason) for e in refused.errors],
                         [(0, "raw id exists in other account in database")])

        unlinked = auth.update_user(user.uid, providers_to_delete=["google.com"], app=self.app)
        self.assertEqual(unlinked.provider_data, [])
        found = auth.get_users([auth.ProviderIdentifier("google.com", google_id)], app=self.app)
        self.assertEqual(found.users, [])
        self.assertEqual(auth.import_users([rival], app=self.app).success_count, 1)

    def test_refused_users_are_named_by_index(self):
        taken = unique_email("taken")
        auth.create_user(email=taken, password=PASSWORD, app=self.app)
        phone = f"+1555{int.from_bytes(os.urandom(3), 'big') % 10_000_000:07d}"
        users = [
            auth.ImportUserRecord(uid=f"ok-{os.urandom(4).hex()}"),
            auth.ImportUserRecord(uid=f"dup-{os.urandom(4).hex()}", email=taken),
            auth.ImportUserRecord(uid=f"phone-{os.urandom(4).hex()}", phone_number=phone),
            auth.ImportUserRecord(uid=f"phone-{os.urandom(4).hex()}", phone_number=phone),
        ]
        result = auth.import_users(users, app=self.app)
        self.assertEqual(result.success_count, 2)
        self.assertEqual(
            [(error.index, error.reason) for error in result.errors],
            [(1, f"((authflow serve does not support importing duplicate email: {taken}))"),
             (3, f"((authflow serve does not support importing duplicate phone number: {phone}))")])
        self.assertEqual(auth.get_user(users[2].uid, app=self.app).phone_number, phone)

    def test_an_unknown_algorithm_refuses_the_import(self):
        user = auth.ImportUserRecord(
            uid=f"argon-{os.urandom(4).hex()}", email=unique_email("argon"),
            password_hash=b"x" * 32, password_salt=b"s")
        with self.assertRaises(exceptions.InvalidArgumentError) as caught:
            auth.import_users([user], hash_alg=auth.UserImportHash("ARGON2"), app=self.app)
        self.assertIn("INVALID_HASH_ALGORITHM", str(caught.exception))


if __name__ == "__main__":
    unittest.main()

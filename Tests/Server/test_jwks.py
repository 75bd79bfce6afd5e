"""`authflow serve --jwt-keys`: GoTrue's asymmetric signing keys and /.well-known/jwks.json.

Tokens are checked the way apps and other services check them: supabase-auth's
`SyncGoTrueClient.get_claims()` (which verifies an asymmetric token against the JWKS and falls
back to GET /user for HS256) and PyJWT's `PyJWKClient` + `jwt.decode`. The keys are the test
fixtures in Tests/Fixtures/jwk (made once with `openssl genpkey`).

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_jwks -v
"""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time
import unittest
import uuid

import httpx
import jwt
from supabase_auth import SyncGoTrueAdminAPI, SyncGoTrueClient
from supabase_auth.errors import AuthApiError, AuthInvalidJwtError

from serve import ServerTestCase, binary

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "Fixtures" / "jwk"
PASSWORD = "correct-horse-battery"
SECRET = "a-test-secret-of-at-least-32-characters"
PRIVATE_MEMBERS = {"d", "p", "q", "dp", "dq", "qi", "k"}
START_TIMEOUT = 30.0


def fixture(name, operations=None):
    """The fixture JWK `name`; `operations` replaces its key_ops (["sign", "verify"])."""
    key = json.loads((FIXTURES / f"{name}.json").read_text())
    if operations is not None:
        key["key_ops"] = operations
    return key


def unique_email(label):
    return f"{label}-{uuid.uuid4().hex[:12]}@example.com"


def header(token):
    """A JWT's header, unverified."""
    return jwt.get_unverified_header(token)


def token_signed_by(name, claims, kid=None):
    """`claims` signed with the fixture key `name`'s private half, as another service would."""
    key = fixture(name)
    algorithm = jwt.get_algorithm_by_name(key["alg"])
    private = algorithm.from_jwk(json.dumps(key))
    return jwt.encode(claims, private, algorithm=key["alg"], headers={"kid": kid or key["kid"]})


def service_claims():
    return {"role": "service_role", "iss": "test", "exp": int(time.time()) + 300}


class KeysCase(ServerTestCase):
    """Starts one server per class with KEYS (fixture name → key_ops) written to a file and
    passed as --jwt-keys, plus OPTIONS."""

    KEYS = ()

    @classmethod
    def server_options(cls):
        folder = tempfile.mkdtemp(prefix="authflow-jwks-")
        cls.addClassCleanup(shutil.rmtree, folder, ignore_errors=True)
        options = ["--autoconfirm", "--jwt-secret", SECRET, *cls.OPTIONS]
        if cls.KEYS:
            path = os.path.join(folder, "keys.json")
            with open(path, "w", encoding="utf-8") as file:
                json.dump([fixture(name, ops) for name, ops in cls.KEYS], file)
            options += ["--jwt-keys", path]
        return options

    def client(self, prefix=""):
        client = SyncGoTrueClient(url=self.server.url + prefix,
                                  headers=self.server.anon_headers(), auto_refresh_token=False)
        self.addCleanup(client.close)
        return client

    def admin(self, key):
        admin = SyncGoTrueAdminAPI(url=self.server.url,
                                   headers={"apikey": key, "Authorization": f"Bearer {key}"})
        self.addCleanup(admin.close)
        return admin

    def signed_in(self, prefix=""):
        """A new user signed up (autoconfirm signs in at once); returns (client, session)."""
        client = self.client(prefix)
        response = client.sign_up({"email": unique_email("jwks"), "password": PASSWORD})
        self.assertIsNotNone(response.session)
        return client, response.session

    def jwks(self, prefix=""):
        reply = httpx.get(self.server.url + prefix + "/.well-known/jwks.json", timeout=10)
        self.assertEqual(reply.status_code, 200)
        self.assertEqual(reply.headers["cache-control"], "public, max-age=600")
        return reply.json()

    def decode_with_jwks(self, token, prefix="", **options):
        """PyJWT's verification through the server's JWKS, as a resource server does it."""
        url = self.server.url + prefix + "/.well-known/jwks.json"
        keys = jwt.PyJWKClient(url, cache_keys=False)
        signing_key = keys.get_signing_key_from_jwt(token)
        return jwt.decode(token, signing_key.key, algorithms=[header(token)["alg"]], **options)


class RSASigningKeyTests(KeysCase):
    """An RS256 signing key with an ES256 key kept for verification; GoTrue's default valid
    methods (the keys' algorithms), so HS256 tokens made with the secret are refused."""

    KEYS = (("rsa-a", None), ("ec-a", ["verify"]))

    def test_the_key_set_publishes_public_halves_only(self):
        for prefix in ("", "/auth/v1"):
            keys = self.jwks(prefix)["keys"]
            self.assertEqual([key["kid"] for key in keys], ["test-rsa-a", "test-ec-a"])
            for key in keys:
                self.assertEqual(key["use"], "sig")
                self.assertEqual(key["key_ops"], ["verify"])
                self.assertFalse(PRIVATE_MEMBERS & key.keys(), key.keys())

    def test_access_tokens_verify_through_the_jwks_with_pyjwt(self):
        _, session = self.signed_in("/auth/v1")
        self.assertEqual(header(session.access_token),
                         {"alg": "RS256", "kid": "test-rsa-a", "typ": "JWT"})
        claims = self.decode_with_jwks(session.access_token, "/auth/v1", audience="authenticated")
        self.assertEqual(claims["sub"], session.user.id)
        self.assertEqual(claims["role"], "authenticated")

    def test_get_claims_verifies_the_signature_against_the_jwks(self):
        client, session = self.signed_in()
        response = client.get_claims()
        self.assertEqual(response["claims"]["sub"], session.user.id)
        self.assertEqual(response["headers"]["kid"], "test-rsa-a")
        head, payload, signature = session.access_token.split(".")
        forged = f"{head}.{payload}.{signature[:-4]}AAAA"
        with self.assertRaises(AuthInvalidJwtError) as raised:
            client.get_claims(forged)
        self.assertEqual(raised.exception.message, "Invalid JWT signature")

    def test_the_printed_service_role_key_administers(self):
        self.assertEqual(header(self.server.service_key)["alg"], "RS256")
        self.assertIsInstance(self.admin(self.server.service_key).list_users(), list)
        claims = self.decode_with_jwks(self.server.service_key, options={"verify_aud": False})
        self.assertEqual(claims["role"], "service_role")

    def test_hs256_tokens_signed_with_the_secret_are_refused(self):
        legacy = jwt.encode(service_claims(), SECRET, algorithm="HS256")
        with self.assertRaises(AuthApiError) as raised:
            self.admin(legacy).list_users()
        self.assertEqual(raised.exception.status, 403)
        self.assertIn("signing method HS256 is invalid", raised.exception.message)

    def test_a_verify_only_key_checks_tokens_that_name_it(self):
        accepted = token_signed_by("ec-a", service_claims())
        self.assertIsInstance(self.admin(accepted).list_users(), list)
        for forged in (token_signed_by("rsa-b", service_claims()),
                       token_signed_by("rsa-b", service_claims(), kid="test-rsa-a")):
            with self.assertRaises(AuthApiError) as raised:
                self.admin(forged).list_users()
            self.assertEqual(raised.exception.status, 403)


class ECSigningKeyTests(KeysCase):
    """An ES256 signing key with the Supabase CLI's valid methods (HS256,RS256,ES256), so
    tokens made with the secret keep working beside the asymmetric ones."""

    KEYS = (("ec-a", None), ("rsa-b", ["verify"]))
    OPTIONS = ("--jwt-valid-methods", "HS256,RS256,ES256")

    def test_es256_tokens_verify_with_pyjwt_and_get_claims(self):
        client, session = self.signed_in()
        self.assertEqual(header(session.access_token),
                         {"alg": "ES256", "kid": "test-ec-a", "typ": "JWT"})
        claims = self.decode_with_jwks(session.access_token, audience="authenticated")
        self.assertEqual(claims["sub"], session.user.id)
        self.assertEqual(client.get_claims()["claims"]["sub"], session.user.id)

    def test_hs256_service_tokens_and_other_keys_tokens_are_accepted(self):
        legacy = jwt.encode(service_claims(), SECRET, algorithm="HS256")
        self.assertIsInstance(self.admin(legacy).list_users(), list)
        self.assertIsInstance(self.admin(token_signed_by("rsa-b", service_claims())).list_users(),
                              list)
        self.assertIsInstance(self.admin(self.server.service_key).list_users(), list)


class SecretOnlyTests(KeysCase):
    """No keys: HS256 with the secret, nothing to publish; get_claims falls back to GET /user."""

    def test_the_key_set_is_empty(self):
        self.assertEqual(self.jwks(), {"keys": []})

    def test_get_claims_still_works(self):
        client, session = self.signed_in()
        self.assertEqual(header(session.access_token), {"alg": "HS256", "typ": "JWT"})
        response = client.get_claims()
        self.assertEqual(response["claims"]["sub"], session.user.id)
        decoded = jwt.decode(session.access_token, SECRET, algorithms=["HS256"],
                             audience="authenticated")
        self.assertEqual(decoded["sub"], session.user.id)


class BadKeysTests(unittest.TestCase):
    """Keys serve cannot use stop it before it listens: one line on stderr, exit 2."""

    def run_serve(self, keys_text):
        folder = tempfile.mkdtemp(prefix="authflow-jwks-")
        self.addCleanup(shutil.rmtree, folder, ignore_errors=True)
        path = os.path.join(folder, "keys.json")
        with open(path, "w", encoding="utf-8") as file:
            file.write(keys_text)
        done = subprocess.run(
            [binary(), "serve", "--store", ":memory:", "--port", "0", "--jwt-keys", path],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=START_TIMEOUT)
        return done.returncode, done.stdout, done.stderr

    def test_unusable_keys_refuse_to_start_with_one_line(self):
        two_signers = json.dumps([fixture("rsa-a"), fixture("ec-a")])
        cases = {
            "{not json": "is not JSON",
            json.dumps({"keys": [fixture("rsa-a")]}): "is a JWK set",
            json.dumps([fixture("rsa-a", ["verify"])]): 'no key that lists "sign"',
            two_signers: 'has 2 keys that list "sign"',
        }
        for text, expected in cases.items():
            status, out, err = self.run_serve(text)
            self.assertEqual(status, 2, err)
            self.assertEqual(out, "")
            lines = err.splitlines()
            self.assertEqual(len(lines), 1, err)
            self.assertTrue(lines[0].startswith("authflow serve: --jwt-keys takes "), lines[0])
            self.assertIn(expected, lines[0])
            for secret in (fixture("rsa-a")["d"], fixture("ec-a")["d"]):
                self.assertNotIn(secret, err)


if __name__ == "__main__":
    unittest.main()

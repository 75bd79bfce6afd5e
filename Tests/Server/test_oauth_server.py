"""`authflow serve` as GoTrue's OAuth 2.1 server, driven as its users meet it: clients registered
through supabase-py's `auth.admin.oauth` (create, list, get, update, regenerate the secret,
delete), and a third-party app's authorization-code flow with PKCE through the HTTP routes
supabase-js's `auth.oauth` calls (supabase-py has no client for them): `GET /oauth/authorize` to
the site's consent page, the signed-in user's `GET /oauth/authorizations/{id}` and consent,
`POST /oauth/token` for the code and for refreshes, then the user's grants and their
revocation. Off (the default), every route answers as GoTrue does with the server off.

Runs on the suite's store (AUTHFLOW_TEST_STORE); `OAuthServerOnPostgresTests` always runs the
flow on the throw-away PostgreSQL and reads GoTrue's `auth.oauth_*` rows it leaves.
"""

import base64
import hashlib
import json
import os
import pathlib
import secrets
import shutil
import tempfile
import unittest
import urllib.parse
import uuid

import jwt
import pgserver
from serve import ServerTestCase, claims
from supabase_auth import SyncGoTrueAdminAPI, SyncGoTrueClient
from supabase_auth.errors import AuthApiError
from supabase_auth.types import CreateOAuthClientParams, UpdateOAuthClientParams

SITE_URL = "http://127.0.0.1:3000"
REDIRECT = "http://localhost:4000/callback"
PASSWORD = "correct-horse-battery"
FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "Fixtures" / "jwk"


def pkce_pair():
    """A verifier and its S256 challenge (RFC 7636)."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def query_of(location):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))


class OAuthServerOffTests(ServerTestCase):
    """With the server off, each route says so, after the check its group makes first."""

    def test_admin_routes_check_the_admin_before_saying_disabled(self):
        for method, path in [("GET", "/admin/oauth/clients"), ("POST", "/admin/oauth/clients"),
                             ("PUT", f"/admin/oauth/clients/{uuid.uuid4()}"),
                             ("PATCH", "/admin/oauth/anything")]:
            status, body = self.server.json(method, "/auth/v1" + path,
                                            headers=self.server.anon_headers())
            self.assertEqual((status, body["error_code"]), (403, "not_admin"), path)
            status, body = self.server.json(method, path, headers=self.server.service_headers())
            self.assertEqual(status, 404, path)
            self.assertEqual(body["error_code"], "feature_disabled")
            self.assertEqual(body["msg"], "OAuth server is disabled")

    def test_public_routes_and_discovery_say_disabled(self):
        for method, path in [("GET", "/oauth/authorize?client_id=x"), ("POST", "/oauth/token"),
                             ("GET", "/oauth/token"), ("POST", "/oauth/clients/register"),
                             ("GET", "/.well-known/oauth-authorization-server")]:
            status, body = self.server.json(method, path, headers=self.server.anon_headers())
            self.assertEqual((status, body["error_code"]), (404, "feature_disabled"), path)
        status, _, _ = self.server.request("POST", "/.well-known/oauth-authorization-server")
        self.assertEqual(status, 405)

    def test_grants_check_the_user_first(self):
        status, body = self.server.json("GET", "/user/oauth/grants",
                                        headers={"apikey": self.server.anon_key})
        self.assertEqual((status, body["error_code"]), (401, "no_authorization"))
        session = self.server.json("POST", "/token?grant_type=password", {
            "email": "test@example.com", "password": "TestPassword123!"})[1]
        headers = {"apikey": self.server.anon_key,
                   "Authorization": f"Bearer {session['access_token']}"}
        status, body = self.server.json("DELETE", "/user/oauth/grants", headers=headers)
        self.assertEqual((status, body["error_code"]), (404, "feature_disabled"))


class OAuthServerFlow:
    """The whole flow, for a class that starts the server on."""

    OPTIONS = ("--oauth-server", "on", "--oauth-authorization-path", "/oauth/consent",
               "--autoconfirm")

    def admin(self):
        admin = SyncGoTrueAdminAPI(url=self.server.url, headers=self.server.service_headers())
        self.addCleanup(admin.close)
        return admin

    def signed_in_user(self):
        email = f"oauth-{uuid.uuid4().hex[:10]}@example.com"
        client = SyncGoTrueClient(url=self.server.url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        client.sign_up({"email": email, "password": PASSWORD})
        session = client.sign_in_with_password({"email": email, "password": PASSWORD}).session
        return email, {"apikey": self.server.anon_key,
                       "Authorization": f"Bearer {session.access_token}"}

    def authorize(self, client_id, challenge, state="s1", scope="email phone"):
        query = urllib.parse.urlencode({
            "client_id": client_id, "redirect_uri": REDIRECT, "response_type": "code",
            "scope": scope, "state": state, "code_challenge": challenge,
            "code_challenge_method": "S256"})
        status, headers, _ = self.server.request("GET", f"/auth/v1/oauth/authorize?{query}")
        self.assertEqual(status, 302)
        return headers["Location"]

    def token(self, form, auth=None):
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if auth:
            headers["Authorization"] = "Basic " + base64.b64encode(auth.encode()).decode()
        return self.server.json("POST", "/auth/v1/oauth/token",
                                urllib.parse.urlencode(form).encode(), headers)

    def test_admin_client_registration_through_supabase_py(self):
        oauth = self.admin().oauth
        made = oauth.create_client(CreateOAuthClientParams(
            client_name="Reader", redirect_uris=[REDIRECT], client_uri="https://reader.example"
        )).client
        self.assertEqual(made.client_type, "confidential")
        self.assertEqual(made.token_endpoint_auth_method, "client_secret_basic")
        self.assertEqual(made.registration_type, "manual")
        self.assertEqual(made.grant_types, ["authorization_code", "refresh_token"])
        self.assertEqual(made.response_types, ["code"])
        self.assertTrue(made.client_secret)
        fetched = oauth.get_client(made.client_id).client
        self.assertEqual(fetched.client_name, "Reader")
        self.assertIsNone(fetched.client_secret, "a secret is shown once only")
        listed = [c.client_id for c in oauth.list_clients().clients]
        self.assertIn(made.client_id, listed)
        changed = oauth.update_client(made.client_id, UpdateOAuthClientParams(
            client_name="Reader 2", redirect_uris=[REDIRECT, "myapp://callback"])).client
        self.assertEqual(changed.client_name, "Reader 2")
        self.assertEqual(changed.redirect_uris, [REDIRECT, "myapp://callback"])
        renewed = oauth.regenerate_client_secret(made.client_id).client
        self.assertTrue(renewed.client_secret)
        self.assertNotEqual(renewed.client_secret, made.client_secret)
        oauth.delete_client(made.client_id)
        with self.assertRaises(AuthApiError) as raised:
            oauth.get_client(made.client_id)
        self.assertEqual((raised.exception.status, raised.exception.code),
                         (404, "oauth_client_not_found"))
        self.assertNotIn(made.client_id, [c.client_id for c in oauth.list_clients().clients])

    def test_registration_refusals_are_gotrues(self):
        status, body = self.server.json("POST", "/admin/oauth/clients",
                                        {"redirect_uris": ["http://evil.example/cb"]},
                                        self.server.service_headers())
        self.assertEqual((status, body["error_code"]), (400, "validation_failed"))
        self.assertEqual(body["msg"], "400: invalid redirect_uri 'http://evil.example/cb': "
                                      "HTTP scheme only allowed for localhost")
        status, body = self.server.json("POST", "/oauth/clients/register",
                                        {"redirect_uris": [REDIRECT]})
        self.assertEqual(
            (status, body["error_code"]), (403, "oauth_dynamic_client_registration_disabled"))

    def test_authorization_code_flow_with_pkce_refresh_and_grants(self):
        made = self.admin().oauth.create_client(CreateOAuthClientParams(
            client_name="Reader", redirect_uris=[REDIRECT])).client
        client_auth = f"{made.client_id}:{made.client_secret}"
        verifier, challenge = pkce_pair()
        email, user = self.signed_in_user()

        consent_page = self.authorize(made.client_id, challenge)
        self.assertTrue(consent_page.startswith(SITE_URL + "/oauth/consent?authorization_id="))
        authorization_id = query_of(consent_page)["authorization_id"]
        status, details = self.server.json(
            "GET", f"/oauth/authorizations/{authorization_id}", headers=user)
        self.assertEqual(status, 200, details)
        self.assertEqual(details["client"], {"id": made.client_id, "name": "Reader"})
        self.assertEqual(details["user"]["email"], email)
        self.assertEqual(details["scope"], "email phone")
        self.assertEqual(details["redirect_uri"], REDIRECT)

        status, approved = self.server.json(
            "POST", f"/oauth/authorizations/{authorization_id}/consent", {"action": "approve"},
            user)
        self.assertEqual(status, 200, approved)
        self.assertTrue(approved["redirect_url"].startswith(REDIRECT + "?"))
        back = query_of(approved["redirect_url"])
        self.assertEqual(back["state"], "s1")

        # A wrong verifier does not get the code's tokens, nor does another client's secret.
        status, refused = self.token({"grant_type": "authorization_code", "code": back["code"],
                                      "code_verifier": "x" * 43}, client_auth)
        self.assertEqual((status, refused["error"]), (400, "invalid_grant"))
        status, refused = self.token({"grant_type": "authorization_code", "code": back["code"],
                                      "code_verifier": verifier}, made.client_id + ":wrong")
        self.assertEqual((status, refused["error_code"]), (400, "invalid_credentials"))

        status, tokens = self.token({"grant_type": "authorization_code", "code": back["code"],
                                     "redirect_uri": REDIRECT, "code_verifier": verifier},
                                    client_auth)
        self.assertEqual(status, 200, tokens)
        self.assertEqual(set(tokens), {"access_token", "token_type", "expires_in",
                                       "refresh_token"})
        access = claims(tokens["access_token"])
        self.assertEqual(access["client_id"], made.client_id)
        self.assertEqual(access["scope"], "email phone")
        self.assertEqual(access["email"], email)
        self.assertEqual(access["amr"][0]["method"], "oauth_provider/authorization_code")
        status, info = self.server.json("GET", "/oauth/userinfo", headers={
            "Authorization": f"Bearer {tokens['access_token']}"})
        self.assertEqual((status, info["sub"], info["email"]), (200, access["sub"], email))
        status, again = self.token({"grant_type": "authorization_code", "code": back["code"],
                                    "code_verifier": verifier}, client_auth)
        self.assertEqual((status, again["error"]), (400, "invalid_grant"), "codes are single use")

        # The client refreshes its session; /token will not refresh it for anyone else.
        status, plain = self.server.json("POST", "/token?grant_type=refresh_token",
                                         {"refresh_token": tokens["refresh_token"]},
                                         self.server.anon_headers())
        self.assertEqual((status, plain["error"]), (400, "invalid_client"))
        status, refreshed = self.token({"grant_type": "refresh_token",
                                        "refresh_token": tokens["refresh_token"]}, client_auth)
        self.assertEqual(status, 200, refreshed)
        self.assertEqual(claims(refreshed["access_token"])["client_id"], made.client_id)

        # Consent given once: the next authorization is approved when the user opens it.
        _, challenge2 = pkce_pair()
        second = query_of(self.authorize(made.client_id, challenge2, state="s2",
                                         scope="email"))["authorization_id"]
        status, auto = self.server.json("GET", f"/oauth/authorizations/{second}", headers=user)
        self.assertEqual(status, 200, auto)
        self.assertEqual(query_of(auto["redirect_url"])["state"], "s2")
        self.assertIn("code", query_of(auto["redirect_url"]))

        status, grants = self.server.json("GET", "/user/oauth/grants", headers=user)
        self.assertEqual(status, 200)
        self.assertEqual([(g["client"]["id"], g["scopes"]) for g in grants],
                         [(made.client_id, ["email", "phone"])])
        status, _, _ = self.server.request(
            "DELETE", f"/user/oauth/grants?client_id={made.client_id}", headers=user)
        self.assertEqual(status, 204)
        self.assertEqual(self.server.json("GET", "/user/oauth/grants", headers=user)[1], [])
        status, revoked = self.token({"grant_type": "refresh_token",
                                      "refresh_token": refreshed["refresh_token"]}, client_auth)
        self.assertEqual(status, 400, "a revoked grant's sessions are gone")
        self.assertEqual(revoked["error_code"], "refresh_token_not_found")
        status, body = self.server.json(
            "DELETE", f"/user/oauth/grants?client_id={made.client_id}", headers=user)
        self.assertEqual((status, body["error_code"]), (404, "oauth_consent_not_found"))

    def test_denial_and_bad_requests_go_back_to_the_client(self):
        # supabase-py's parameters have no token_endpoint_auth_method: the route is called as is.
        status, made = self.server.json("POST", "/admin/oauth/clients", {
            "client_name": "Public", "redirect_uris": [REDIRECT],
            "token_endpoint_auth_method": "none"}, self.server.service_headers())
        self.assertEqual(status, 201)
        self.assertEqual(made["client_type"], "public")
        self.assertNotIn("client_secret", made)
        client_id = made["client_id"]
        _, user = self.signed_in_user()
        query = urllib.parse.urlencode({"client_id": client_id, "redirect_uri": REDIRECT,
                                        "state": "st"})
        status, headers, _ = self.server.request("GET", f"/oauth/authorize?{query}")
        self.assertEqual(status, 302)
        self.assertEqual(query_of(headers["Location"]), {
            "error": "invalid_request", "state": "st",
            "error_description": "PKCE flow requires both code_challenge and "
                                 "code_challenge_method"})
        status, body = self.server.json(
            "GET", "/oauth/authorize?" + urllib.parse.urlencode(
                {"client_id": client_id, "redirect_uri": "http://localhost:9/other"}))
        self.assertEqual((status, body["msg"]), (400, "invalid redirect_uri"))

        _, challenge = pkce_pair()
        authorization_id = query_of(self.authorize(client_id, challenge))["authorization_id"]
        self.server.json("GET", f"/oauth/authorizations/{authorization_id}", headers=user)
        status, denied = self.server.json(
            "POST", f"/oauth/authorizations/{authorization_id}/consent", {"action": "deny"}, user)
        self.assertEqual(status, 200)
        self.assertEqual(query_of(denied["redirect_url"]), {
            "error": "access_denied", "error_description": "User denied the request",
            "state": "s1"})
        status, body = self.server.json(
            "GET", f"/oauth/authorizations/{authorization_id}", headers=user)
        self.assertEqual((status, body["error_code"]), (400, "validation_failed"))

    def test_discovery_names_the_endpoints(self):
        for path in ["/.well-known/oauth-authorization-server",
                     "/auth/v1/.well-known/oauth-authorization-server"]:
            status, metadata = self.server.json("GET", path)
            self.assertEqual(status, 200, path)
            self.assertTrue(metadata["token_endpoint"].endswith("/oauth/token"))
            self.assertIn("S256", metadata["code_challenge_methods_supported"])
            self.assertNotIn("registration_endpoint", metadata)


class OAuthServerOnTests(OAuthServerFlow, ServerTestCase):
    def test_openid_with_the_secret_spends_the_code_on_gotrues_500(self):
        made = self.admin().oauth.create_client(CreateOAuthClientParams(
            client_name="OIDC", redirect_uris=[REDIRECT])).client
        verifier, challenge = pkce_pair()
        _, user = self.signed_in_user()
        authorization_id = query_of(self.authorize(made.client_id, challenge,
                                                   scope="openid"))["authorization_id"]
        self.server.json("GET", f"/oauth/authorizations/{authorization_id}", headers=user)
        approved = self.server.json("POST", f"/oauth/authorizations/{authorization_id}/consent",
                                    {"action": "approve"}, user)[1]
        form = {"grant_type": "authorization_code", "code": query_of(approved["redirect_url"])[
            "code"], "code_verifier": verifier}
        status, body = self.token(form, f"{made.client_id}:{made.client_secret}")
        self.assertEqual((status, body["msg"]), (500, "Error generating ID token"))


class OAuthServerWithSigningKeysTests(OAuthServerFlow, ServerTestCase):
    """With an asymmetric signing key, the openid scope gets an ID token for the client."""

    @classmethod
    def server_options(cls):
        folder = tempfile.mkdtemp(prefix="authflow-oauth-")
        cls.addClassCleanup(shutil.rmtree, folder, ignore_errors=True)
        path = os.path.join(folder, "keys.json")
        key = json.loads((FIXTURES / "ec-a.json").read_text())
        with open(path, "w", encoding="utf-8") as file:
            json.dump([key], file)
        return (*cls.OPTIONS, "--jwt-keys", path)

    def test_the_id_token_names_the_client_and_the_granted_claims(self):
        made = self.admin().oauth.create_client(CreateOAuthClientParams(
            client_name="OIDC", redirect_uris=[REDIRECT])).client
        verifier, challenge = pkce_pair()
        email, user = self.signed_in_user()
        query = urllib.parse.urlencode({
            "client_id": made.client_id, "redirect_uri": REDIRECT, "scope": "openid email",
            "code_challenge": challenge, "code_challenge_method": "S256", "nonce": "n-1"})
        location = self.server.request("GET", f"/oauth/authorize?{query}")[1]["Location"]
        authorization_id = query_of(location)["authorization_id"]
        self.server.json("GET", f"/oauth/authorizations/{authorization_id}", headers=user)
        approved = self.server.json("POST", f"/oauth/authorizations/{authorization_id}/consent",
                                    {"action": "approve"}, user)[1]
        status, tokens = self.token({"grant_type": "authorization_code", "code_verifier": verifier,
                                     "code": query_of(approved["redirect_url"])["code"]},
                                    f"{made.client_id}:{made.client_secret}")
        self.assertEqual(status, 200, tokens)
        keys = jwt.PyJWKClient(self.server.url + "/.well-known/jwks.json")
        signing_key = keys.get_signing_key_from_jwt(tokens["id_token"])
        identity = jwt.decode(tokens["id_token"], signing_key.key, algorithms=["ES256"],
                              audience=made.client_id)
        self.assertEqual(identity["email"], email)
        self.assertTrue(identity["email_verified"])
        self.assertEqual(identity["nonce"], "n-1")
        self.assertEqual(identity["client_id"], made.client_id)
        self.assertEqual(claims(tokens["access_token"])["scope"], "openid email")


class OAuthServerOnPostgresTests(OAuthServerFlow, ServerTestCase):
    """The flow on PostgreSQL, in GoTrue's own tables."""

    @classmethod
    def setUpClass(cls):
        cls.postgres = pgserver.shared()
        cls.STORE = cls.postgres.database()
        super().setUpClass()

    def test_clients_and_consents_are_gotrues_rows(self):
        made = self.admin().oauth.create_client(CreateOAuthClientParams(
            client_name="Rows", redirect_uris=[REDIRECT])).client
        database = self.STORE.rsplit("/", 1)[1]
        row = self.postgres.sql(
            "select client_type, registration_type, token_endpoint_auth_method, redirect_uris, "
            f"client_secret_hash from auth.oauth_clients where id = '{made.client_id}'",
            database).strip()
        secret_hash = base64.urlsafe_b64encode(
            hashlib.sha256(made.client_secret.encode()).digest()).rstrip(b"=").decode()
        self.assertEqual(row, "|".join(["confidential", "manual", "client_secret_basic",
                                        REDIRECT, secret_hash]))


if __name__ == "__main__":
    unittest.main()

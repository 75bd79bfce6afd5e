"""What supabase-auth's defaults and features do against `authflow serve`, end to end.

PKCE (supabase-swift's and @supabase/ssr's default flow) for sign-up, recovery, magic links and
email changes: the client keeps the verifier, the emailed link (read from the outbox) is followed
as a browser would, its `?code=` is exchanged by the client. Then anonymous users made permanent,
invitations, reauthentication and generate_link's verification types.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_gotrue_flows
"""

import urllib.parse
import uuid

import httpx
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from test_supabase_client import PASSWORD, ServerCase, claims, unique_email

APP = "http://127.0.0.1:3000/auth/callback"


class PKCECase(ServerCase):
    """Clients in the PKCE flow, and a browser that follows links without their redirects."""

    def pkce_client(self):
        client = SyncGoTrueClient(url=self.base_url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False, flow_type="pkce")
        self.addCleanup(client.close)
        return client

    def follow(self, link):
        """GET an emailed link as a browser does; returns the Location it is sent on to."""
        with httpx.Client(timeout=10) as browser:
            answer = browser.get(link)
        self.assertEqual(answer.status_code, 303, answer.text)
        return answer.headers["location"]

    def code_from(self, address):
        """Follows the newest link to `address`; returns the `code` its redirect carries."""
        message = self.server.latest_message_to(address)
        link = self.server.link_in(message)
        self.assertIn("token=pkce_", link)
        location = self.follow(link)
        parsed = urllib.parse.urlsplit(location)
        self.assertEqual(f"{parsed.scheme}://{parsed.netloc}{parsed.path}", APP)
        query = urllib.parse.parse_qs(parsed.query)
        self.assertNotIn("access_token", location, "a PKCE link gives no session by itself")
        return query["code"][0], message["ID"]


class PKCETests(PKCECase):
    """The default flow of supabase-swift: every emailed link works through the code exchange."""

    def test_sign_up_confirmed_through_the_code_exchange(self):
        client, email = self.pkce_client(), unique_email("pkce-signup")
        response = client.sign_up({"email": email, "password": PASSWORD,
                                   "options": {"email_redirect_to": APP}})
        self.assertIsNone(response.session)
        code, _ = self.code_from(email)
        exchanged = client.exchange_code_for_session({"auth_code": code})
        self.assertEqual(exchanged.session.user.email, email)
        self.assertIsNotNone(exchanged.user.email_confirmed_at)
        self.assertEqual(claims(exchanged.session.access_token)["amr"][0]["method"], "email/signup")
        self.assertEqual(client.get_session().access_token, exchanged.session.access_token)
        # The code is spent: a second exchange (say, a replayed redirect) finds nothing.
        with self.assertRaises(AuthApiError) as raised:
            self.pkce_client().exchange_code_for_session(
                {"auth_code": code, "code_verifier": "x" * 43})
        self.assertEqual(raised.exception.status, 404)

    def test_recovery_signs_in_for_a_new_password(self):
        email, _ = self.confirmed_user("pkce-recover")
        client = self.pkce_client()
        client.reset_password_for_email(email, {"redirect_to": APP})
        code, _ = self.code_from(email)
        exchanged = client.exchange_code_for_session({"auth_code": code})
        self.assertEqual(claims(exchanged.session.access_token)["amr"][0]["method"], "recovery")
        client.update_user({"password": "a-brand-new-password"})
        fresh = self.client().sign_in_with_password(
            {"email": email, "password": "a-brand-new-password"})
        self.assertEqual(fresh.user.email, email)

    def test_magic_link_signs_in(self):
        email, _ = self.confirmed_user("pkce-magic")
        client = self.pkce_client()
        client.sign_in_with_otp({"email": email, "options": {"email_redirect_to": APP}})
        code, _ = self.code_from(email)
        exchanged = client.exchange_code_for_session({"auth_code": code})
        self.assertEqual(exchanged.user.email, email)
        self.assertEqual(claims(exchanged.session.access_token)["amr"][0]["method"], "magiclink")

    def test_a_wrong_verifier_is_refused_and_leaves_the_code_for_the_right_one(self):
        email, _ = self.confirmed_user("pkce-verifier")
        client = self.pkce_client()
        client.reset_password_for_email(email, {"redirect_to": APP})
        code, _ = self.code_from(email)
        with self.assertRaises(AuthApiError) as raised:
            self.pkce_client().exchange_code_for_session(
                {"auth_code": code, "code_verifier": "w" * 64})
        self.assertEqual((raised.exception.status, raised.exception.message),
                         (400, "code challenge does not match previously saved code verifier"))
        self.assertEqual(client.exchange_code_for_session({"auth_code": code}).user.email, email)

    def test_the_implicit_flow_still_gives_the_session_in_the_fragment(self):
        client, email = self.client(), unique_email("implicit")
        client.sign_up({"email": email, "password": PASSWORD,
                        "options": {"email_redirect_to": APP}})
        link = self.server.link_in(self.server.latest_message_to(email))
        self.assertNotIn("pkce_", link)
        fragment = urllib.parse.parse_qs(urllib.parse.urlsplit(self.follow(link)).fragment)
        self.assertEqual(claims(fragment["access_token"][0])["email"], email)


class PKCEEmailChangeTests(PKCECase):
    """An email change in the PKCE flow, with secure email change: both addresses confirm."""

    def test_both_links_then_the_code_change_the_address(self):
        client, email = self.signed_in("pkce-change")
        client._flow_type = "pkce"
        new = unique_email("pkce-new")
        client.update_user({"email": new}, {"email_redirect_to": APP})
        first = self.server.link_in(self.server.latest_message_to(new))
        halfway = urllib.parse.urlsplit(self.follow(first))
        self.assertIn("Confirmation link accepted", urllib.parse.parse_qs(halfway.query)["message"][0])
        code, _ = self.code_from(email)
        exchanged = client.exchange_code_for_session({"auth_code": code})
        self.assertEqual(exchanged.user.email, new)


class AnonymousTests(ServerCase):
    """--enable-anonymous-users: sign in with nothing, keep the user by adding an address."""

    OPTIONS = ("--enable-anonymous-users",)

    def test_an_anonymous_user_becomes_permanent_by_confirming_an_email(self):
        client = self.client()
        response = client.sign_in_anonymously({"options": {"data": {"cart": 3}}})
        user = response.user
        self.assertTrue(user.is_anonymous)
        self.assertEqual(user.identities, [])
        self.assertTrue(claims(response.session.access_token)["is_anonymous"])
        self.assertEqual(user.user_metadata, {"cart": 3})

        with self.assertRaises(AuthApiError) as raised:
            client.update_user({"password": PASSWORD})
        self.assertEqual(raised.exception.status, 422)

        email = unique_email("anon")
        pending = client.update_user({"email": email, "password": PASSWORD}).user
        self.assertTrue(pending.is_anonymous)
        self.assertEqual(pending.new_email, email)
        code = self.server.code_in(self.server.latest_message_to(email))
        verified = client.verify_otp({"email": email, "token": code, "type": "email_change"})
        self.assertEqual(verified.user.id, user.id)
        self.assertFalse(verified.user.is_anonymous)
        self.assertEqual([i.provider for i in verified.user.identities], ["email"])
        self.assertFalse(claims(verified.session.access_token)["is_anonymous"])
        again = self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertEqual(again.user.id, user.id)

        listed = [u.id for u in self.admin().list_users(per_page=1000)]
        self.assertIn(user.id, listed)

    def test_anonymous_sign_ins_are_off_unless_switched_on(self):
        server = type(self.server)().start()
        self.addCleanup(server.stop)
        client = SyncGoTrueClient(url=server.url, headers=server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        with self.assertRaises(AuthApiError) as raised:
            client.sign_in_anonymously()
        self.assertEqual((raised.exception.status, raised.exception.message),
                         (422, "Anonymous sign-ins are disabled"))


class InviteAndLinkTests(ServerCase):
    """The admin API's invitations and generate_link kinds."""

    def test_an_invited_user_accepts_with_the_emailed_code(self):
        email = unique_email("invite")
        invited = self.admin().invite_user_by_email(email, {"data": {"team": "blue"}}).user
        self.assertIsNotNone(invited.invited_at)
        self.assertIsNone(invited.email_confirmed_at)
        code = self.server.code_in(self.server.latest_message_to(email))
        accepted = self.client().verify_otp({"email": email, "token": code, "type": "invite"})
        self.assertEqual(accepted.user.id, invited.id)
        self.assertIsNotNone(accepted.user.email_confirmed_at)
        with self.assertRaises(AuthApiError) as raised:
            self.admin().invite_user_by_email(email)
        self.assertEqual(raised.exception.status, 422)

    def test_generated_links_say_gotrues_verification_types(self):
        email, _ = self.confirmed_user("links")
        admin = self.admin()
        for kind, expected in [("magiclink", "magiclink"), ("recovery", "recovery"),
                               ("email_change_current", "email_change_current"),
                               ("email_change_new", "email_change_new")]:
            params = {"type": kind, "email": email}
            if kind.startswith("email_change"):
                params["new_email"] = unique_email("links-new")
            properties = admin.generate_link(params).properties
            self.assertEqual(properties.verification_type, expected, kind)
        invite = admin.generate_link({"type": "invite", "email": unique_email("links-invite")})
        self.assertIsNotNone(invite.user.invited_at)


class ReauthenticationTests(ServerCase):
    """--secure-password-change: GET /reauthenticate emails the nonce a password change takes."""

    OPTIONS = ("--secure-password-change",)

    def test_reauthenticate_emails_a_nonce_the_password_change_accepts(self):
        client, email = self.signed_in("reauth")
        client.reauthenticate()
        message = self.server.latest_message_to(email)
        nonce = self.server.code_in(message)
        self.assertTrue(message["Subject"].startswith(nonce))
        client.update_user({"password": "a-changed-password", "nonce": nonce})
        self.assertEqual(self.client().sign_in_with_password(
            {"email": email, "password": "a-changed-password"}).user.email, email)
        uuid.UUID(client.get_user().user.id)

"""`authflow serve`'s redirect allow list, driven by the official Supabase Auth client
(supabase-auth): `--redirect-urls` / `GOTRUE_URI_ALLOW_LIST` / `additional_redirect_urls`
matched as GoTrue matches them (`utilities.IsRedirectURLValid`), on every route that takes a
`redirect_to`. A mobile app's confirmation link comes back into its own scheme (seed 004:
`emailRedirectTo: 'volvoxsober://auth/verify'`), with the session in the fragment, or with a
PKCE code in the query.

And what serve says at start about GoTrue's variables it does not act on.
"""

import unittest
import urllib.parse
import uuid

import httpx
from supabase_auth import SyncGoTrueAdminAPI, SyncGoTrueClient

from serve import Server, ServerTestCase

SITE_URL = "http://127.0.0.1:3000"
APP_LINK = "volvoxsober://auth/verify"
PASSWORD = "correct-horse-battery"


def unique_email(label):
    return f"{label}-{uuid.uuid4().hex[:12]}@example.com"


def redirect_of(link):
    """The `redirect_to` an email's /verify link carries."""
    return urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["redirect_to"][0]


class AllowListTests(ServerTestCase):
    """A server whose allow list comes from GoTrue's variable, as the Supabase CLI passes
    `additional_redirect_urls` to GoTrue."""

    ENVIRONMENT = {
        "GOTRUE_URI_ALLOW_LIST": f"{APP_LINK},myapp://auth/**,http://localhost:8000/*",
    }

    def client(self, flow_type="implicit"):
        client = SyncGoTrueClient(url=self.server.url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False, flow_type=flow_type)
        self.addCleanup(client.close)
        return client

    def admin(self):
        admin = SyncGoTrueAdminAPI(url=self.server.url, headers=self.server.service_headers())
        self.addCleanup(admin.close)
        return admin

    def http(self):
        http = httpx.Client(base_url=self.server.url, headers=self.server.anon_headers(),
                            follow_redirects=False, timeout=10)
        self.addCleanup(http.close)
        return http

    def link_after(self, email):
        return self.server.link_in(self.server.latest_message_to(email))

    def test_a_confirmation_link_leads_back_into_the_app(self):
        """sign_up with email_redirect_to volvoxsober://auth/verify: the link carries it, and
        following it answers 303 to the app's scheme with the session in the fragment."""
        email = unique_email("app")
        self.client().sign_up({"email": email, "password": PASSWORD,
                               "options": {"email_redirect_to": APP_LINK}})
        link = self.link_after(email)
        self.assertEqual(redirect_of(link), APP_LINK)
        answer = self.http().get(link)
        self.assertEqual(answer.status_code, 303)
        location = answer.headers["location"]
        self.assertTrue(location.startswith(APP_LINK + "#access_token="), location)
        fragment = dict(urllib.parse.parse_qsl(location.partition("#")[2],
                                               keep_blank_values=True))
        self.assertEqual((fragment["type"], fragment["token_type"]), ("signup", "bearer"))
        self.assertEqual(self.client().get_user(fragment["access_token"]).user.email, email)

    def test_a_pkce_link_brings_its_code_into_the_app(self):
        """With PKCE, the link's 303 puts the code in the app URL's query; the client that
        began the flow exchanges it for a session."""
        email = unique_email("pkce")
        client = self.client(flow_type="pkce")
        client.sign_up({"email": email, "password": PASSWORD,
                        "options": {"email_redirect_to": APP_LINK}})
        answer = self.http().get(self.link_after(email))
        self.assertEqual(answer.status_code, 303)
        location = answer.headers["location"]
        base, _, query = location.partition("?")
        self.assertEqual(base, APP_LINK, location)
        code = urllib.parse.parse_qs(query)["code"][0]
        session = client.exchange_code_for_session({"auth_code": code}).session
        self.assertEqual(session.user.email, email)

    def test_each_route_that_takes_a_redirect_keeps_an_allowed_one(self):
        """recover, otp (magic link), resend, invite and generate_link: a listed URL or one a
        pattern matches is kept; anything else leads to the site URL."""
        email = unique_email("routes")
        admin = self.admin()
        admin.create_user({"email": email, "password": PASSWORD, "email_confirm": True})
        client = self.client()
        client.reset_password_for_email(email, {"redirect_to": "myapp://auth/reset"})
        self.assertEqual(redirect_of(self.link_after(email)), "myapp://auth/reset")

        other = unique_email("otp")
        client.sign_in_with_otp({"email": other,
                                 "options": {"email_redirect_to": "http://localhost:8000/in"}})
        self.assertEqual(redirect_of(self.link_after(other)), "http://localhost:8000/in")

        invited = unique_email("invite")
        admin.invite_user_by_email(invited, {"redirect_to": "myapp://auth/invited"})
        self.assertEqual(redirect_of(self.link_after(invited)), "myapp://auth/invited")

        linked = admin.generate_link({"type": "magiclink", "email": email,
                                      "options": {"redirect_to": APP_LINK}})
        self.assertEqual(linked.properties.redirect_to, APP_LINK)
        refused = admin.generate_link({"type": "magiclink", "email": email,
                                       "options": {"redirect_to": "otherapp://auth/verify"}})
        self.assertEqual(refused.properties.redirect_to, SITE_URL)

        signup = unique_email("refused")
        client.sign_up({"email": signup, "password": PASSWORD, "options": {
            "email_redirect_to": "http://localhost:8000/a/b"}})
        self.assertEqual(redirect_of(self.link_after(signup)), SITE_URL)

    def test_the_referer_is_used_when_no_redirect_is_asked_for(self):
        """GoTrue's GetReferrer: without redirect_to, an allowed Referer is where the link
        leads (a browser app's page); one not allowed is not."""
        email = unique_email("referer")
        answer = self.http().post("/signup", json={"email": email, "password": PASSWORD},
                                  headers={"Referer": "http://localhost:8000/signup"})
        self.assertEqual(answer.status_code, 200, answer.text)
        self.assertEqual(redirect_of(self.link_after(email)), "http://localhost:8000/signup")
        other = unique_email("foreign")
        self.http().post("/signup", json={"email": other, "password": PASSWORD},
                         headers={"Referer": "https://evil.example/"})
        self.assertEqual(redirect_of(self.link_after(other)), SITE_URL)


class IgnoredVariableTests(unittest.TestCase):
    def test_gotrue_variables_serve_does_not_act_on_are_named_in_one_line(self):
        """One warning line on standard error names every GOTRUE_* variable serve ignores,
        without its value; the ones it reads (the allow list) are not in it."""
        server = Server(environment={
            "GOTRUE_SAML_ENABLED": "true", "GOTRUE_EXTERNAL_GOOGLE_ENABLED": "true",
            "GOTRUE_EXTERNAL_GOOGLE_SECRET": "do-not-print-me",
            "GOTRUE_EXTERNAL_APPLE_ENABLED": "false", "GOTRUE_EXTERNAL_APPLE_SECRET": "off",
            "GOTRUE_URI_ALLOW_LIST": APP_LINK,
        }).start()
        self.addCleanup(server.stop)
        self.assertEqual(server.stop(), 0)
        lines = [line.rstrip("\n") for line in server.log_lines() if "warning" in line]
        self.assertEqual(lines, [
            "authflow serve: warning: environment: authflow serve does not support "
            "GOTRUE_EXTERNAL_GOOGLE_ENABLED, GOTRUE_EXTERNAL_GOOGLE_SECRET, "
            "GOTRUE_SAML_ENABLED; ignored"])
        self.assertNotIn("do-not-print-me", "".join(server.log_lines()))

    def test_no_warning_when_serve_acts_on_every_variable(self):
        server = Server(environment={"GOTRUE_URI_ALLOW_LIST": APP_LINK,
                                     "GOTRUE_SITE_URL": SITE_URL}).start()
        self.addCleanup(server.stop)
        self.assertEqual(server.stop(), 0)
        self.assertEqual([line for line in server.log_lines() if "warning" in line], [])


if __name__ == "__main__":
    unittest.main()

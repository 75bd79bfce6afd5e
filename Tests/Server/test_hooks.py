"""GoTrue's HTTP auth hooks on `authflow serve`: the custom access token hook and the send-email
hook, called as GoTrue calls them (a POST signed with Standard Webhooks) and answered as GoTrue
answers when they fail. The hook is a tiny http.server on 127.0.0.1 that checks the signature.

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_hooks
"""

import base64
import hashlib
import hmac
import http.server
import json
import threading
import time

from supabase_auth.errors import AuthApiError

from serve import claims
from test_supabase_client import PASSWORD, ServerCase, unique_email

KEY = b"a hook key of thirty-two bytes!!"
SECRET = "v1,whsec_" + base64.b64encode(KEY).decode()
SLOW = 6.0  # longer than GoTrue's 5 s for a hook


class HookServer(http.server.ThreadingHTTPServer):
    """Answers hook calls as `mode` says and keeps what it was sent (the verified payloads)."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), HookHandler)
        self.mode = "claims"
        self.calls = []
        self.called = threading.Condition()
        self.bad_signatures = 0
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}/hook"

    def record(self, payload):
        with self.called:
            self.calls.append(payload)
            self.called.notify_all()

    def wait_for_calls(self, count, timeout=10.0):
        """The calls once there are at least `count` (an email of a route that must not tell
        who has an account reaches the hook after the answer); fails after `timeout` s."""
        deadline = time.monotonic() + timeout
        with self.called:
            while len(self.calls) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.calls)} hook calls, not {count}, "
                                         f"within {timeout} s")
                self.called.wait(left)
            return list(self.calls)

    def close(self):
        self.shutdown()
        self.server_close()
        self.thread.join(5)


class HookHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *arguments):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        signed = f"{self.headers['webhook-id']}.{self.headers['webhook-timestamp']}.".encode()
        digest = hmac.new(KEY, signed + body, hashlib.sha256).digest()
        expected = "v1," + base64.b64encode(digest).decode()
        fresh = abs(time.time() - int(self.headers["webhook-timestamp"])) < 300
        if not (fresh and hmac.compare_digest(self.headers["webhook-signature"], expected)):
            self.server.bad_signatures += 1
            return self.answer(401, {"error": "bad signature"})
        payload = json.loads(body)
        self.server.record(payload)
        mode = self.server.mode
        if mode == "slow":
            time.sleep(SLOW)
            return self.answer(200, {"claims": payload.get("claims")})
        if mode == "refuse":
            return self.answer(200, {"error": {"http_code": 403, "message": "no entry for you"}})
        if mode == "drop-session":
            claims = dict(payload["claims"])
            del claims["session_id"]
            return self.answer(200, {"claims": claims})
        if "claims" in payload:
            claims = dict(payload["claims"], plan="pro")
            return self.answer(200, {"claims": claims})
        return self.answer(200, {})

    def answer(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except BrokenPipeError:
            pass  # the server gave up on a slow answer, as it should


class HookCase(ServerCase):
    """A hook server started before `authflow serve`, which is given its URL."""

    HOOK_OPTIONS = ()

    @classmethod
    def setUpClass(cls):
        cls.hook = HookServer()
        cls.addClassCleanup(cls.hook.close)
        super().setUpClass()

    @classmethod
    def server_options(cls):
        return [option.replace("URL", cls.hook.url) for option in cls.HOOK_OPTIONS]

    def setUp(self):
        self.hook.mode = "claims"
        self.hook.calls.clear()


class CustomAccessTokenHookTests(HookCase):
    HOOK_OPTIONS = ("--autoconfirm", "--hook-custom-access-token", "URL",
                    "--hook-custom-access-token-secrets", SECRET)

    def test_a_claim_the_hook_adds_is_in_the_token_the_client_gets(self):
        email, client = unique_email("hook"), self.client()
        session = client.sign_up({"email": email, "password": PASSWORD}).session
        self.assertEqual(claims(session.access_token)["plan"], "pro")
        signed_in = client.sign_in_with_password({"email": email, "password": PASSWORD}).session
        token = claims(signed_in.access_token)
        self.assertEqual((token["plan"], token["email"], token["role"]),
                         ("pro", email, "authenticated"))
        # The client reads its user with the token the hook shaped: the server takes it back.
        self.assertEqual(client.get_user().user.email, email)
        call = self.hook.calls[-1]
        self.assertEqual((call["authentication_method"], call["user_id"], call["metadata"]["name"]),
                         ("password", signed_in.user.id, "customize-access-token"))
        self.assertNotIn("plan", call["claims"])
        self.assertEqual(self.hook.bad_signatures, 0)

    def test_a_refreshed_token_goes_through_the_hook_as_token_refresh(self):
        email, client = unique_email("hook-refresh"), self.client()
        client.sign_up({"email": email, "password": PASSWORD})
        refreshed = client.refresh_session().session
        self.assertEqual(claims(refreshed.access_token)["plan"], "pro")
        self.assertEqual(self.hook.calls[-1]["authentication_method"], "token_refresh")

    def test_an_error_the_hook_answers_is_the_answer_with_its_status(self):
        email, client = unique_email("hook-refuse"), self.client()
        client.sign_up({"email": email, "password": PASSWORD})
        self.hook.mode = "refuse"
        with self.assertRaises(AuthApiError) as raised:
            client.sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertApiError(raised, 403, "unknown", "no entry for you")

    def test_claims_without_a_required_one_are_a_500(self):
        email, client = unique_email("hook-schema"), self.client()
        client.sign_up({"email": email, "password": PASSWORD})
        self.hook.mode = "drop-session"
        with self.assertRaises(AuthApiError) as raised:
            client.sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertApiError(
            raised, 500, "unexpected_failure",
            "output claims do not conform to the expected schema: \n"
            "- (root): session_id is required\n")

    def test_a_hook_slower_than_five_seconds_is_hook_timeout(self):
        email, client = unique_email("hook-slow"), self.client()
        client.sign_up({"email": email, "password": PASSWORD})
        self.hook.mode = "slow"
        started = time.monotonic()
        # Plain httpx: the client gives up after its own 5 s, as soon as the server does.
        answer = self.http().post("/token?grant_type=password",
                                  json={"email": email, "password": PASSWORD})
        self.assertLess(time.monotonic() - started, SLOW)
        self.assertEqual((answer.status_code, answer.headers["x-sb-error-code"]),
                         (422, "hook_timeout"))
        self.assertEqual(answer.json()["msg"],
                         "Failed to reach hook within maximum time of 5.000000 seconds")


class SendEmailHookTests(HookCase):
    HOOK_OPTIONS = ("--hook-send-email", "URL", "--hook-send-email-secrets", SECRET)

    def test_the_hook_gets_the_code_and_the_outbox_keeps_a_marked_copy(self):
        email, client = unique_email("hook-mail"), self.client()
        client.sign_up({"email": email, "password": PASSWORD,
                        "options": {"email_redirect_to": "http://127.0.0.1:3000/welcome"}})
        call = self.hook.wait_for_calls(1)[-1]
        data = call["email_data"]
        self.assertEqual((call["user"]["email"], data["email_action_type"], data["redirect_to"]),
                         (email, "signup", "http://127.0.0.1:3000/welcome"))
        message = self.server.latest_message_to(email)
        self.assertEqual(self.server.code_in(message), data["token"])
        self.assertEqual(self.server.token_hash_in(message), data["token_hash"])
        self.assertEqual(self.server.messages_to(email)[0]["Tags"], ["send-email-hook"])
        # The code the hook was given confirms the account.
        session = client.verify_otp({"email": email, "token": data["token"],
                                     "type": "signup"}).session
        self.assertEqual(session.user.email, email)

    def test_a_hook_that_refuses_is_the_answer_and_nothing_is_kept(self):
        email, client = unique_email("hook-mail-refuse"), self.client()
        self.create_user(email, confirmed=True)
        self.hook.mode = "refuse"
        # A magic link for an account: no answer here hides who has one, so the hook's is it.
        with self.assertRaises(AuthApiError) as raised:
            client.sign_in_with_otp({"email": email, "options": {"should_create_user": False}})
        self.assertApiError(raised, 403, "unknown", "no entry for you")
        self.assertEqual(self.server.messages_to(email), [])

    def test_routes_that_hide_who_has_an_account_answer_alike_while_the_hook_fails(self):
        known, unknown = unique_email("hook-known"), unique_email("hook-unknown")
        self.create_user(known, confirmed=False)
        self.hook.mode = "refuse"
        answers = {}
        for email in (known, unknown):
            answers[email] = [self.post("/recover", {"email": email}),
                              self.post("/resend", {"type": "signup", "email": email}),
                              self.post("/signup", {"email": email, "password": PASSWORD})]
        self.assertEqual(answers[known][0], (200, {}))
        self.assertEqual([status for status, _ in answers[known]],
                         [status for status, _ in answers[unknown]], answers)
        # The known address's reset went to the hook, which refused it: said in the log (with
        # neither the address nor the code), kept nowhere.
        self.hook.wait_for_calls(1)
        line = self.server.wait_for_log(r"send-email hook failed")
        self.assertNotIn(known, line)
        self.assertNotIn(self.hook.calls[0]["email_data"]["token"], line)
        self.assertEqual(self.server.messages_to(known), [])

    def create_user(self, email, confirmed):
        status, user = self.server.json(
            "POST", "/admin/users",
            {"email": email, "password": PASSWORD, "email_confirm": confirmed},
            self.server.service_headers())
        self.assertEqual(status, 200, user)

    def post(self, path, body):
        """A POST with the anon key: (status, JSON answer)."""
        return self.server.json("POST", path, body, self.server.anon_headers())

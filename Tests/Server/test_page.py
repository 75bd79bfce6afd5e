"""serve's page (`/_/`: inbox, users, clock, settings) driven in headless Chromium.

Debian's chromium and chromium-driver (the Makefile installs them) run the page with selenium
(from PyPI, in .build/venv). The browser checks what a developer does there: a sign-up's email
appears in the inbox without a reload and its link confirms the account; a user created on the
page signs in through the official client (supabase-auth's SyncGoTrueClient); a user disabled on
the page cannot sign in. A plain HTTP client beside the browser checks what no other page may do:
a foreign Origin, a rebinding Host, and an action without the page's token get nothing.

Every wait polls the DOM (or the server) against a deadline; none sleeps a fixed time. The
tests write screenshots of the inbox and users pages, light and dark, to docs/images/.
"""

import os
import pathlib
import re
import shutil
import tempfile
import socket
import time
import unittest
import urllib.parse
import uuid

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from serve import Server, ServerTestCase

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
DEADLINE = 20.0
PASSWORD = "correct-horse-battery"
# `make docs` sets AUTHFLOW_SCREENSHOTS to docs/images, where the README's pictures live; a test
# run writes them to a folder of its own, removed after, so it leaves the checkout unchanged.
IMAGES_FOLDER = os.environ.get("AUTHFLOW_SCREENSHOTS")
TOKEN = re.compile(r'<meta name="authflow-page" content="([^"]+)">')


def unique_email(label):
    return f"{label}-{uuid.uuid4().hex[:10]}@example.com"


def save_screenshots(case, driver, name):
    """`name`-light.png and `name`-dark.png of what `driver` shows, into AUTHFLOW_SCREENSHOTS
    (docs/images/ for `make docs`), else into a folder `case` removes."""
    if IMAGES_FOLDER:
        images = pathlib.Path(IMAGES_FOLDER)
        images.mkdir(parents=True, exist_ok=True)
    else:
        images = pathlib.Path(tempfile.mkdtemp(prefix="authflow-shots-"))
        case.addCleanup(shutil.rmtree, images, True)
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": scheme}]})
        path = images / f"{name}-{scheme}.png"
        case.assertTrue(driver.save_screenshot(str(path)))
        case.assertGreater(path.stat().st_size, 1000, f"{path} holds a picture")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def browser(folder):
    """Headless Chromium as this machine runs it, its profile and temporary files in `folder`
    (short: Chromium's sockets there must fit a socket path, and the tests' TMPDIR must be
    left empty)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", f"--user-data-dir={folder}/profile"):
        options.add_argument(argument)
    options.binary_location = CHROMIUM
    service = Service(CHROMEDRIVER, env={**os.environ, "TMPDIR": folder})
    return webdriver.Chrome(service=service, options=options)


class PageCase(ServerTestCase):
    """One server and one browser per class."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        folder = tempfile.mkdtemp(prefix="authflow-page-", dir="/tmp")
        cls.addClassCleanup(shutil.rmtree, folder, ignore_errors=True)
        cls.driver = browser(folder)
        cls.addClassCleanup(cls.driver.quit)

    def open(self, path):
        """Opens a view and waits for its event stream to be live."""
        self.driver.get(self.server.url + path)
        self.wait_for(lambda d: d.find_element(By.ID, "live").text == "Live", "the page is live")

    def wait_for(self, condition, what, timeout=DEADLINE):
        """`condition(driver)`'s first true value, polled against a deadline."""
        def attempt(driver):
            try:
                return condition(driver)
            except WebDriverException:
                return False
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(attempt)
        except Exception:
            raise AssertionError(f"{what}: not within {timeout} s; page text:\n"
                                 f"{self.driver.find_element(By.TAG_NAME, 'body').text}\n"
                                 f"log: {self.server.log_tail()}") from None

    def client(self):
        client = SyncGoTrueClient(url=self.server.url, headers=self.server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        return client

    def admin_user(self, user_id):
        status, user = self.server.json("GET", f"/admin/users/{user_id}",
                                        headers=self.server.service_headers())
        self.assertEqual(status, 200)
        return user

    def user_row(self, email):
        """The users table's row of `email`, once it is there."""
        return self.wait_for(
            lambda d: next((row for row in d.find_elements(By.CSS_SELECTOR, "#users tbody tr")
                            if row.get_attribute("data-email") == email), None),
            f"the row of {email}")

    def cell(self, email, label):
        """The text of column `label` in the row of `email` (found again if a live update
        redrew the table meanwhile)."""
        return self.wait_for(
            lambda _: self.user_row(email).find_element(
                By.CSS_SELECTOR, f"td[data-label='{label}']").text or None,
            f"the {label} of {email}")

    def press(self, email, label):
        """Presses the button `label` in the row of `email` (found again if a live update
        redrew the table meanwhile)."""
        def pressed(_):
            self.user_row(email).find_element(By.XPATH, f".//button[text()='{label}']").click()
            return True
        self.wait_for(pressed, f"{label} pressed for {email}")

    def screenshot(self, name):
        save_screenshots(self, self.driver, f"page-{name}")


class PageInBrowserTest(PageCase):
    """The page of a server with both surfaces on."""

    OPTIONS = ("--firebase-project", "demo-page")

    def test_a_sign_ups_email_appears_without_a_reload_and_its_link_confirms_it(self):
        self.open("/_/")
        self.driver.execute_script("window.stayed = true")
        email = unique_email("inbox")
        response = self.client().sign_up({"email": email, "password": PASSWORD})
        self.assertIsNone(response.user.email_confirmed_at)
        item = self.wait_for(
            lambda d: next((li for li in d.find_elements(By.CSS_SELECTOR, "#messages li")
                            if li.find_element(By.CLASS_NAME, "to").text == email), None),
            "the confirmation email in the inbox")
        self.assertTrue(self.driver.execute_script("return window.stayed === true"),
                        "the page reloaded")
        mail = self.server.latest_message_to(email)
        self.assertEqual(item.find_element(By.CSS_SELECTOR, ".code strong").text,
                         self.server.code_in(mail))
        link = item.find_element(By.CLASS_NAME, "open-link")
        self.assertEqual(link.get_attribute("href"), self.server.link_in(mail))
        self.assertEqual(link.get_attribute("rel"), "noopener noreferrer")
        page = self.driver.current_window_handle
        link.click()
        self.wait_for(lambda d: len(d.window_handles) == 2, "the link's tab")
        self.wait_for(lambda _: self.admin_user(response.user.id)["email_confirmed_at"],
                      "the account confirmed by the link")
        for handle in self.driver.window_handles:
            if handle != page:
                self.driver.switch_to.window(handle)
                self.driver.close()
        self.driver.switch_to.window(page)
        session = self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertEqual(session.user.email, email)
        # Filtering by recipient, then deleting the message, which leaves the page live.
        search = self.driver.find_element(By.ID, "to-filter")
        search.send_keys(email)
        self.wait_for(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#messages li")) == 1,
                      "only the message to the address")
        item = self.driver.find_element(By.CSS_SELECTOR, "#messages li")
        item.find_element(By.CLASS_NAME, "danger").click()
        self.wait_for(lambda d: not d.find_elements(By.CSS_SELECTOR, "#messages li"),
                      "the message deleted")
        self.assertEqual(self.server.messages_to(email), [])
        search.clear()

    def test_a_user_created_on_the_page_signs_in_with_the_official_client(self):
        self.open("/_/users")
        email = unique_email("created")
        self.driver.find_element(By.CSS_SELECTOR, "#create summary").click()
        self.driver.find_element(By.ID, "new-email").send_keys(email)
        self.driver.find_element(By.ID, "new-password").send_keys(PASSWORD)
        self.assertTrue(self.driver.find_element(By.ID, "new-confirmed").is_selected())
        self.driver.find_element(By.CSS_SELECTOR, "#create-form button[type=submit]").click()
        self.assertEqual(self.cell(email, "Confirmed"), "Yes")
        self.assertEqual(self.driver.find_element(By.ID, "new-password").get_attribute("value"), "")
        self.assertNotIn(PASSWORD, self.driver.page_source)
        session = self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertEqual(session.user.email, email)
        # The sign-in shows on the page without a reload.
        self.wait_for(lambda _: self.cell(email, "Last sign-in") != "never",
                      "the sign-in on the page")

    def test_a_user_disabled_on_the_page_cannot_sign_in_until_enabled(self):
        email = unique_email("disabled")
        status, user = self.server.json(
            "POST", "/admin/users", {"email": email, "password": PASSWORD, "email_confirm": True},
            headers=self.server.service_headers())
        self.assertEqual(status, 200)
        self.open("/_/users")
        self.driver.find_element(By.ID, "user-search").send_keys(email)
        self.user_row(email)
        self.press(email, "Disable")
        self.wait_for(lambda _: self.cell(email, "Status") == "Disabled", "the user disabled")
        with self.assertRaises(AuthApiError) as refused:
            self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertEqual(refused.exception.code, "user_banned")
        # A Firebase client is refused as well: one store, one user.
        status, answer = self.server.json(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any",
            {"email": email, "password": PASSWORD, "returnSecureToken": True})
        self.assertEqual((status, answer["error"]["message"]), (400, "USER_DISABLED"))
        self.press(email, "Enable")
        self.wait_for(lambda _: self.cell(email, "Status") == "Active", "the user enabled")
        session = self.client().sign_in_with_password({"email": email, "password": PASSWORD})
        self.assertEqual(session.user.id, user["id"])

    def test_a_firebase_sign_up_appears_live_and_its_claims_are_edited_on_the_page(self):
        self.open("/_/users")
        email = unique_email("firebase")
        status, account = self.server.json(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any",
            {"email": email, "password": PASSWORD, "returnSecureToken": True})
        self.assertEqual(status, 200)
        self.press(email, "Edit")
        claims = self.driver.find_element(By.ID, "edit-claims")
        self.wait_for(lambda _: claims.is_displayed(), "the claims field")
        claims.clear()
        claims.send_keys('{"role": "editor"}')
        self.driver.find_element(By.CSS_SELECTOR, "#editor-form button[type=submit]").click()
        self.wait_for(lambda d: not d.find_element(By.ID, "editor").is_displayed(),
                      "the editor closed")
        status, answer = self.server.json(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:lookup",
            {"localId": [account["localId"]]}, headers={"Authorization": "Bearer owner"})
        self.assertEqual(status, 200)
        self.assertEqual(answer["users"][0]["customAttributes"], '{"role":"editor"}')

    def test_screenshots_of_the_inbox_and_the_users_light_and_dark(self):
        for label in ("ada", "grace"):
            self.client().sign_up({"email": unique_email(label), "password": PASSWORD})
        self.open("/_/")
        self.wait_for(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#messages li")) >= 2,
                      "two messages")
        self.assertNotIn(self.server.service_key, self.driver.page_source)
        self.screenshot("inbox")
        self.open("/_/users")
        self.wait_for(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#users tbody tr")) >= 2,
                      "two users")
        self.assertNotIn(self.server.service_key, self.driver.page_source)
        self.assertNotIn("$2", self.driver.find_element(By.ID, "users").text)
        self.screenshot("users")

    def test_settings_name_the_surfaces_and_never_a_key(self):
        self.open("/auth/v1/_/settings")
        text = self.wait_for(
            lambda d: (d.find_element(By.ID, "settings").text
                       if "Firebase" in d.find_element(By.ID, "settings").text else None),
            "the settings")
        self.assertIn("demo-page", text)
        self.assertIn(f"{len(self.server.anon_key)} characters", text)
        for secret in (self.server.anon_key, self.server.service_key):
            self.assertNotIn(secret, self.driver.page_source)


class PageTrustTest(ServerTestCase):
    """What no other page, and no request without the page's token, gets (plain HTTP)."""

    def page_token(self, path="/_/"):
        status, headers, body = self.server.request("GET", path)
        self.assertEqual(status, 200)
        match = TOKEN.search(body.decode())
        self.assertIsNotNone(match)
        return headers, match[1]

    def test_pages_carry_a_strict_policy(self):
        headers, _ = self.page_token()
        policy = headers["Content-Security-Policy"]
        for directive in ("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"):
            self.assertIn(directive, policy)
        self.assertEqual(headers["X-Content-Type-Options"], "nosniff")
        self.assertEqual(headers["Referrer-Policy"], "no-referrer")
        self.assertEqual(headers["Cache-Control"], "no-store")
        self.assertTrue(headers["Content-Type"].startswith("text/html"))
        status, headers, script = self.server.request("GET", "/auth/v1/_/app.js")
        self.assertEqual((status, headers["Content-Type"]),
                         (200, "text/javascript; charset=utf-8"))
        self.assertIn(b"EventSource", script)

    def test_another_origin_gets_nothing(self):
        _, token = self.page_token()
        for origin in ("https://evil.example", "null", "http://localhost:3000",
                       f"http://127.0.0.1:{self.server.port + 1}"):
            for path, headers in (("/_/", {}), ("/_/users", {}), ("/_/app.js", {}),
                                  ("/_/api/users", {"X-Authflow-Page": token}),
                                  ("/_/api/messages", {"X-Authflow-Page": token}),
                                  (f"/_/events?token={urllib.parse.quote(token)}", {})):
                with self.subTest(origin=origin, path=path):
                    status, answer, body = self.server.request(
                        "GET", path, headers={"Origin": origin, **headers})
                    self.assertEqual(status, 403)
                    self.assertNotIn(token.encode(), body)
                    self.assertNotIn(b"authflow-page", body)
                    self.assertIsNone(answer["Access-Control-Allow-Origin"])
            status, answer, _ = self.server.request(
                "OPTIONS", "/_/api/users",
                headers={"Origin": origin, "Access-Control-Request-Method": "POST",
                         "Access-Control-Request-Headers": "x-authflow-page"})
            self.assertIsNone(answer["Access-Control-Allow-Origin"])
        email = unique_email("foreign")
        status, _, _ = self.server.request(
            "POST", "/_/api/users", {"email": email, "confirmed": True},
            headers={"Origin": "https://evil.example", "X-Authflow-Page": token})
        self.assertEqual(status, 403)
        self.assertEqual(self.users_named(email), [])
        # A browser's own word that the request came from another site.
        status, _, _ = self.server.request(
            "GET", "/_/api/messages",
            headers={"Sec-Fetch-Site": "cross-site", "X-Authflow-Page": token})
        self.assertEqual(status, 403)

    def test_a_rebinding_host_gets_nothing(self):
        for host in ("evil.example", f"evil.example:{self.server.port}", "127.0.0.1.nip.io"):
            for path in ("/_/", "/auth/v1/_/users", "/_/app.js", "/_/api/messages"):
                with self.subTest(host=host, path=path):
                    status, _, body = self.server.request("GET", path, headers={"Host": host})
                    self.assertEqual(status, 403)
                    self.assertNotIn(b"authflow-page", body)

    def test_an_action_without_the_pages_token_is_refused(self):
        _, token = self.page_token()
        nonce, mac = token.split(".")
        email = unique_email("tokenless")
        forged = f"{nonce}.{'A' * len(mac)}"
        for headers in ({}, {"X-Authflow-Page": forged}, {"X-Authflow-Page": nonce},
                        {"X-Authflow-Page": ""}):
            with self.subTest(headers=headers):
                status, _, _ = self.server.request(
                    "POST", "/_/api/users", {"email": email, "confirmed": True}, headers=headers)
                self.assertEqual(status, 403)
                status, _, _ = self.server.request("GET", "/_/api/messages", headers=headers)
                self.assertEqual(status, 403)
        status, _, _ = self.server.request("GET", "/_/events")
        self.assertEqual(status, 403)
        self.assertEqual(self.users_named(email), [])
        # The page's own token does it.
        status, _, _ = self.server.request(
            "POST", "/_/api/users", {"email": email, "confirmed": True},
            headers={"X-Authflow-Page": token})
        self.assertEqual(status, 200)
        self.assertEqual(len(self.users_named(email)), 1)

    def test_a_held_event_stream_does_not_hold_up_stopping(self):
        server = Server(store=":memory:").start()
        self.addCleanup(server.stop)
        _, _, body = server.request("GET", "/_/")
        token = TOKEN.search(body.decode())[1]
        # The stream's request goes out first; once /health has answered after it, the
        # server has read it and holds it.
        stream = socket.create_connection((server.host, server.port), timeout=30)
        self.addCleanup(stream.close)
        stream.sendall((f"GET /_/events?token={urllib.parse.quote(token)} HTTP/1.1\r\n"
                        f"Host: 127.0.0.1:{server.port}\r\nLast-Event-ID: 0.0\r\n\r\n").encode())
        self.assertEqual(server.request("GET", "/health")[0], 200)
        started = time.monotonic()
        self.assertEqual(server.stop(), 0)
        self.assertLess(time.monotonic() - started, 4.0, "the drain waited for the stream")
        answer = b""
        while chunk := stream.recv(4096):
            answer += chunk
        self.assertTrue(answer.startswith(b"HTTP/1.1 200"), answer)
        self.assertIn(b"id: 0.1\n", answer)

    def users_named(self, email):
        status, page = self.server.json("GET", "/admin/users?per_page=1000",
                                        headers=self.server.service_headers())
        self.assertEqual(status, 200)
        return [user for user in page["users"] if user["email"] == email]


class PageAppLinksAndClockTest(PageCase):
    """A server whose emails link into an app, on a throw-away store whose clock may move."""

    OPTIONS = ("--app-links", "myapp")
    STORE = ":memory:"

    def test_a_link_into_the_app_shows_its_url_to_copy_and_a_qr_code(self):
        self.open("/_/")
        email = unique_email("applink")
        self.client().sign_up({"email": email, "password": PASSWORD})
        field = self.wait_for(
            lambda d: d.find_element(By.CSS_SELECTOR, "#messages .applink input"),
            "the app link")
        mail = self.server.latest_message_to(email)
        self.assertTrue(field.get_attribute("value").startswith("myapp://"))
        self.assertIn(field.get_attribute("value"), mail["Text"])
        qr = self.driver.find_element(By.CSS_SELECTOR, "#messages .applink svg.qr")
        self.assertEqual(qr.get_attribute("role"), "img")
        self.assertGreater(len(qr.find_element(By.TAG_NAME, "path").get_attribute("d")), 100)

    def test_the_clock_moves_forward_from_the_page(self):
        self.open("/_/clock")
        before = self.server.json("GET", "/authflow/v1/clock")[1]["offset_seconds"]
        field = self.driver.find_element(By.ID, "advance")
        field.clear()
        field.send_keys("2h")
        self.driver.find_element(By.CSS_SELECTOR, "#advance-form button").click()
        self.wait_for(lambda d: d.find_element(By.ID, "status").text == "Advanced by 2h",
                      "the clock advanced")
        after = self.server.json("GET", "/authflow/v1/clock")[1]["offset_seconds"]
        self.assertEqual(after - before, 7200)


if __name__ == "__main__":
    unittest.main()

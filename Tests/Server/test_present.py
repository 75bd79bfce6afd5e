"""The shell's screen in a browser (`authflow --present 0`) driven in headless Chromium.

A shell runs on a throw-away store with its script fed line by line on standard input; after
each command the browser must show the screen the app would (the title, the fields with secrets
masked, the consent switch, the buttons with why submit is disabled, the error in red, the
offline badge, the signed-in user) without a reload. A plain HTTP client beside the browser
checks that no other page, no rebinding Host and no request without the page's token gets
anything, and that no secret reaches the page, its event stream or the shell's standard error.

Every wait polls the DOM against a deadline; none sleeps a fixed time. The test writes
screenshots of the screens, light and dark, to docs/images/ when AUTHFLOW_SCREENSHOTS names it.
"""

import http.client
import os
import queue
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.parse

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from serve import binary
from test_page import DEADLINE, TOKEN, browser, save_screenshots

PRESENT_LINE = re.compile(r"^present: (http://127\.0\.0\.1:(\d+)/)$")
DEMO_EMAIL, DEMO_PASSWORD = "test@example.com", "TestPassword123!"
WRONG_PASSWORD, NEW_PASSWORD = "Wrong-horse-41", "Analytical1-secret"
# The page's colours (PageStyle): the error's red, light and dark.
ERROR_RED = {"light": "rgba(179, 38, 30, 1)", "dark": "rgba(242, 184, 181, 1)"}


class Shell:
    """One `authflow --present 0` process whose script is written a line at a time."""

    def __init__(self):
        self.process = subprocess.Popen(
            [binary(), "--store", ":memory:", "--hash-cost", "4", "--present", "0"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.errors = queue.Queue()
        self.error_lines, self.output_lines = [], []
        self.readers = [
            threading.Thread(target=self._drain, args=(self.process.stdout, self.output_lines, None),
                             daemon=True),
            threading.Thread(target=self._drain, args=(self.process.stderr, self.error_lines,
                                                       self.errors), daemon=True)]
        for reader in self.readers:
            reader.start()
        # The shell reads its first line before it starts (a #! line may set its options).
        self.run("# presented by test_present.py")
        deadline = time.monotonic() + DEADLINE
        while True:
            line = self.errors.get(timeout=max(0.1, deadline - time.monotonic()))
            if match := PRESENT_LINE.match(line):
                self.url, self.port = match[1], int(match[2])
                break
            if not line or time.monotonic() > deadline:
                raise AssertionError(f"no present: line; stderr: {self.error_lines}")

    @staticmethod
    def _drain(stream, lines, into):
        for raw in stream:
            line = raw.decode(errors="replace").rstrip("\n")
            lines.append(line)
            if into is not None:
                into.put(line)
        if into is not None:
            into.put("")

    def run(self, line):
        """Writes one line of the script; the time it was written, in the page's milliseconds."""
        written = time.time() * 1000
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()
        return written

    def stop(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        for reader in self.readers:
            reader.join(10)


def request(port, path, headers=None):
    """A plain GET to the presenter: status, headers and body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.putrequest("GET", path, skip_host=True)
        given = {"Host": f"127.0.0.1:{port}", **(headers or {})}
        for name, value in given.items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


@unittest.skipIf(os.environ.get("AUTHFLOW_TEST_STORE") == "postgres",
                 "the shell's page has no store of serve's: it runs once, on SQLite's turn")
class PresentInBrowserTest(unittest.TestCase):
    """The page of one shell, followed through a scripted session."""

    @classmethod
    def setUpClass(cls):
        folder = tempfile.mkdtemp(prefix="authflow-present-", dir="/tmp")
        cls.addClassCleanup(shutil.rmtree, folder, ignore_errors=True)
        cls.shell = Shell()
        cls.addClassCleanup(cls.shell.stop)
        cls.driver = browser(folder)
        cls.addClassCleanup(cls.driver.quit)
        cls.latencies = []

    def wait_for(self, condition, what, timeout=DEADLINE):
        """`condition(driver)`'s first true value, polled against a deadline."""
        def attempt(driver):
            try:
                return condition(driver)
            except WebDriverException:
                return False
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.02).until(attempt)
        except Exception:
            raise AssertionError(
                f"{what}: not within {timeout} s; page text:\n"
                f"{self.driver.find_element(By.TAG_NAME, 'body').text}\n"
                f"shell: {self.shell.output_lines[-5:]} {self.shell.error_lines[-5:]}") from None

    def text(self, element_id):
        return self.driver.find_element(By.ID, element_id).text

    def control(self, command):
        return self.driver.find_element(By.CSS_SELECTOR, f"#controls [data-command='{command}']")

    def field(self, name):
        return self.driver.find_element(By.ID, f"field-{name}")

    def command(self, line, shows, what):
        """Runs `line` in the shell and waits for the page to show it (`shows(driver)`); the
        time from the line's writing to the page's redrawing is kept."""
        self.driver.execute_script("window.drawn = []")
        written = self.shell.run(line)
        self.wait_for(shows, what)
        drawn = self.driver.execute_script("return window.drawn")
        if drawn:
            self.latencies.append(drawn[0] - written)

    def watch_redraws(self):
        """Notes when the screen is redrawn (Date.now(), the shell's clock too)."""
        self.driver.execute_script("""
            window.drawn = [];
            new MutationObserver(() => window.drawn.push(Date.now()))
                .observe(document.getElementById('screen'),
                         {subtree: true, childList: true, characterData: true, attributes: true});
        """)

    def screenshot(self, name):
        save_screenshots(self, self.driver, f"present-{name}")

    def test_the_page_follows_a_scripted_session(self):
        self.driver.set_window_size(900, 1000)
        self.driver.get(self.shell.url)
        self.wait_for(lambda d: self.text("live") == "Live", "the page is live")
        self.wait_for(lambda d: self.text("title") == "Welcome", "the choice screen")
        self.driver.execute_script("window.stayed = true")
        self.watch_redraws()
        # Every text the live badge shows from here on.
        self.driver.execute_script(
            "window.badges = [];"
            "new MutationObserver(() => window.badges.push(document.getElementById('live')"
            ".textContent)).observe(document.getElementById('live'),"
            " {childList: true, characterData: true, subtree: true});")
        labels = [b.text for b in self.driver.find_elements(By.CSS_SELECTOR, "#controls button")]
        self.assertEqual(labels, ["Sign In", "Create Account"])
        self.assertEqual(self.driver.title, "Welcome · authflow")

        # The sign-in form: submit disabled, and why.
        self.command("signin", lambda d: self.text("title") == "Sign In", "the sign-in screen")
        submit = self.control("submit")
        self.assertFalse(submit.is_enabled())
        self.assertEqual(self.text("reason-0"), "Disabled: email is empty")
        self.assertEqual(submit.get_attribute("aria-describedby"), "reason-0")
        self.assertEqual(self.control("forgot").text, "Forgot password?")
        self.assertEqual(self.control("forgot").get_attribute("class"), "link")
        self.assertEqual(self.field("email").get_attribute("aria-label"), "Email address")
        label = self.driver.find_element(By.CSS_SELECTOR, "label[for='field-email']")
        self.assertEqual(label.text, "Email")

        # Fields as typed, the password only as its mask; a wrong password's error in red.
        self.command(f"set email {DEMO_EMAIL}",
                     lambda d: self.field("email").get_attribute("value") == DEMO_EMAIL,
                     "the email filled in")
        self.command(f"set password {WRONG_PASSWORD}",
                     lambda d: self.field("password").get_attribute("value") == "••••••••",
                     "the password's mask")
        self.assertEqual(self.field("password").get_attribute("type"), "password")
        self.assertTrue(self.control("submit").is_enabled())
        self.command("submit", lambda d: not self.driver.find_element(By.ID, "message")
                     .get_attribute("hidden"), "the error")
        message = self.driver.find_element(By.ID, "message")
        self.assertIn("error", message.get_attribute("class"))
        self.assertEqual(message.get_attribute("role"), "alert")
        self.assertIn("email or password", message.text.lower())
        self.assertEqual(message.value_of_css_property("color"), ERROR_RED["light"])
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        self.assertEqual(message.value_of_css_property("color"), ERROR_RED["dark"])
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.screenshot("sign-in-error")

        # The signup form: Confirm password, the consent switch, submit waiting for consent.
        self.command("back", lambda d: self.text("title") == "Welcome", "back to the choice")
        self.command("create", lambda d: self.text("title") == "Create Account", "the signup")
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "label[for='field-confirm']")
                         .text, "Confirm password")
        switch = self.driver.find_element(By.CSS_SELECTOR, "[data-control='consent'] input")
        self.assertEqual(switch.get_attribute("role"), "switch")
        self.assertEqual(switch.get_attribute("aria-label"), "Consent")
        self.assertFalse(switch.is_selected())
        for line in ("set email ada@example.com", f"set password {NEW_PASSWORD}",
                     f"set confirm {NEW_PASSWORD}"):
            self.shell.run(line)
        self.wait_for(lambda d: self.field("confirm").get_attribute("value") == "••••••••",
                      "the confirmation's mask")
        self.assertEqual(self.text("reason-0"), "Disabled: accept the terms first (consent on)")
        self.command("consent on", lambda d: self.driver.find_element(
            By.CSS_SELECTOR, "[data-control='consent'] input").is_selected(), "consent on")
        self.assertTrue(self.control("submit").is_enabled())
        self.screenshot("signup")

        # Offline: the badge, and submit held back.
        self.command("network offline", lambda d: self.driver.find_element(By.ID, "offline")
                     .is_displayed(), "the offline badge")
        self.assertEqual(self.text("reason-0"), "Disabled: offline")
        self.command("network online", lambda d: not self.driver.find_element(By.ID, "offline")
                     .is_displayed(), "back online")

        # Signed in: the user, never a token.
        self.command("back", lambda d: self.text("title") == "Welcome", "back again")
        self.shell.run("signin")
        self.shell.run(f"set email {DEMO_EMAIL}")
        self.shell.run(f"set password {DEMO_PASSWORD}")
        self.command("submit", lambda d: self.text("title") == "Signed in", "signed in")
        self.assertIn(DEMO_EMAIL, self.text("session"))
        self.assertIn("Session expires", self.text("session"))
        self.assertEqual(self.control("signout").text, "Sign out")
        self.screenshot("signed-in")

        # At phone width it fits, with nothing to scroll sideways.
        self.driver.set_window_size(390, 844)
        self.assertLessEqual(
            self.driver.execute_script("return document.documentElement.scrollWidth"),
            self.driver.execute_script("return document.documentElement.clientWidth"))
        self.driver.set_window_size(900, 1000)

        self.assertTrue(self.driver.execute_script("return window.stayed === true"),
                        "the page reloaded")
        for secret in (WRONG_PASSWORD, NEW_PASSWORD, DEMO_PASSWORD):
            self.assertNotIn(secret, self.driver.page_source)
            self.assertNotIn(secret, "\n".join(self.shell.error_lines))
        # The time from a command to the page, as the page saw it.
        self.assertTrue(self.latencies)
        median = statistics.median(self.latencies)
        print(f"\npresent: {len(self.latencies)} commands reached the page in "
              f"{median:.0f} ms (median), {max(self.latencies):.0f} ms at most", flush=True)
        self.assertLess(median, 500, f"the page lags the shell: {self.latencies}")

        # While the shell runs the badge never says it ended, however long an answer is held
        # between commands; once the shell has ended, it does.
        badges = self.driver.execute_script("return window.badges")
        self.assertFalse([b for b in badges if b.startswith("Not live")], badges)
        self.shell.stop()
        self.wait_for(lambda d: self.text("live") == "Not live: the shell has ended",
                      "the badge says the shell ended")

    def test_no_other_page_or_host_gets_anything(self):
        port = self.shell.port
        status, headers, body = request(port, "/")
        self.assertEqual(status, 200)
        self.assertIn("frame-ancestors 'none'", headers["Content-Security-Policy"])
        token = TOKEN.search(body.decode())[1]
        events = f"/events?token={urllib.parse.quote(token)}"
        # A secret typed: the stream (a new page's answer comes at once) has only its mask.
        self.shell.run("signin")
        self.shell.run(f"set password {WRONG_PASSWORD}")
        deadline = time.monotonic() + DEADLINE
        while True:
            status, _, stream = request(port, events)
            self.assertEqual(status, 200)
            if '"value":"••••••••"'.encode() in stream or time.monotonic() > deadline:
                break
        self.assertIn(b"event: screen", stream)
        self.assertIn('"value":"••••••••"'.encode(), stream)
        self.assertNotIn(WRONG_PASSWORD.encode(), stream)
        self.shell.run("back")
        for origin in ("https://evil.example", "null", f"http://127.0.0.1:{port + 1}",
                       "http://localhost:3000"):
            for path in ("/", "/app.js", events):
                with self.subTest(origin=origin, path=path):
                    status, answer, body = request(port, path, {"Origin": origin})
                    self.assertEqual(status, 403)
                    self.assertNotIn(b"authflow-page", body)
                    self.assertNotIn(b"event:", body)
                    self.assertIsNone(answer["Access-Control-Allow-Origin"])
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.nip.io"):
            for path in ("/", events):
                with self.subTest(host=host, path=path):
                    status, _, body = request(port, path, {"Host": host})
                    self.assertEqual(status, 403)
                    self.assertNotIn(b"authflow-page", body)
                    self.assertNotIn(b"event:", body)
        for headers, path in (({}, "/events"), ({}, "/events?token=forged.token"),
                              ({"Sec-Fetch-Site": "cross-site"}, events)):
            with self.subTest(headers=headers, path=path):
                status, _, body = request(port, path, headers)
                self.assertEqual(status, 403)
                self.assertNotIn(b"event:", body)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""The interactive shell through a real pseudo-terminal (pexpect): prompt per state, Tab
completion, unseen password entry, Ctrl-C at the prompt and during a request, Ctrl-D, history
written 0600 with no secret in it and reloaded, UTF-8 input, colour only where allowed.

usage: test_terminal.py PATH/TO/authflow
"""

import json
import os
import re
import select
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

import pexpect

AUTHFLOW = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else ".build/debug/authflow"
FAKE_GOTRUE = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "AuthShellTests", "Support", "fake_gotrue.py")
TIMEOUT = 40


class TerminalTests(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="authflow-pty-")
        self.env = dict(os.environ)
        self.env.update(
            XDG_DATA_HOME=os.path.join(self.home, "data"),
            XDG_STATE_HOME=os.path.join(self.home, "state"),
            HOME=self.home,
            TERM="xterm",
            LANG="C.UTF-8",
        )
        self.env.pop("NO_COLOR", None)

    def tearDown(self):
        shutil.rmtree(self.home, ignore_errors=True)

    def spawn(self, *arguments, embedded=True, **environment):
        env = dict(self.env)
        env.update(environment)
        options = ["--hash-cost", "4"] if embedded else []
        child = pexpect.spawn(
            AUTHFLOW, [*options, *arguments], env=env, encoding="utf-8",
            timeout=TIMEOUT, dimensions=(40, 120))
        child.expect_exact("Type help for the commands of each screen")
        return child

    def prompt(self, child, name):
        # The prompt is coloured on a terminal: match the state name and the "> " after it.
        child.expect(name + r".*?> ")

    def quit(self, child):
        # Ctrl-D only means "end" at the prompt (typed earlier, the terminal eats it), so every
        # caller has just matched a prompt.
        child.sendeof()
        child.expect(pexpect.EOF)
        child.close()
        self.assertEqual(child.exitstatus, 0)

    def history(self):
        path = os.path.join(self.home, "state", "authflow", "history")
        with open(path, encoding="utf-8", errors="replace") as file:
            return path, file.read()

    def test_prompt_completion_masked_password_and_history(self):
        child = self.spawn()
        self.prompt(child, "choice")
        # "sig" alone is no command: only a completed "signin" moves to the login screen.
        child.send("sig\t")
        child.expect_exact("nin ")
        child.send("\r")
        child.expect_exact("→ Sign In")
        self.prompt(child, "login")
        child.sendline("set em\ttest@example.com")
        self.prompt(child, "login")
        child.sendline("set password")
        child.expect_exact("Password: ")
        child.sendline("TestPassword123!")
        self.prompt(child, "login")
        self.assertNotIn("TestPassword123!", child.before)
        child.sendline("submit")
        child.expect_exact("✓ Signed in as test@example.com")
        self.prompt(child, r"signed-in.*\(test@example\.com\)")
        child.sendline("show")
        child.expect_exact("[Sign out]")
        self.prompt(child, "signed-in")
        self.quit(child)

        path, text = self.history()
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)
        self.assertIn("set\\040email\\040test@example.com", text)
        self.assertIn("set\\040password", text)
        self.assertNotIn("TestPassword123", text)

        # A new shell restores the session and recalls history with Up.
        child = self.spawn()
        child.expect_exact("✓ Signed in as test@example.com (restored)")
        self.prompt(child, "signed-in")
        child.send("\x1b[A")
        child.expect_exact("show")
        child.send("\r")
        child.expect_exact("[Sign out]")
        self.prompt(child, "signed-in")
        self.quit(child)

    def test_change_password_asks_unseen_for_the_password_and_the_emailed_code(self):
        child = self.spawn("--store", ":memory:", "--seed", "1", "--secure-password-change")
        self.prompt(child, "choice")
        child.sendline("signin; set email test@example.com; set password TestPassword123!; submit")
        child.expect_exact("✓ Signed in as test@example.com")
        self.prompt(child, "signed-in")
        # Over a day later GoTrue wants the code it emails before the password changes.
        child.sendline("clock advance 25h")
        self.prompt(child, "signed-in")
        child.sendline("change-password")
        child.expect_exact("New password: ")
        child.sendline("BrandNew123")
        child.expect_exact("Code from the email to test@example.com: ")
        child.sendline("000000")
        child.expect_exact("That code is incorrect.")
        self.prompt(child, "signed-in")
        self.assertNotIn("BrandNew123", child.before)
        self.quit(child)
        _, text = self.history()
        self.assertIn("change-password", text)
        self.assertNotIn("BrandNew123", text)

    def test_change_password_entry_can_be_cancelled(self):
        child = self.spawn("--store", ":memory:", "--seed", "1")
        self.prompt(child, "choice")
        child.sendline("signin; set email test@example.com; set password TestPassword123!; submit")
        child.expect_exact("✓ Signed in as test@example.com")
        self.prompt(child, "signed-in")
        child.sendline("change-password")
        child.expect_exact("New password: ")
        child.send("\x03")
        child.expect_exact("cancelled; the password is unchanged")
        self.prompt(child, "signed-in")
        self.quit(child)

    def test_secrets_typed_inline_are_masked_in_history(self):
        child = self.spawn("--store", ":memory:")
        child.sendline("create; set password Inline1234; set confirm 'Inline 1234'")
        self.prompt(child, "signup")
        child.sendline("expect field password Inline1234")
        self.prompt(child, "signup")
        self.quit(child)
        _, text = self.history()
        self.assertNotIn("Inline", text)
        self.assertIn("••••••••", text)

    def test_words_a_command_does_not_take_stay_out_of_errors_and_history(self):
        child = self.spawn("--store", ":memory:")
        self.prompt(child, "choice")
        child.sendline("help Hunter2x")
        child.expect_exact("no command named that; type help for the list")
        self.prompt(child, "choice")
        child.sendline("network Hunter2x")
        child.expect_exact("network takes online, offline or unreachable")
        self.prompt(child, "choice")
        child.sendline("help show")
        child.expect_exact("usage: show")
        self.prompt(child, "choice")
        self.quit(child)
        _, text = self.history()
        self.assertNotIn("Hunter2x", text)
        self.assertIn("help\\040show", text)  # libedit writes a space as \040

    def test_ctrl_c_clears_the_line_and_ctrl_d_quits(self):
        child = self.spawn("--store", ":memory:")
        self.prompt(child, "choice")
        child.send("bogus words")
        child.sendintr()
        self.prompt(child, "choice")
        child.sendline("signin")
        child.expect_exact("→ Sign In")
        self.prompt(child, "login")
        self.assertTrue(child.isalive())
        self.quit(child)
        self.assertNotIn("bogus", self.history()[1])

    def test_ctrl_c_cancels_a_request_in_flight(self):
        # At cost 13 one bcrypt check takes a good fraction of a second: long enough to cancel.
        child = self.spawn("--hash-cost", "13")
        child.sendline("signin; set email test@example.com; set password TestPassword123!")
        self.prompt(child, "login")
        child.sendline("submit")
        child.expect_exact("signing in")
        child.sendintr()
        child.expect_exact("Cancelled.")
        self.prompt(child, "login")
        child.sendline("expect signed-out")
        self.prompt(child, "login")
        self.assertNotIn("error", child.before)
        self.quit(child)

    def test_ctrl_c_during_a_supabase_request_keeps_its_helper(self):
        # The HTTP helper runs in its own process group: the terminal's Ctrl-C cancels the
        # request and tells so, and the helper is still there for the next one.
        key = "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9.signature"
        fake = subprocess.Popen(
            [sys.executable, FAKE_GOTRUE, key], stdout=subprocess.PIPE, text=True)
        self.addCleanup(fake.wait)
        self.addCleanup(fake.kill)
        self.addCleanup(fake.stdout.close)
        port = fake.stdout.readline().strip()
        child = self.spawn(
            "--backend", "supabase", "--supabase-url", "http://127.0.0.1:" + port,
            "--supabase-key", key, embedded=False)
        child.sendline("signin; set email test@example.com; set password Slow1234!")
        self.prompt(child, "login")
        child.sendline("submit")
        child.expect_exact("signing in")
        child.sendintr()
        child.expect_exact("Cancelled.")
        self.prompt(child, "login")
        self.assertNotIn("Can't reach", child.before)
        child.sendline("set password TestPassword123!; submit")
        child.expect_exact("Signed in as test@example.com")
        self.prompt(child, "signed-in")
        self.quit(child)

    def test_masked_entry_can_be_cancelled(self):
        child = self.spawn("--store", ":memory:")
        child.sendline("signin")
        self.prompt(child, "login")
        child.sendline("set password")
        child.expect_exact("Password: ")
        child.sendintr()
        child.expect_exact("error: cancelled; the password field is unchanged")
        self.prompt(child, "login")
        self.quit(child)

    def test_record_an_exploration_and_replay_it(self):
        script = os.path.join(self.home, "signup.authflow")
        child = self.spawn("--store", ":memory:")
        self.prompt(child, "choice")
        child.sendline("record " + script + " --transcript")
        child.expect_exact("Recording to " + script)
        typed = [
            ("create", "signup"), ("set email grace@example.com", "signup"),
            ("consent on", "signup"),
        ]
        for line, screen in typed:
            child.sendline(line)
            self.prompt(child, screen)
        # The password is typed unseen, the confirmation inline: neither reaches the file.
        child.sendline("set password")
        child.expect_exact("Password: ")
        child.sendline("Compiler42")
        self.prompt(child, "signup")
        for line, screen in [
            ("set confirm Compiler42", "signup"), ("submit", "signup"),
            ("mial open", "signup"), ("mail open", "login"),
            ("set password Compiler42", "login"), ("submit", "signed-in"),
        ]:
            child.sendline(line)
            self.prompt(child, screen)
        child.sendline("record stop")
        child.expect_exact("Recorded 9 commands")
        child.expect_exact("Replayed on a fresh store: it passes.")
        self.prompt(child, "signed-in")
        self.quit(child)

        with open(script, encoding="utf-8") as file:
            recorded = file.read()
        self.assertNotIn("Compiler42", recorded)
        self.assertNotIn("mial", recorded, "a mistake is not recorded")
        self.assertIn("set password $GRACE_PASSWORD\n", recorded)
        self.assertIn("expect signed-in grace@example.com\n", recorded)
        env = dict(self.env, GRACE_PASSWORD="Another12")
        replay = subprocess.run(
            [AUTHFLOW, script], env=env, capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(replay.returncode, 0, replay.stderr)
        suite = subprocess.run(
            [AUTHFLOW, "test", script], env=env, capture_output=True, text=True,
            timeout=TIMEOUT)
        self.assertEqual(suite.returncode, 0, suite.stdout + suite.stderr)
        self.assertIn("1 passed, 0 failed", suite.stdout)

    def test_a_script_at_a_terminal_asks_for_a_secret_it_lacks(self):
        script = os.path.join(self.home, "ask.authflow")
        with open(script, "w", encoding="utf-8") as file:
            file.write("#!/usr/bin/env -S authflow --store :memory: --hash-cost 4\n"
                       "create\nset email kay@example.com\nset password $KAY_PASSWORD\n"
                       "set confirm $KAY_PASSWORD\nconsent on\nexpect can-submit yes\n")
        env = dict(self.env)
        env.pop("KAY_PASSWORD", None)
        child = pexpect.spawn(AUTHFLOW, [script], env=env, encoding="utf-8", timeout=TIMEOUT)
        child.expect_exact("Password ($KAY_PASSWORD): ")
        child.sendline("Kayak2024")
        # Asked once: the confirmation reads the same variable without asking again.
        child.expect(pexpect.EOF)
        child.close()
        self.assertEqual(child.exitstatus, 0, child.before)
        self.assertNotIn("Kayak2024", child.before)

        cancelled = pexpect.spawn(AUTHFLOW, [script], env=env, encoding="utf-8", timeout=TIMEOUT)
        cancelled.expect_exact("Password ($KAY_PASSWORD): ")
        cancelled.sendintr()
        cancelled.expect_exact("line 4: cancelled; the password field is unchanged")
        cancelled.expect(pexpect.EOF)
        cancelled.close()
        self.assertEqual(cancelled.exitstatus, 1, "a cancelled secret stops the script")
        self.assertNotIn("line 5", cancelled.before)

    def test_firebase_verification_is_noticed_without_a_command(self):
        server = subprocess.Popen(
            [AUTHFLOW, "serve", "--store", ":memory:", "--port", "0", "--hash-cost", "4",
             "--firebase-project", "demo-pty"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            host = None
            for _ in range(4):
                found = re.search(r"FIREBASE_AUTH_EMULATOR_HOST=([0-9.]+:[0-9]+)",
                                  server.stdout.readline())
                if found:
                    host = found.group(1)
                    break
            self.assertIsNotNone(host, "serve printed its emulator address")
            child = self.spawn("--backend", "firebase", "--firebase-emulator", host,
                               "--firebase-project", "demo-pty", embedded=False)
            child.sendline("create; set email kim@example.com; set password Secret123; "
                           "set confirm Secret123; consent on; create")
            child.expect_exact("Check your email to verify your address.")
            self.prompt(child, "signed-in")
            # Half a command typed, then the link opened elsewhere (in the mail app).
            child.send("who")
            with urllib.request.urlopen(
                    f"http://{host}/emulator/v1/projects/demo-pty/oobCodes", timeout=TIMEOUT) as answer:
                link = json.load(answer)["oobCodes"][0]["oobLink"]
            with urllib.request.urlopen(link, timeout=TIMEOUT) as answer:
                self.assertEqual(answer.status, 200)
            child.expect_exact("Your email is verified.", timeout=TIMEOUT)
            # What was typed of the line is still there: finishing it runs the command.
            child.sendline("ami")
            child.expect_exact("email_verified: true")
            self.prompt(child, "signed-in")
            self.quit(child)
        finally:
            server.terminate()
            server.wait(timeout=10)
            server.stdout.close()

    def test_serve_at_a_terminal_says_when_ready_and_what_it_answered(self):
        child = pexpect.spawn(
            AUTHFLOW, ["serve", "--store", ":memory:", "--port", "0", "--hash-cost", "4"],
            env=self.env, encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 120))
        child.expect(r"authflow serve: (http://\S+) ")
        url = child.match.group(1)
        child.expect(r"authflow serve: ready in \d+ ms; one line per request below; "
                     r"Ctrl-C stops it")
        with urllib.request.urlopen(url + "/health", timeout=10) as response:
            self.assertEqual(response.status, 200)
        with self.assertRaises(urllib.error.HTTPError):
            urllib.request.urlopen(url + "/no-such-route", timeout=10)
        child.expect_exact("GET /no-such-route 404")
        child.sendintr()
        child.expect_exact("authflow serve: stopped: answered 2 requests: 1 2xx, 1 4xx")
        child.expect(pexpect.EOF)
        child.close()
        self.assertEqual(child.exitstatus, 0)

    def test_a_presented_playback_waits_for_enter_and_present_tells_where(self):
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                              "01-choice-screen.authflow")
        child = pexpect.spawn(
            AUTHFLOW, ["play", script, "--present", "--pace", "0", "--hash-cost", "4"],
            env=self.env, encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 120))
        child.expect(r"present: (http://127\.0\.0\.1:\d+/)\r\n")
        url = child.match.group(1)
        child.expect_exact("present: open the page, then press Enter to start")
        # The page is served before the tour starts, and the tour waits for Enter.
        with urllib.request.urlopen(url, timeout=10) as response:
            self.assertEqual(response.status, 200)
            self.assertIn(b'name="authflow-page"', response.read())
        with self.assertRaises(pexpect.TIMEOUT):
            child.expect_exact("choice> show", timeout=0.5)
        child.sendline("")
        child.expect_exact("choice> show")
        child.expect(pexpect.EOF)
        child.close()
        self.assertEqual(child.exitstatus, 0)
        # At the prompt: present tells where, and Ctrl-C stays the shell's.
        child = self.spawn("--store", ":memory:")
        self.prompt(child, "choice")
        child.sendline("present")
        child.expect(r"present: http://127\.0\.0\.1:\d+/")
        self.prompt(child, "choice")
        child.send("bogus words")
        child.sendintr()
        self.prompt(child, "choice")
        self.assertTrue(child.isalive())
        self.quit(child)

    def test_utf8_input_and_colour(self):
        child = self.spawn("--store", ":memory:")
        child.sendline("signin; set email pâté@exämple.com; show")
        child.expect_exact("Email                     pâté@exämple.com")
        child.expect_exact("[Back]")
        self.prompt(child, "login")
        self.assertIn("\x1b[1;36m", child.before[-20:] + child.after)
        self.quit(child)

        plain = self.spawn("--store", ":memory:", NO_COLOR="1")
        plain.sendline("signin; show")
        plain.expect_exact("[Back]")
        self.prompt(plain, "login")
        self.assertNotIn("\x1b[1;36m", plain.before + plain.after)
        self.quit(plain)

    def test_clear_alone_clears_the_screen_and_common_words_work(self):
        child = self.spawn("--store", ":memory:")
        child.sendline("LOGIN")
        child.expect_exact("→ Sign In")
        self.prompt(child, "login")
        child.sendline("clear")
        child.expect_exact("\x1b[H\x1b[2J")
        self.prompt(child, "login")
        child.sendline("\\q")
        child.expect(pexpect.EOF)
        child.close()
        self.assertEqual(child.exitstatus, 0)


class PipeTests(unittest.TestCase):
    """A program driving the shell over pipes, as a test harness or coproc does: each line is
    answered before the shell waits for the next, and a piped script's #! line counts."""

    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="authflow-pipe-")
        self.env = dict(os.environ, XDG_DATA_HOME=os.path.join(self.home, "data"),
                        XDG_STATE_HOME=os.path.join(self.home, "state"), HOME=self.home)
        self.addCleanup(shutil.rmtree, self.home, True)

    def read_line(self, child, deadline):
        """The next line on the child's standard output, waiting for it until `deadline`
        (monotonic seconds); fails if it does not come."""
        data = b""
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([child.stdout], [], [], max(0, left))
            if not ready:
                self.fail(f"no answer within the deadline; read so far {data!r}")
            chunk = os.read(child.stdout.fileno(), 1)
            if not chunk:
                self.fail(f"the shell ended; read so far {data!r}")
            data += chunk
        return data.decode()

    def test_each_command_is_answered_before_the_next_is_sent(self):
        child = subprocess.Popen(
            [AUTHFLOW, "--store", ":memory:", "--hash-cost", "4"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env)
        self.addCleanup(child.kill)
        # The pipe stays open: the shell has no end of input to wait for.
        for line, answer in [("version", "authflow "), ("signin", "→ Sign In"),
                             ("set email test@example.com", None),
                             ("set password TestPassword123!", None),
                             ("submit", "✓ Signed in as test@example.com")]:
            child.stdin.write(line.encode() + b"\n")
            child.stdin.flush()
            if answer:
                self.assertTrue(self.read_line(child, time.monotonic() + TIMEOUT)
                                .startswith(answer), line)
        child.stdin.close()
        self.assertEqual(child.wait(TIMEOUT), 0, child.stderr.read())

    def test_a_piped_script_takes_its_shebang_line(self):
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                              "03-login-valid-credentials.authflow")
        with open(script, "rb") as file:
            done = subprocess.run([AUTHFLOW], stdin=file, capture_output=True, env=self.env,
                                  timeout=TIMEOUT)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b"Signed in as test@example.com", done.stdout)
        # Its --store :memory: was taken: no store was made in the user's data folder.
        self.assertFalse(os.path.exists(os.path.join(self.home, "data", "authflow")))

        asking = b"#!/usr/bin/env -S authflow --keep-session\nshow\n"
        done = subprocess.run([AUTHFLOW], input=asking, capture_output=True, env=self.env,
                              timeout=TIMEOUT)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(
            done.stderr.decode(),
            "authflow: the #! line of the script on standard input asks for --keep-session, "
            "which only the command line may give: run authflow --keep-session -\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""`authflow serve --config`: the checked-in example projects (examples/projects/) start a server
as they are configured: a Supabase project's [auth] settings, a Firebase project's emulator
project. (The harness gives --port 0, which wins over the files' ports, as any command-line
option wins.)

Run: AUTHFLOW=path/to/authflow .build/venv/bin/python -m unittest test_project_config -v
"""

import os
import re
import unittest

from serve import Server

PROJECTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                        "projects")


class SupabaseProjectTest(unittest.TestCase):
    def setUp(self):
        self.folder = os.path.normpath(os.path.join(PROJECTS, "supabase"))
        self.server = Server("--config", self.folder).start()
        self.addCleanup(self.server.stop)

    def test_the_projects_auth_settings_are_served(self):
        status, settings = self.server.json("GET", "/auth/v1/settings")
        self.assertEqual(status, 200)
        self.assertIs(settings["external"]["anonymous_users"], True)
        self.assertIs(settings["mailer_autoconfirm"], False)
        self.assertIs(settings["disable_signup"], False)
        self.server.wait_for_log(re.escape(f"options from {self.folder}/supabase/config.toml"))
        # The status line comes after every line the start says, a warning included.
        self.server.wait_for_log(r"one line per request below|no line per request")
        self.assertNotIn("warning", self.server.log_tail())

    def test_the_projects_password_minimum_applies(self):
        status, body = self.server.json(
            "POST", "/auth/v1/signup", {"email": "ada@example.com", "password": "seven77"},
            self.server.anon_headers())
        self.assertEqual((status, body["error_code"]), (422, "weak_password"))
        self.assertIn("8 characters", body["msg"])


class FirebaseProjectTest(unittest.TestCase):
    def test_the_emulator_serves_the_projects_default_project(self):
        server = Server("--config", os.path.join(PROJECTS, "firebase")).start()
        self.addCleanup(server.stop)
        status, _ = server.json("GET", "/emulator/v1/projects/demo-authflow/config")
        self.assertEqual(status, 200)
        status, _ = server.json("GET", "/emulator/v1/projects/demo-other/config")
        self.assertNotEqual(status, 200)


if __name__ == "__main__":
    unittest.main()

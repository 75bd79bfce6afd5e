"""What the suites over serve's Firebase surface share: the emulator's plain 400, and a class
whose server has the surface and whose firebase-admin app is pointed at it as at the emulator."""

import json
import os
import uuid

import firebase_admin

from serve import ServerTestCase

PROJECT = "demo-app"
V1 = "/identitytoolkit.googleapis.com/v1"


def bad_request(message):
    """The emulator's exact body for a plain 400 (pretty-printed with 2 spaces)."""
    return json.dumps({"error": {"code": 400, "message": message, "errors": [
        {"message": message, "reason": "invalid", "domain": "global"}]}}, indent=2).encode()


class FirebaseAppCase(ServerTestCase):
    """One server per class with `--firebase-project PROJECT`, a firebase-admin app bound to it
    through FIREBASE_AUTH_EMULATOR_HOST (`app`, and `host` as that variable says it), and the
    public REST API as the client SDKs call it."""

    OPTIONS = ("--firebase-project", PROJECT)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.host = f"{cls.server.host}:{cls.server.port}"
        for variable in ("GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"):
            os.environ.pop(variable, None)
        # Read when the app's auth client is made, on its first call.
        os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = cls.host
        cls.app = firebase_admin.initialize_app(
            options={"projectId": PROJECT}, name=f"{cls.__name__}-{uuid.uuid4().hex[:6]}")
        cls.addClassCleanup(firebase_admin.delete_app, cls.app)

    def rest(self, operation, body, headers=None):
        """A public Identity Toolkit call with an API key; (status, raw body)."""
        status, _, raw = self.server.request(
            "POST", f"{V1}/accounts:{operation}?key=fake-api-key", body, headers)
        return status, raw

    def rest_json(self, operation, body, headers=None):
        """A call that must answer 200; its parsed body."""
        status, raw = self.rest(operation, body, headers)
        self.assertEqual(status, 200, raw)
        return json.loads(raw)

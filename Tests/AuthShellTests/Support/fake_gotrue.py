"""A tiny stand-in for a Supabase project's Auth API on loopback, for the shell's tests.

It knows one confirmed user (test@example.com / TestPassword123!), answers in GoTrue's
2024-01-01 shapes, and checks the apikey header. Prints its port, then serves.
"""

import http.server
import json
import sys
import time

KEY = sys.argv[1]
USER = {
    "id": "3f1c2a8e-6b7d-4c5e-9f10-2a3b4c5d6e7f", "aud": "authenticated", "role": "authenticated",
    "email": "test@example.com", "email_confirmed_at": "2025-01-01T00:00:00.123456Z",
    "app_metadata": {"provider": "email"}, "user_metadata": {},
    "identities": [{"identity_id": "i1", "user_id": "3f1c2a8e", "provider": "email"}],
    "created_at": "2024-12-01T10:00:00Z", "updated_at": "2025-01-01T00:00:00Z",
}
TOKENS = {"access": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.signature", "refresh": "r-1"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")

    def session(self):
        return {"access_token": TOKENS["access"], "token_type": "bearer", "expires_in": 3600,
                "expires_at": 4102444800, "refresh_token": TOKENS["refresh"], "user": USER}

    def handle_any(self):
        if self.headers.get("apikey") != KEY:
            return self.reply(401, {"message": "No API key found in request"})
        body = self.body() if self.command in ("POST", "PUT") else {}
        path = self.path
        bearer = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        if path == "/auth/v1/token?grant_type=password":
            if body.get("password") == "Slow1234!":  # a request slow enough to cancel
                time.sleep(5)
            if body.get("email") == "test@example.com" and body.get("password") == "TestPassword123!":
                return self.reply(200, self.session())
            return self.reply(400, {"code": "invalid_credentials", "message": "Invalid login credentials"})
        if path == "/auth/v1/user" and self.command == "GET":
            if bearer == TOKENS["access"]:
                return self.reply(200, USER)
            return self.reply(403, {"code": "bad_jwt", "message": "invalid JWT"})
        if path.startswith("/auth/v1/logout"):
            return self.reply(204)
        if path == "/auth/v1/signup":
            if body.get("email") == "test@example.com":
                return self.reply(200, dict(USER, id="fake", identities=[]))
            return self.reply(200, dict(USER, email=body.get("email"), email_confirmed_at=None))
        if path == "/auth/v1/recover":
            return self.reply(200, {})
        return self.reply(404, {"code": "not_found", "message": "no route " + path})

    do_GET = do_POST = do_PUT = handle_any


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()

#!/usr/bin/env python3
"""`authflow serve`'s targets of SPEC section 6, each measured side by side in one run.

usage: bench_serve.py PATH/TO/authflow PATH/TO/authflow-lab

- sign-ins per second with 8 concurrent keep-alive clients (wrk, one connection per thread)
  against the bcrypt bound measured between the rounds: cores / one bcrypt check at the
  server's cost; target >= 85 %.
- refresh grants per second with 8 clients, each rotating its own session's token, against
  sqlite3 running the same reads and writes per grant (one transaction each, WAL mode,
  synchronous=NORMAL, on a copy of the server's store); target >= 70 %.
- GET /user per second and its p99 latency with 64 keep-alive clients, against the same
  server's GET /health with the same clients (the HTTP-only bound); target >= 50 %.
- Secure Token refreshes per second (the Firebase surface), beside GoTrue's refresh (reported).
- peak RSS of the server holding 1 000 idle keep-alive connections; target <= 64 MiB.
- time from exec to the first `GET /health` answered 200, on a new `:memory:` store at cost
  10 and on an existing file store, median of 15 starts each, alternating; target <= 20 ms.

Rounds alternate the two sides of each ratio, and each figure is the median of its rounds, so
a busy neighbour on a shared machine slows both alike. Loopback only.
"""

import hashlib
import json
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests",
                                "Server"))
import serve  # noqa: E402  (the test suite's server runner: start, ready line, keys, stop)
from bench_verdict import verdict  # noqa: E402

AUTHFLOW, LAB = (os.path.abspath(path) for path in sys.argv[1:3])
os.environ["AUTHFLOW"] = AUTHFLOW
CLIENTS = 8
ROUNDS = 5
ROUND_SECONDS = 6
PASSWORD = "BenchPassword123"
COST = 10  # the server's default, and GoTrue's
FIREBASE_PROJECT = "demo-bench"
SECURE_TOKEN = "/securetoken.googleapis.com/v1/token?key=bench"


def wrk(server, lua, connections, threads, seconds, *extra, path="/"):
    """Runs wrk with the Lua script text `lua` (which may set its own path); returns (requests
    per second, p99 ms)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as file:
        file.write(lua)
    try:
        result = subprocess.run(
            ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
             "--timeout", "10s", "-s", file.name, *extra, server.url + path],
            capture_output=True, text=True, timeout=seconds + 30, check=True)
    finally:
        os.unlink(file.name)
    output = result.stdout
    if "Non-2xx" in output or "Socket errors" in output:
        sys.exit(f"bench: wrk saw failed requests:\n{output}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    value, unit = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", output, re.M).groups()
    p99 = float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]
    return rate, p99


def bcrypt_check_ms():
    """The median time of one bcrypt check at COST on one thread (authflow-lab)."""
    return bcrypt_check_ms_at(COST)


def bcrypt_check_ms_at(cost):
    """The median time of one bcrypt check at `cost` on one thread (authflow-lab)."""
    output = subprocess.run([LAB, "bench-bcrypt", "--cost", str(cost), "--iterations", "9"],
                            capture_output=True, text=True, check=True, timeout=120).stdout
    return float(re.search(r"verify_ms=([\d.]+)", output).group(1))


def sign_up(server, count):
    """`count` confirmed accounts; returns their sessions (as the sign-up answers them)."""
    sessions = []
    for index in range(count):
        status, body = server.json("POST", "/signup", {
            "email": f"bench{index}@bench.example", "password": PASSWORD},
            headers=server.anon_headers(), timeout=30)
        if status != 200 or "refresh_token" not in body:
            sys.exit(f"bench: sign-up {index} answered {status} {body}")
        sessions.append(body)
    return sessions


def lua_string(text):
    return json.dumps(text)  # a JSON string literal is a valid Lua string literal here


def sign_in_script(server):
    return f"""
local count = 0
function setup(thread)
  thread:set("email", "bench" .. count .. "@bench.example")
  count = count + 1
end
function init(args)
  wrk.method = "POST"
  wrk.path = "/token?grant_type=password"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["apikey"] = {lua_string(server.anon_key)}
  wrk.body = '{{"email":"' .. email .. '","password":"{PASSWORD}"}}'
end
"""


def rotating_script(tokens, path, headers, body):
    """A wrk script whose threads each rotate their own refresh token: `body` is Lua building
    the request from `token`; the answer's `refresh_token` is the next one."""
    listed = ", ".join(lua_string(token) for token in tokens)
    return f"""
local tokens = {{{listed}}}
local count = 0
function setup(thread)
  count = count + 1
  thread:set("token", tokens[count])
end
local headers = {{{headers}}}
function request()
  return wrk.format("POST", "{path}", headers, {body})
end
function response(status, headers, body)
  local next = body:match('"refresh_token":"([^"]+)"')
  if next then token = next end
end
"""


def refresh_script(server, tokens):
    return rotating_script(
        tokens, "/token?grant_type=refresh_token",
        f'["Content-Type"] = "application/json", ["apikey"] = {lua_string(server.anon_key)}',
        """'{"refresh_token":"' .. token .. '"}'""")


def secure_token_script(tokens):
    return rotating_script(
        tokens, SECURE_TOKEN, '["Content-Type"] = "application/x-www-form-urlencoded"',
        '"grant_type=refresh_token&refresh_token=" .. token')


def firebase_tokens(server, sessions):
    """A Firebase refresh token for each account, from the emulator's password sign-in."""
    tokens = []
    for index in range(len(sessions)):
        status, body = server.json(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench",
            {"email": f"bench{index}@bench.example", "password": PASSWORD,
             "returnSecureToken": True}, timeout=30)
        if status != 200:
            sys.exit(f"bench: Firebase sign-in answered {status} {body}")
        tokens.append(body["refreshToken"])
    return tokens


def latest_tokens(server, sessions):
    """Fresh refresh tokens for each account (wrk keeps the rotated ones to itself)."""
    tokens = []
    for index in range(len(sessions)):
        status, body = server.json("POST", "/token?grant_type=password", {
            "email": f"bench{index}@bench.example", "password": PASSWORD},
            headers=server.anon_headers(), timeout=30)
        if status != 200:
            sys.exit(f"bench: sign-in answered {status} {body}")
        tokens.append(body["refresh_token"])
    return tokens


def audit_payload(user, action):
    """An audit entry's payload as serve writes it for a refresh grant (the bench's users have
    no name: the same members as serve's)."""
    return json.dumps({"action": action, "actor_id": user, "actor_username": "bench@example.com",
                       "actor_via_sso": False, "log_type": "token"}, separators=(",", ":"))


def sqlite_grants(store, grants):
    """Grants per second of sqlite3 doing one refresh grant's statements per transaction on a
    copy of the server's store: find the token with its session, read the user, revoke the
    token, touch the session, insert the next token, record the two audit entries."""
    folder = tempfile.mkdtemp(prefix="authflow-bench-sqlite-")
    try:
        copy = os.path.join(folder, "copy.db")
        # SQLite's online backup: the running server's committed pages, including those still
        # in its WAL (a plain file copy can catch a checkpoint half-way and read as malformed).
        subprocess.run(["sqlite3", store, f".backup '{copy}'"], check=True, timeout=60)
        session, user = subprocess.run(
            ["sqlite3", "-separator", " ", copy, "SELECT id, user_id FROM sessions LIMIT 1"],
            capture_output=True, text=True, check=True).stdout.split()
        hashes = [hashlib.sha256(f"sqlite-{index}".encode()).hexdigest()
                  for index in range(grants + 1)]
        now = int(time.time() * 1000)
        script = os.path.join(folder, "grants.sql")
        with open(script, "w") as file:
            # The chain's first token; each grant finds its token by hash, as the server does
            # (the audit inserts move last_insert_rowid()).
            file.write("PRAGMA journal_mode = WAL;\nPRAGMA synchronous = NORMAL;\n"
                       "PRAGMA foreign_keys = ON;\n"
                       "INSERT INTO refresh_tokens (session_id, token_hash, parent_id, created_at) "
                       f"VALUES ('{session}', X'{hashes[0]}', NULL, {now});\n")
            for index in range(grants):
                file.write(
                    "BEGIN IMMEDIATE;\n"
                    "SELECT refresh_tokens.id, refresh_tokens.session_id, CASE WHEN "
                    "refresh_tokens.revoked THEN coalesce(refresh_tokens.revoked_at, 0) END, "
                    "sessions.user_id, sessions.amr_method, sessions.created_at FROM "
                    "refresh_tokens JOIN sessions ON sessions.id = refresh_tokens.session_id "
                    f"WHERE token_hash = X'{hashes[index]}';\n"
                    f"SELECT * FROM users WHERE id = '{user}';\n"
                    f"UPDATE refresh_tokens SET revoked = 1, revoked_at = {now} "
                    f"WHERE token_hash = X'{hashes[index]}';\n"
                    f"UPDATE sessions SET refreshed_at = {now} WHERE id = '{session}';\n"
                    "INSERT INTO refresh_tokens (session_id, token_hash, parent_id, created_at) "
                    f"VALUES ('{session}', X'{hashes[index + 1]}', (SELECT id FROM refresh_tokens "
                    f"WHERE token_hash = X'{hashes[index]}'), {now});\n"
                    # GoTrue's audit log: a grant records the old token revoked, then refreshed.
                    + "".join(
                        "INSERT INTO audit_log_entries (id, payload, created_at, ip_address) "
                        f"VALUES ('{uuid.uuid4()}', '{audit_payload(user, action)}', {now}, '');\n"
                        for action in ("token_revoked", "token_refreshed"))
                    + "COMMIT;\n")
        with open(script) as stdin:
            start = time.perf_counter()
            subprocess.run(["sqlite3", copy], stdin=stdin, stdout=subprocess.DEVNULL, check=True,
                           timeout=300)
            elapsed = time.perf_counter() - start
        revoked = subprocess.run(
            ["sqlite3", copy, f"SELECT count(*) FROM refresh_tokens WHERE session_id = '{session}'"
             f" AND revoked AND revoked_at = {now}"], capture_output=True, text=True,
            check=True).stdout.strip()
        if int(revoked) != grants:
            sys.exit(f"bench: sqlite3 revoked {revoked} tokens, not {grants}")
        return grants / elapsed
    finally:
        shutil.rmtree(folder)


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"^VmHWM:\s+(\d+) kB", status.read(), re.M).group(1))


def idle_connections(count):
    """Peak RSS (KiB) of a new server before and while it holds `count` idle keep-alive
    connections, each of which has had one request answered."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 256)), hard))
    server = serve.Server("--no-rate-limits", "--quiet", "--timeout", "120", store=":memory:",
                          hash_cost=4).start()
    sockets = []
    try:
        before = peak_rss_kib(server.process.pid)
        request = (f"GET /health HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
                   "Connection: keep-alive\r\n\r\n").encode()
        for _ in range(count):
            connection = socket.create_connection((server.host, server.port), timeout=10)
            connection.sendall(request)
            sockets.append(connection)
        for connection in sockets:
            answer = b""
            while b"\r\n\r\n" not in answer:
                chunk = connection.recv(4096)
                if not chunk:
                    sys.exit("bench: the server closed an idle connection early")
                answer += chunk
            if not answer.startswith(b"HTTP/1.1 200"):
                sys.exit(f"bench: /health answered {answer[:40]!r}")
        time.sleep(1)
        status, _ = server.json("GET", "/health")
        if status != 200:
            sys.exit(f"bench: /health beside {count} idle connections answered {status}")
        return before, peak_rss_kib(server.process.pid)
    finally:
        for connection in sockets:
            connection.close()
        server.stop()


def main():
    cores = os.cpu_count() or 1
    folder = tempfile.mkdtemp(prefix="authflow-bench-serve-")
    store = os.path.join(folder, "serve.db")
    server = serve.Server("--no-rate-limits", "--quiet", "--autoconfirm", "--firebase-project",
                          FIREBASE_PROJECT, store=store, hash_cost=COST)
    server.start()
    try:
        sessions = sign_up(server, CLIENTS)

        print(f"== authflow serve: sign-ins per second, {CLIENTS} keep-alive clients, bcrypt cost "
              f"{COST}")
        print(f"   (target: >= 85 % of the bound, {cores} cores / one bcrypt check; "
              "bound and rate measured in alternate rounds)")
        bounds, rates = [], []
        for _ in range(ROUNDS):
            check = bcrypt_check_ms()
            bounds.append(cores * 1000 / check)
            rate, _ = wrk(server, sign_in_script(server), CLIENTS, CLIENTS, ROUND_SECONDS)
            rates.append(rate)
            print(f"   round: bcrypt check {check:.1f} ms, bound {bounds[-1]:.1f}/s, "
                  f"serve {rate:.1f}/s")
        bound, rate = statistics.median(bounds), statistics.median(rates)
        print(f"   median: {rate:.1f} sign-ins/s of a {bound:.1f}/s bound: {rate / bound:.0%}")
        verdict("serve sign-ins, of the bcrypt bound", rate / bound, "at-least", 0.85)

        print(f"== authflow serve: refresh grants per second, {CLIENTS} clients rotating their "
              "own tokens")
        print("   (target: >= 70 % of sqlite3 doing each grant's reads and writes in one "
              "transaction, WAL, synchronous=NORMAL)")
        grants, sqlite = [], []
        for _ in range(ROUNDS):
            tokens = latest_tokens(server, sessions)
            rate, _ = wrk(server, refresh_script(server, tokens), CLIENTS, CLIENTS,
                          ROUND_SECONDS)
            grants.append(rate)
            sqlite.append(sqlite_grants(store, 20_000))
            print(f"   round: serve {grants[-1]:.0f}/s, sqlite3 {sqlite[-1]:.0f}/s")
        grant, reference = statistics.median(grants), statistics.median(sqlite)
        print(f"   median: {grant:.0f} grants/s against sqlite3's {reference:.0f}/s: "
              f"{grant / reference:.0%}")
        verdict("serve refresh grants, of sqlite3", grant / reference, "at-least", 0.70)

        print(f"== authflow serve as the Firebase emulator: Secure Token refreshes per second, "
              f"{CLIENTS} clients rotating their own tokens, beside GoTrue's refresh grants "
              "(reported)")
        secure, beside = [], []
        for _ in range(ROUNDS):
            rate, _ = wrk(server, secure_token_script(firebase_tokens(server, sessions)),
                          CLIENTS, CLIENTS, ROUND_SECONDS)
            secure.append(rate)
            rate, _ = wrk(server, refresh_script(server, latest_tokens(server, sessions)),
                          CLIENTS, CLIENTS, ROUND_SECONDS)
            beside.append(rate)
            print(f"   round: Secure Token {secure[-1]:.0f}/s, GoTrue refresh {beside[-1]:.0f}/s")
        print(f"   median: {statistics.median(secure):.0f} refreshes/s, "
              f"{statistics.median(secure) / statistics.median(beside):.2f} of GoTrue's refresh")

        print("== authflow serve: GET /user with 64 keep-alive clients, against the same "
              "server's GET /health")
        print("   (target: >= 50 % of /health, the HTTP-only bound; rounds alternate)")
        token = latest_tokens(server, sessions[:1])  # a fresh session; its access token below
        status, body = server.json("POST", "/token?grant_type=refresh_token",
                                   {"refresh_token": token[0]}, headers=server.anon_headers())
        if status != 200:
            sys.exit(f"bench: refresh answered {status} {body}")
        users, healths, p99s, health_p99s = [], [], [], []
        for _ in range(ROUNDS):
            rate, p99 = wrk(server, "", 64, min(cores, 4), ROUND_SECONDS,
                            "-H", f"Authorization: Bearer {body['access_token']}",
                            "-H", f"apikey: {server.anon_key}", path="/user")
            users.append(rate)
            p99s.append(p99)
            rate, p99 = wrk(server, "", 64, min(cores, 4), ROUND_SECONDS, path="/health")
            healths.append(rate)
            health_p99s.append(p99)
            print(f"   round: /user {users[-1]:.0f}/s (p99 {p99s[-1]:.2f} ms), /health "
                  f"{healths[-1]:.0f}/s (p99 {health_p99s[-1]:.2f} ms)")
        user, health = statistics.median(users), statistics.median(healths)
        print(f"   median: {user:.0f} requests/s (p99 {statistics.median(p99s):.2f} ms) against "
              f"/health's {health:.0f}/s: {user / health:.0%}")
        verdict("serve GET /user, of /health", user / health, "at-least", 0.50)
    finally:
        server.stop()
        shutil.rmtree(folder)

    print("== authflow serve: peak RSS with 1 000 idle keep-alive connections")
    print("   (target: <= 64 MiB)")
    before, during = idle_connections(1000)
    print(f"   {during / 1024:.1f} MiB (started at {before / 1024:.1f} MiB)")
    verdict("serve peak RSS, 1 000 idle connections", during / 1024, "at-most", 64, " MiB")


def ready_ms(arguments):
    """Milliseconds from exec to the first 200 of `GET /health`, polling as a test runner
    would (a new connection each time, 0.5 ms apart)."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    start = time.perf_counter()
    process = subprocess.Popen([AUTHFLOW, "serve", "--port", str(port), "--quiet", *arguments],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(10_000):  # bounded: at most about 10 s of polling
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
                    connection.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                       b"Connection: close\r\n\r\n")
                    if connection.recv(16).startswith(b"HTTP/1.1 200"):
                        return (time.perf_counter() - start) * 1000
            except OSError:
                pass
            time.sleep(0.0005)
        sys.exit("bench: serve never answered /health")
    finally:
        process.terminate()
        process.wait()


def readiness():
    print("== authflow serve: exec to the first /health answer, median of 15 starts each")
    print("   (target: <= 20 ms on a new :memory: store at cost 10 and on an existing file store)")
    folder = tempfile.mkdtemp(prefix="authflow-bench-ready-")
    store = os.path.join(folder, "ready.db")
    try:
        ready_ms(["--store", store])  # makes the file store
        memory, existing = [], []
        for _ in range(15):
            memory.append(ready_ms(["--store", ":memory:", "--hash-cost", str(COST)]))
            existing.append(ready_ms(["--store", store]))
        print(f"   new :memory: store {statistics.median(memory):.1f} ms, existing file store "
              f"{statistics.median(existing):.1f} ms")
        verdict("serve ready, new :memory: store", statistics.median(memory), "at-most", 20, " ms")
        verdict("serve ready, existing file store", statistics.median(existing), "at-most", 20,
                " ms")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    readiness()
    main()

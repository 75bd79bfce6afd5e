"""`authflow serve` on PostgreSQL, measured side by side in one run on a throw-away cluster.

usage: bench_postgres.py PATH/TO/authflow PATH/TO/authflow-lab

- refresh grants per second with 8 clients, each rotating its own session's token, against
  pgbench running one grant's statements per transaction (its reads locking what they find, as
  the server's do) on the same database with 8 clients (find the token with its session, read
  the user, revoke the token, mark the session refreshed, insert the next token: the bound);
  target >= 60 %.
- the same grants with the 8 clients split over two servers on the database, against one
  server (how it scales; reported: with as many cores as servers, the database is the bound).
- a sign-in's time on a core at bcrypt cost 4, less its bcrypt check, against pgbench running
  a sign-in's statements; target >= 60 % (as times).
- sign-ins per second, bcrypt cost 10, 8 clients, on PostgreSQL against the same server
  on SQLite (reported: a bcrypt check is the bound of both).

pgbench sends each statement whole (its default), the targets' reference since they were set;
the server prepares each statement once per connection, so pgbench running the same statements
prepared is reported beside (how much of the remaining time is the server's own).

Rounds alternate the sides of each ratio; each figure is the median of its rounds. Loopback
only.
"""

import concurrent.futures
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests",
                                "Server"))
import pgserver  # noqa: E402
import serve  # noqa: E402

sys.argv = sys.argv[:1] + sys.argv[1:3]
import bench_serve  # noqa: E402  (its wrk driver, sign-up and token scripts)
from bench_verdict import verdict  # noqa: E402

LAB = bench_serve.LAB
CLIENTS = bench_serve.CLIENTS
ROUNDS = 5
ROUND_SECONDS = 6

# One grant's statements as the server runs them (PostgresConnection's readers of a refresh
# token and of a user, then its writes), each client on a session of its own (bench_clients).
def lab_sql(part):
    """The store's own SQL (`authflow-lab sql-PART`): the reference runs the server's
    statements, never a copy of them."""
    return subprocess.run([LAB, f"sql-{part}"], capture_output=True, text=True, check=True,
                          timeout=30).stdout.strip()


USER_COLUMNS = lab_sql("user-columns")
USER_TABLES = lab_sql("user-tables")

# GoTrue's audit log entry of `action` for the bench user, as the server writes it.
AUDIT = """
INSERT INTO auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
SELECT '00000000-0000-0000-0000-000000000000', gen_random_uuid(),
  json_build_object('action', '{action}', 'actor_id', user_id::text,
    'actor_username', 'bench@example.com', 'actor_via_sso', false, 'log_type', '{log_type}'),
  now(), '' FROM bench_clients WHERE client = :client_id;
"""

GRANT = f"""
BEGIN;
SELECT r.id, CASE WHEN r.revoked THEN coalesce(authflow.ms(r.updated_at), 0) END, s.id::text,
  authflow.user_name(s.user_id), coalesce(x.amr_method, 'password'),
  coalesce(authflow.ms(s.created_at), 0),
  coalesce(authflow.ms(s.refreshed_at AT TIME ZONE 'UTC'), authflow.ms(s.created_at), 0),
  coalesce(s.aal::text, 'aal1'), s.factor_id::text, x.firebase_provider, x.firebase_claims
FROM auth.refresh_tokens r JOIN auth.sessions s ON s.id = r.session_id
LEFT JOIN authflow.session_extras x ON x.session_id = s.id
WHERE r.token = (SELECT token FROM bench_clients WHERE client = :client_id) FOR UPDATE OF r;
SELECT {USER_COLUMNS.strip()}
FROM {USER_TABLES}
WHERE u.id = (SELECT user_id FROM bench_clients WHERE client = :client_id) FOR UPDATE OF u;
UPDATE auth.refresh_tokens SET revoked = true, updated_at = now()
WHERE token = (SELECT token FROM bench_clients WHERE client = :client_id);
UPDATE auth.sessions SET refreshed_at = now() AT TIME ZONE 'UTC', updated_at = now()
WHERE id = (SELECT session_id FROM bench_clients WHERE client = :client_id);
INSERT INTO auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at,
  parent, session_id)
SELECT '00000000-0000-0000-0000-000000000000', md5(random()::text) || md5(random()::text),
  user_id::text, false, now(), now(), token, session_id
FROM bench_clients WHERE client = :client_id;
{AUDIT.format(action="token_revoked", log_type="token").strip()}
{AUDIT.format(action="token_refreshed", log_type="token").strip()}
COMMIT;
"""


# One sign-in's statements as the server runs them: the user by email (then, outside any
# transaction, the bcrypt check), then the sign-in's time, the user again, the new session with
# its first method and its first refresh token.
SIGN_IN = f"""
BEGIN;
SELECT {USER_COLUMNS.strip()}
FROM {USER_TABLES}
WHERE lower(u.email) = lower('bench' || :client_id || '@bench.example') AND NOT u.is_sso_user
ORDER BY u.created_at LIMIT 1 FOR UPDATE OF u;
COMMIT;
BEGIN;
UPDATE auth.users SET last_sign_in_at = now()
WHERE id = (SELECT user_id FROM bench_clients WHERE client = :client_id);
SELECT {USER_COLUMNS.strip()}
FROM {USER_TABLES}
WHERE u.id = (SELECT user_id FROM bench_clients WHERE client = :client_id) FOR UPDATE OF u;
\\set session_key random(1, 1000000000)
INSERT INTO auth.sessions (id, user_id, created_at, updated_at, aal, refreshed_at)
SELECT md5(:client_id || '-' || :session_key || random())::uuid, user_id, now(), now(), 'aal1',
  now() AT TIME ZONE 'UTC' FROM bench_clients WHERE client = :client_id;
INSERT INTO authflow.session_extras (session_id, amr_method)
SELECT id, 'password' FROM auth.sessions
WHERE user_id = (SELECT user_id FROM bench_clients WHERE client = :client_id)
ORDER BY created_at DESC LIMIT 1;
INSERT INTO auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
SELECT gen_random_uuid(), id, now(), now(), 'password' FROM auth.sessions
WHERE user_id = (SELECT user_id FROM bench_clients WHERE client = :client_id)
ORDER BY created_at DESC LIMIT 1;
INSERT INTO auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at,
  session_id)
SELECT '00000000-0000-0000-0000-000000000000', md5(random()::text) || md5(random()::text),
  user_id::text, false, now(), now(), session_id FROM bench_clients WHERE client = :client_id;
{AUDIT.format(action="login", log_type="account").strip()}
COMMIT;
"""


def prepare_clients(postgres, database):
    """One row per pgbench client: a session of a bench account, and a token of it."""
    postgres.sql(
        "DROP TABLE IF EXISTS bench_clients;"
        " CREATE TABLE bench_clients (client int PRIMARY KEY, session_id uuid, user_id uuid,"
        " token text);"
        " INSERT INTO bench_clients SELECT row_number() OVER (ORDER BY s.id) - 1, s.id,"
        " s.user_id, (SELECT token FROM auth.refresh_tokens r WHERE r.session_id = s.id"
        " ORDER BY r.id DESC LIMIT 1) FROM auth.sessions s"
        f" ORDER BY s.id LIMIT {CLIENTS};", database)


def pgbench_grants(postgres, database, statements=GRANT, mode="simple"):
    """Rounds per second of pgbench doing `statements` (a grant's, by default) per round, each
    sent whole (`simple`, the target's reference) or prepared once per client (`prepared`, as
    the server sends them; reported)."""
    prepare_clients(postgres, database)
    with tempfile.NamedTemporaryFile("w", prefix="authflow-bench-grant-", suffix=".sql",
                                     delete=False) as script:
        script.write(statements)
    os.chmod(script.name, 0o644)
    try:
        result = subprocess.run(
            [os.path.join(postgres.bin, "pgbench"), "-n", "-M", mode, "-h", "127.0.0.1", "-p",
             str(postgres.port), "-U", "postgres", "-c", str(CLIENTS), "-j", str(CLIENTS),
             "-T", str(ROUND_SECONDS), "-f", script.name, database],
            capture_output=True, text=True, timeout=ROUND_SECONDS * 4)
        for line in result.stdout.splitlines():
            if line.startswith("tps = "):
                return float(line.split()[2])
        sys.exit(f"bench: pgbench printed no rate: {result.stdout[-500:]} {result.stderr[-500:]}")
    finally:
        os.unlink(script.name)


def grants_per_second(servers, sessions):
    """Refresh grants per second with the clients split evenly over `servers`."""
    tokens = bench_serve.latest_tokens(servers[0], sessions)
    if len(servers) == 1:
        rate, _ = bench_serve.wrk(servers[0], bench_serve.refresh_script(servers[0], tokens),
                                  CLIENTS, CLIENTS, ROUND_SECONDS)
        return rate
    half = len(tokens) // 2
    shares = ((servers[0], tokens[:half]), (servers[1], tokens[half:]))
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        rates = pool.map(
            lambda pair: bench_serve.wrk(pair[0], bench_serve.refresh_script(pair[0], pair[1]),
                                         len(pair[1]), len(pair[1]), ROUND_SECONDS)[0], shares)
        return sum(rates)


def main():
    postgres = pgserver.PostgresServer().start()
    try:
        url = postgres.database()
        database = url.rsplit("/", 1)[1]
        options = ("--no-rate-limits", "--quiet", "--autoconfirm")
        first = serve.Server(*options, store=url, hash_cost=bench_serve.COST).start()
        second = serve.Server(*options, store=url, hash_cost=bench_serve.COST).start()
        try:
            sessions = bench_serve.sign_up(first, CLIENTS)
            print(f"== authflow serve on PostgreSQL: refresh grants per second, {CLIENTS} clients "
                  "rotating their own tokens")
            print("   (target: >= 60 % of pgbench doing each grant's statements in one "
                  "transaction on the same database)")
            grants, bounds, prepared = [], [], []
            for _ in range(ROUNDS):
                grants.append(grants_per_second([first], sessions))
                bounds.append(pgbench_grants(postgres, database))
                prepared.append(pgbench_grants(postgres, database, mode="prepared"))
                print(f"   round: serve {grants[-1]:.0f}/s, pgbench {bounds[-1]:.0f}/s, "
                      f"prepared {prepared[-1]:.0f}/s")
            grant, bound = statistics.median(grants), statistics.median(bounds)
            print(f"   median: {grant:.0f} grants/s against pgbench's {bound:.0f}/s: "
                  f"{grant / bound:.0%}; its statements prepared: "
                  f"{statistics.median(prepared):.0f}/s, {grant / statistics.median(prepared):.0%}"
                  " (reported)")
            verdict("PostgreSQL refresh grants, of pgbench", grant / bound, "at-least", 0.60)

            print("== Two servers on one PostgreSQL database against one, on refresh grants "
                  f"({CLIENTS} clients in all; reported)")
            ones, twos = [], []
            for _ in range(ROUNDS):
                ones.append(grants_per_second([first], sessions))
                twos.append(grants_per_second([first, second], sessions))
                print(f"   round: one server {ones[-1]:.0f}/s, two servers {twos[-1]:.0f}/s")
            one, two = statistics.median(ones), statistics.median(twos)
            print(f"   median: two servers {two:.0f}/s against one's {one:.0f}/s: {two / one:.2f}")

            print("== Sign-in overhead on PostgreSQL, bcrypt cost 4: a sign-in's time on a core less "
                  "one bcrypt check, against pgbench doing a sign-in's statements")
            print("   (target: >= 60 % of pgbench's rate, as times per sign-in on a core)")
            # Accounts of their own, hashed at cost 4, on a database of their own.
            cheap_url = postgres.database()
            cheap_database = cheap_url.rsplit("/", 1)[1]
            cheap = serve.Server(*options, store=cheap_url, hash_cost=4)
            cheap.start()
            try:
                bench_serve.sign_up(cheap, CLIENTS)
                cores = os.cpu_count() or 1
                check = bench_serve.bcrypt_check_ms_at(4)
                overheads, bounds, prepared = [], [], []
                for _ in range(ROUNDS):
                    rate, _ = bench_serve.wrk(cheap, bench_serve.sign_in_script(cheap), CLIENTS,
                                              CLIENTS, ROUND_SECONDS)
                    overheads.append(cores * 1000 / rate - check)
                    bounds.append(
                        cores * 1000 / pgbench_grants(postgres, cheap_database, SIGN_IN))
                    prepared.append(cores * 1000 / pgbench_grants(
                        postgres, cheap_database, SIGN_IN, mode="prepared"))
                    print(f"   round: serve {rate:.0f}/s, {overheads[-1]:.2f} ms a sign-in beside "
                          f"its {check:.2f} ms check; pgbench {bounds[-1]:.2f} ms, prepared "
                          f"{prepared[-1]:.2f} ms")
                overhead, bound = statistics.median(overheads), statistics.median(bounds)
                print(f"   median: {overhead:.2f} ms against pgbench's {bound:.2f} ms: "
                      f"{bound / overhead:.0%}; its statements prepared: "
                      f"{statistics.median(prepared):.2f} ms, "
                      f"{statistics.median(prepared) / overhead:.0%} (reported)")
                verdict("PostgreSQL sign-in overhead, of pgbench", bound / overhead, "at-least",
                        0.60)
            finally:
                cheap.stop()

            print(f"== Sign-ins per second on PostgreSQL against SQLite, bcrypt cost "
                  f"{bench_serve.COST}, {CLIENTS} clients (reported)")
            with tempfile.TemporaryDirectory(prefix="authflow-bench-pg-") as folder:
                sqlite = serve.Server(*options, store=os.path.join(folder, "auth.db"),
                                      hash_cost=bench_serve.COST).start()
                try:
                    bench_serve.sign_up(sqlite, CLIENTS)
                    on_postgres, on_sqlite = [], []
                    for _ in range(3):
                        rate, _ = bench_serve.wrk(first, bench_serve.sign_in_script(first),
                                                  CLIENTS, CLIENTS, ROUND_SECONDS)
                        on_postgres.append(rate)
                        rate, _ = bench_serve.wrk(sqlite, bench_serve.sign_in_script(sqlite),
                                                  CLIENTS, CLIENTS, ROUND_SECONDS)
                        on_sqlite.append(rate)
                        print(f"   round: PostgreSQL {on_postgres[-1]:.1f}/s, "
                              f"SQLite {on_sqlite[-1]:.1f}/s")
                    pg, lite = statistics.median(on_postgres), statistics.median(on_sqlite)
                    print(f"   median: {pg:.1f} sign-ins/s against SQLite's {lite:.1f}/s: "
                          f"{pg / lite:.2f}")
                finally:
                    sqlite.stop()
        finally:
            first.stop()
            second.stop()
    finally:
        postgres.stop()


if __name__ == "__main__":
    main()

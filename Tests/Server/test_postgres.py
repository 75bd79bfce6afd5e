"""`authflow serve` on PostgreSQL, as a Supabase app's database sees it: users seeded in SQL the
way Supabase projects seed them sign in on both surfaces, an app's migration (a foreign key to
auth.users, a trigger on it, a row-security policy on auth.uid()) works with the server's tokens
as PostgREST sets them, deleting a user cascades as the app's keys say, and two servers on one
database keep every single-use rule. These always run on the test process's throw-away
PostgreSQL, whatever AUTHFLOW_TEST_STORE says.
"""

import base64
import concurrent.futures
import hashlib
import json
import unittest
import urllib.parse

import pgserver
from serve import Server, claims
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

V1 = "/identitytoolkit.googleapis.com/v1"
PROJECT = "demo-pg"

APP_MIGRATION = """
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text
);
alter table public.profiles enable row level security;
create policy "own profile" on public.profiles for select to authenticated
  using (auth.uid() = id);
create function public.new_profile() returns trigger language plpgsql security definer
  set search_path = '' as $$
  begin
    insert into public.profiles (id, email) values (new.id, new.email);
    return new;
  end $$;
create trigger on_auth_user_created after insert on auth.users
  for each row execute procedure public.new_profile();
"""

SEED = """
create extension if not exists pgcrypto;
insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
  email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change)
values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated',
  'authenticated', 'seeded@example.com', crypt('Test1234', gen_salt('bf')), now(),
  '{"provider":"email","providers":["email"]}', '{}', now(), now(), '', '', '', '');
"""


class PostgresCase(unittest.TestCase):
    """A new database, made ready by one server start (GoTrue's schema and authflow's)."""

    OPTIONS = ("--autoconfirm", "--firebase-project", PROJECT)

    def setUp(self):
        self.postgres = pgserver.shared()
        self.url = self.postgres.database()
        self.database = self.url.rsplit("/", 1)[1]

    def serve(self, *options):
        server = Server(*self.OPTIONS, *options, store=self.url).start()
        self.addCleanup(server.stop)
        return server

    def sql(self, statement):
        return self.postgres.sql(statement, self.database)

    def client(self, server):
        client = SyncGoTrueClient(url=server.url, headers=server.anon_headers(),
                                  auto_refresh_token=False)
        self.addCleanup(client.close)
        return client


class SeededUsersTests(PostgresCase):
    def test_users_seeded_in_sql_sign_in_on_both_surfaces(self):
        server = self.serve()
        self.sql(SEED)
        session = self.client(server).sign_in_with_password(
            {"email": "seeded@example.com", "password": "Test1234"}).session
        self.assertEqual(claims(session.access_token)["email"], "seeded@example.com")
        status, answer = server.json(
            "POST", f"{V1}/accounts:signInWithPassword?key=fake-api-key",
            {"email": "seeded@example.com", "password": "Test1234", "returnSecureToken": True})
        self.assertEqual(status, 200, answer)
        seeded_id = self.sql("select id from auth.users where email = 'seeded@example.com'")
        self.assertEqual(answer["localId"], seeded_id.strip())
        with self.assertRaises(AuthApiError):
            self.client(server).sign_in_with_password(
                {"email": "seeded@example.com", "password": "wrong-password"})

    def test_what_serve_writes_is_gotrue_rows(self):
        server = self.serve()
        self.client(server).sign_up({"email": "ada@example.com", "password": "Password123"})
        row = self.sql(
            "select aud, role, left(encrypted_password, 2), email_confirmed_at is not null,"
            " raw_app_meta_data ->> 'provider', confirmation_token, is_anonymous"
            " from auth.users where email = 'ada@example.com'")
        self.assertEqual(row.strip(), "authenticated|authenticated|$2|t|email||f")
        identity = self.sql(
            "select provider, identity_data ->> 'email', provider_id = user_id::text"
            " from auth.identities i join auth.users u on u.id = i.user_id"
            " where u.email = 'ada@example.com'")
        self.assertEqual(identity.strip(), "email|ada@example.com|t")
        sessions = self.sql(
            "select s.aal, c.authentication_method, r.revoked, length(r.token)"
            " from auth.sessions s join auth.mfa_amr_claims c on c.session_id = s.id"
            " join auth.refresh_tokens r on r.session_id = s.id")
        # A refresh token is kept as its SHA-256, never as the token the client holds.
        self.assertEqual(sessions.strip(), "aal1|password|f|64")

    def test_the_audit_log_is_gotrues_table_and_the_admin_api_reads_it(self):
        server = self.serve()
        client = self.client(server)
        client.sign_up({"email": "ada@example.com", "password": "Password123"})
        client.sign_out()
        rows = self.sql(
            "select payload ->> 'action', payload ->> 'log_type', payload ->> 'actor_username',"
            " instance_id, ip_address from auth.audit_log_entries"
            " order by created_at, payload ->> 'action' desc")
        nil = "00000000-0000-0000-0000-000000000000"
        self.assertEqual(rows.strip().splitlines(), [
            f"user_signedup|team|ada@example.com|{nil}|",
            f"login|account|ada@example.com|{nil}|",
            f"logout|account|ada@example.com|{nil}|",
        ])
        status, entries = server.json("GET", "/admin/audit?query=type:account",
                                      headers=server.service_headers())
        self.assertEqual(status, 200, entries)
        self.assertEqual(sorted(e["payload"]["action"] for e in entries), ["login", "logout"])


class AppSchemaTests(PostgresCase):
    def test_a_migration_with_a_key_a_trigger_and_a_policy_works_with_serves_tokens(self):
        server = self.serve()
        self.sql(APP_MIGRATION)
        sessions = {}
        for name in ("ada", "bob"):
            response = self.client(server).sign_up(
                {"email": f"{name}@example.com", "password": "Password123"})
            sessions[name] = response.session
        # The trigger made each profile; as PostgREST runs a request with Ada's token, the
        # policy shows her row only.
        ada = claims(sessions["ada"].access_token)
        seen = self.sql(
            "begin; set local role authenticated;"
            f" select set_config('request.jwt.claims', '{json.dumps(ada)}', true);"
            " select email from public.profiles order by email; commit;")
        self.assertEqual([line for line in seen.splitlines() if line.endswith("@example.com")],
                         ["ada@example.com"])
        self.assertIn(ada["sub"], self.sql(
            "begin; set local role authenticated;"
            f" select set_config('request.jwt.claims', '{json.dumps(ada)}', true);"
            " select auth.uid(), auth.role(), auth.email(), auth.jwt() ->> 'session_id';"
            " commit;"))
        # Deleting a user through the admin API cascades as the app's key says.
        status, _ = server.json("DELETE", f"/admin/users/{ada['sub']}",
                                headers=server.service_headers())
        self.assertEqual(status, 200)
        self.assertEqual(self.sql("select email from public.profiles").split(),
                         ["bob@example.com"])


class SharedDatabaseTests(PostgresCase):
    """Two servers on one database act as one server."""

    def test_a_signup_race_on_one_address_has_one_winner(self):
        servers = [self.serve(), self.serve()]

        def sign_up(index):
            server = servers[index % 2]
            return server.json("POST", "/signup",
                               {"email": "race@example.com", "password": "Password123"},
                               headers=server.anon_headers())

        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(sign_up, range(8)))
        statuses = sorted(status for status, _ in answers)
        self.assertEqual(statuses.count(200), 1, answers)
        self.assertEqual(statuses.count(422), 7, answers)
        self.assertEqual(self.sql(
            "select count(*) from auth.users where email = 'race@example.com'").strip(), "1")

    def test_a_refresh_token_rotates_once_across_servers(self):
        first, second = self.serve(), self.serve()
        session = self.client(first).sign_up(
            {"email": "ada@example.com", "password": "Password123"}).session
        rotated = second.json("POST", "/token?grant_type=refresh_token",
                              {"refresh_token": session.refresh_token},
                              headers=second.anon_headers())
        self.assertEqual(rotated[0], 200, rotated)
        # Within the reuse interval the other server answers with the same successor.
        again = first.json("POST", "/token?grant_type=refresh_token",
                           {"refresh_token": session.refresh_token},
                           headers=first.anon_headers())
        self.assertEqual(again[0], 200, again)
        self.assertEqual(again[1]["refresh_token"], rotated[1]["refresh_token"])

    def test_an_emailed_code_is_single_use_across_servers(self):
        first, second = self.serve(), self.serve()
        first.json("POST", "/otp", {"email": "ada@example.com", "create_user": True},
                   headers=first.anon_headers())
        code = first.code_in(first.latest_message_to("ada@example.com"))

        def verify(server):
            return server.json("POST", "/verify",
                               {"type": "email", "email": "ada@example.com", "token": code},
                               headers=server.anon_headers())[0]

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            statuses = sorted(pool.map(verify, [first, second]))
        self.assertEqual(statuses, [200, 403])


    def test_a_reused_refresh_token_revokes_its_session_on_every_server(self):
        first = self.serve("--refresh-token-reuse-interval", "0")
        second = self.serve("--refresh-token-reuse-interval", "0")
        session = self.client(first).sign_up(
            {"email": "ada@example.com", "password": "Password123"}).session

        def refresh(server, token):
            return server.json("POST", "/token?grant_type=refresh_token",
                               {"refresh_token": token}, headers=server.anon_headers())

        status, rotated = refresh(first, session.refresh_token)
        self.assertEqual(status, 200, rotated)
        status, reused = refresh(second, session.refresh_token)
        self.assertEqual((status, reused.get("error_code")), (400, "refresh_token_already_used"))
        # GoTrue's reuse detection ends the whole session: its newest token is gone too.
        status, answer = refresh(first, rotated["refresh_token"])
        self.assertEqual(status, 400, answer)

    def test_a_pkce_code_is_exchanged_once_across_servers(self):
        first, second = self.serve(), self.serve()
        self.client(first).sign_up({"email": "ada@example.com", "password": "Password123"})
        verifier = "v" * 50
        challenge = base64.urlsafe_b64encode(
            hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
        status, _ = first.json(
            "POST", "/otp", {"email": "ada@example.com", "code_challenge": challenge,
                             "code_challenge_method": "s256"}, headers=first.anon_headers())
        self.assertEqual(status, 200)
        link = first.link_in(first.latest_message_to("ada@example.com"))
        status, headers, _ = first.request("GET", link[len(first.url):])
        self.assertEqual(status, 303)
        code = urllib.parse.parse_qs(urllib.parse.urlsplit(headers["Location"]).query)["code"][0]

        def exchange(server):
            return server.json("POST", "/token?grant_type=pkce",
                               {"auth_code": code, "code_verifier": verifier},
                               headers=server.anon_headers())[0]

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            statuses = sorted(pool.map(exchange, [first, second]))
        self.assertEqual(statuses, [200, 404])

    def test_a_server_killed_under_load_loses_no_acknowledged_signup(self):
        server = Server(*self.OPTIONS, store=self.url).start()
        self.addCleanup(server.stop)
        acknowledged = []

        def sign_up(index):
            try:
                status, _ = server.json(
                    "POST", "/signup", {"email": f"u{index}@example.com", "password": "Password123"},
                    headers=server.anon_headers(), timeout=5)
            except OSError:
                return
            if status == 200:
                acknowledged.append(f"u{index}@example.com")

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            futures = [pool.submit(sign_up, index) for index in range(200)]
            # Killed once some signups were answered, while others are on their way.
            for future in futures[:40]:
                future.result(timeout=30)
            server.kill()
        stored = set(self.sql("select email from auth.users").split())
        self.assertGreaterEqual(len(acknowledged), 40)
        self.assertEqual([email for email in acknowledged if email not in stored], [])
        # A new server on the database carries on.
        self.assertEqual(self.serve().json("GET", "/health")[0], 200)


class RestartTests(unittest.TestCase):
    """PostgreSQL restarting under a running server: 503 in GoTrue's shape meanwhile, then
    answers again by itself, never exits."""

    def test_a_restarted_database_is_503_meanwhile_and_served_again_after(self):
        postgres = pgserver.PostgresServer().start()
        self.addCleanup(postgres.stop)
        server = Server("--autoconfirm", store=postgres.database()).start()
        self.addCleanup(server.stop)
        body = {"email": "test@example.com", "password": "TestPassword123!"}
        status, _ = server.json("POST", "/token?grant_type=password", body,
                                headers=server.anon_headers())
        self.assertEqual(status, 200)
        postgres.pause()
        status, answer = server.json("POST", "/token?grant_type=password", body,
                                     headers=server.anon_headers())
        self.assertEqual((status, answer.get("error_code")), (503, "store_unavailable"), answer)
        self.assertTrue(server.alive())
        postgres.resume()
        status, _ = server.json("POST", "/token?grant_type=password", body,
                                headers=server.anon_headers())
        self.assertEqual(status, 200)


if __name__ == "__main__":
    unittest.main()

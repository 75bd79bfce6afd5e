import AccountStore
import PostgresTestSupport
import Testing

/// What apps on Supabase do with the `auth` schema works on the one authflow makes: seeding
/// users in SQL, foreign keys to `auth.users`, triggers on it, and policies on `auth.uid()`.
struct PostgresAppSchemaTests {
  static let ada = "6c8e2f3b-6d5f-4c1e-9a57-0000000000a1"
  static let bob = "6c8e2f3b-6d5f-4c1e-9a57-0000000000b2"

  /// Seed 004's way (supabase/seed.sql): pgcrypto's bcrypt, GoTrue's token columns as ''.
  static func seed(_ connection: PostgresConnection, id: String, email: String) throws {
    try connection.query(
      """
      insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
        email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
        confirmation_token, recovery_token, email_change_token_new, email_change)
      values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
        crypt('Test1234', gen_salt('bf')), now(), '{"provider":"email","providers":["email"]}',
        '{}', now(), now(), '', '', '', '')
      """, .text(id), .text(email))
    try connection.query(
      """
      insert into auth.identities (provider_id, user_id, identity_data, provider,
        last_sign_in_at, created_at, updated_at)
      values ($1, $2, jsonb_build_object('sub', $3::text, 'email', $4::text), 'email',
        now(), now(), now())
      """, .text(id), .text(id), .text(id), .text(email))
  }

  static func prepared() throws -> PostgresConnection {
    let connection = try connectToNewDatabase()
    try PostgresSchemaSetup.prepare(connection)
    try connection.execute("create extension pgcrypto")
    return connection
  }

  @Test func usersSeededTheWaySupabaseProjectsDoCanBeRead() throws {
    let connection = try Self.prepared()
    try Self.seed(connection, id: Self.ada, email: "ada@example.com")
    let user = try connection.texts(
      """
      select email, left(encrypted_password, 7),
        (encrypted_password = crypt('Test1234', encrypted_password))::text,
        (confirmed_at = email_confirmed_at)::text, is_sso_user::text, is_anonymous::text,
        phone_change, reauthentication_token, email_change_confirm_status::text
      from auth.users
      """)
    #expect(
      user == [["ada@example.com", "$2a$06$", "true", "true", "false", "false", "", "", "0"]])
    let identity = try connection.texts(
      "select provider, provider_id, email, (user_id::text = provider_id)::text"
        + " from auth.identities")
    #expect(identity == [["email", Self.ada, "ada@example.com", "true"]])
    let duplicate = storeError {
      try Self.seed(connection, id: Self.bob, email: "ada@example.com")
    }
    #expect(duplicate?.sqlState == "23505")
  }

  @Test func anAppsForeignKeysTriggersAndPoliciesWork() throws {
    let connection = try Self.prepared()
    try connection.execute(
      """
      create table public.profiles (
        id uuid primary key references auth.users (id) on delete cascade,
        email text
      );
      create table public.notes (
        id bigserial primary key,
        user_id uuid not null references auth.users (id) on delete cascade,
        body text not null
      );
      create function public.handle_new_user() returns trigger
        language plpgsql security definer set search_path = '' as $$
      begin
        insert into public.profiles (id, email) values (new.id, new.email);
        return new;
      end $$;
      create trigger on_auth_user_created after insert on auth.users
        for each row execute procedure public.handle_new_user();
      alter table public.notes enable row level security;
      create policy "own notes" on public.notes for select to authenticated
        using (auth.uid() = user_id);
      grant select on public.notes to authenticated, anon;
      """)
    try Self.seed(connection, id: Self.ada, email: "ada@example.com")
    try Self.seed(connection, id: Self.bob, email: "bob@example.com")
    #expect(
      try connection.column("select email from public.profiles order by email")
        == ["ada@example.com", "bob@example.com"])
    try connection.query(
      "insert into public.notes (user_id, body) values ($1, 'ada''s'), ($2, 'bob''s')",
      .text(Self.ada), .text(Self.bob))

    // As PostgREST runs a request of Ada's: her role, her claims, for this transaction only.
    let asAda = try connection.transaction(.readCommitted) { connection throws(AccountStoreError) in
      try connection.execute("set local role authenticated")
      try connection.query(
        "select set_config('request.jwt.claims', $1, true)",
        .text(#"{"sub":"\#(Self.ada)","role":"authenticated","email":"ada@example.com"}"#))
      return try connection.texts(
        "select body, auth.uid()::text, auth.role(), auth.email(), auth.jwt() ->> 'sub'"
          + " from public.notes")
    }
    #expect(asAda == [["ada's", Self.ada, "authenticated", "ada@example.com", Self.ada]])
    let asAnon = try connection.transaction(.readCommitted) {
      connection throws(AccountStoreError) in
      try connection.execute("set local role anon")
      try connection.query(
        "select set_config('request.jwt.claims', $1, true)", .text(#"{"role":"anon"}"#))
      return try connection.column("select body from public.notes")
    }
    #expect(asAnon == [])
    // Older PostgREST set one setting per claim.
    let legacy = try connection.transaction(.readCommitted) {
      connection throws(AccountStoreError) in
      try connection.query(
        "select set_config('request.jwt.claim.sub', $1, true)", .text(Self.bob))
      return try connection.column("select auth.uid()::text")
    }
    #expect(legacy == [Self.bob])

    try connection.query("delete from auth.users where id = $1", .text(Self.ada))
    #expect(try connection.column("select body from public.notes") == ["bob's"])
    #expect(try connection.column("select email from public.profiles") == ["bob@example.com"])
    #expect(try connection.column("select count(*) from auth.identities") == ["1"])
  }
}

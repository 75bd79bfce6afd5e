/// GoTrue's `auth` schema as GoTrue (supabase/auth) leaves a database after its migrations,
/// written as one script of authflow's own that makes the end state directly.
///
/// It holds every table, column (in GoTrue's order, with its type, default and comment),
/// constraint, index, enum type and SQL function of GoTrue at commit `gotrueCommit`, row
/// security where GoTrue enables it, and `auth.schema_migrations` with the version of each of
/// GoTrue's migrations at that commit. GoTrue's migrator (gobuffalo/pop) runs only the versions
/// missing from that table, so a later GoTrue pointed at the database runs just its newer
/// migrations, on the state they expect; none of what is made here is made again. Tests compare
/// the result with a catalog read from a database GoTrue itself migrated.
///
/// The script runs only on an empty schema (see `PostgresSchemaSetup`); it creates, it never
/// alters.
enum GoTrueAuthSchema {
  /// The supabase/auth commit whose migrations this schema matches.
  static let gotrueCommit = "bc32168e"

  /// The versions of GoTrue's migrations at `gotrueCommit`: each file name's leading number.
  static let versions = [
    "00", "20210710035447", "20210722035447", "20210730183235", "20210909172000",
    "20210927181326", "20211122151130", "20211124214934", "20211202183645", "20220114185221",
    "20220114185340", "20220224000811", "20220323170000", "20220429102000", "20220531120530",
    "20220614074223", "20220811173540", "20221003041349", "20221003041400", "20221011041400",
    "20221020193600", "20221021073300", "20221021082433", "20221027105023", "20221114143122",
    "20221114143410", "20221125140132", "20221208132122", "20221215195500", "20221215195800",
    "20221215195900", "20230116124310", "20230116124412", "20230131181311", "20230322519590",
    "20230402418590", "20230411005111", "20230508135423", "20230523124323", "20230818113222",
    "20230914180801", "20231027141322", "20231114161723", "20231117164230", "20240115144230",
    "20240214120130", "20240306115329", "20240314092811", "20240427152123", "20240612123726",
    "20240729123726", "20240802193726", "20240806073726", "20241009103726", "20250717082212",
    "20250731150234", "20250804100000", "20250901200500", "20250903112500", "20250904133000",
    "20250925093508", "20251007112900", "20251104100000", "20251111201300", "20251201000000",
    "20260115000000", "20260121000000", "20260219120000", "20260302000000", "20260625000000",
  ]

  /// The whole script, in an order in which every reference finds its table.
  static var creation: String {
    [
      "create schema if not exists auth;",
      types, functions, accounts, sessions, factors, flows, providers, oauthServer, passkeys,
      rowSecurity, apiRoles, migrationRows,
    ].joined(separator: "\n")
  }

  /// GoTrue's enum types, with their values in GoTrue's order.
  static let types = """
    create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
    create type auth.code_challenge_method as enum ('s256', 'plain');
    create type auth.factor_status as enum ('unverified', 'verified');
    create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
    create type auth.oauth_authorization_status as enum ('pending', 'approved', 'denied', 'expired');
    create type auth.oauth_client_type as enum ('public', 'confidential');
    create type auth.oauth_registration_type as enum ('dynamic', 'manual');
    create type auth.oauth_response_type as enum ('code');
    create type auth.one_time_token_type as enum (
      'confirmation_token', 'reauthentication_token', 'recovery_token', 'email_change_token_new',
      'email_change_token_current', 'phone_change_token');
    """

  /// The helpers apps' policies call: the claims PostgREST sets for each request, read from
  /// `request.jwt.claim.<name>` (older PostgREST) or the JSON of `request.jwt.claims`.
  static let functions = """
    create function auth.uid() returns uuid language sql stable as $$
      select
      coalesce(
        nullif(current_setting('request.jwt.claim.sub', true), ''),
        (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
      )::uuid
    $$;
    create function auth.role() returns text language sql stable as $$
      select
      coalesce(
        nullif(current_setting('request.jwt.claim.role', true), ''),
        (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
      )::text
    $$;
    create function auth.email() returns text language sql stable as $$
      select
      coalesce(
        nullif(current_setting('request.jwt.claim.email', true), ''),
        (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
      )::text
    $$;
    create function auth.jwt() returns jsonb language sql stable as $$
      select
        coalesce(
            nullif(current_setting('request.jwt.claim', true), ''),
            nullif(current_setting('request.jwt.claims', true), '')
        )::jsonb
    $$;
    comment on function auth.uid() is 'Deprecated. Use auth.jwt() -> ''sub'' instead.';
    comment on function auth.role() is 'Deprecated. Use auth.jwt() -> ''role'' instead.';
    comment on function auth.email() is 'Deprecated. Use auth.jwt() -> ''email'' instead.';
    """

  /// One row in `auth.schema_migrations` for each of GoTrue's migrations.
  static var migrationRows: String {
    "insert into auth.schema_migrations (version) values "
      + versions.map { "('\($0)')" }.joined(separator: ", ") + ";"
  }
}

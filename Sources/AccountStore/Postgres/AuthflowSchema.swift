/// What authflow keeps beyond GoTrue's columns (the Firebase surface's fields, keyed hashes of
/// emailed codes, rate-limit buckets, its own secrets), in a schema of its own so that GoTrue's
/// `auth` stays exactly GoTrue's. Each table refers to GoTrue's rows with GoTrue's keys, so
/// deleting a user or a session there removes what authflow kept for it.
enum AuthflowSchema {
  /// The version this authflow makes and reads.
  static let version = 1

  /// The body of `authflow.ms(timestamptz)`. The interval since the epoch, not `extract(epoch
  /// from $1)`: extracting from a timestamptz is only stable, which kept PostgreSQL from
  /// inlining the function (declared immutable) into the queries that call it, so each of a
  /// user's dozen times ran as a call of its own (a fifth of PostgreSQL's time on a refresh).
  static let millisecondsBody =
    " select (extract(epoch from ($1 - timestamptz '1970-01-01 00:00:00+00')) * 1000)::bigint "

  /// Brings the functions of a database made by an earlier authflow to this one's definitions,
  /// which answer the same: run at every start, it changes nothing once they match (a change
  /// of a function makes every server on the database plan its statements again).
  static let functionUpdates: [(signature: String, body: String, definition: String)] = [
    (
      "authflow.ms(timestamptz)", millisecondsBody,
      "create or replace function authflow.ms(timestamptz) returns bigint language sql "
        + "immutable as $$\(millisecondsBody)$$"
    )
  ]

  /// Made once; later versions add to it in steps.
  static let creation = """
    create schema if not exists authflow;
    create table authflow.meta (
      key text primary key,
      value bytea not null
    );
    comment on table authflow.meta is 'authflow: settings and secrets of the server, by name';
    create table authflow.schema_version (
      version integer primary key,
      applied_at timestamptz not null default now()
    );
    comment on table authflow.schema_version is 'authflow: the versions of this schema applied';
    insert into authflow.schema_version (version) values (\(version)) on conflict do nothing;

    -- Times as authflow counts them: Unix milliseconds.
    create function authflow.ms(timestamptz) returns bigint language sql immutable
      as $$\(millisecondsBody)$$;
    create function authflow.ts(bigint) returns timestamptz language sql immutable
      as $$ select to_timestamp($1 / 1000.0) $$;
    -- An id as GoTrue keys its rows (a UUID), or NULL for text that is none.
    create function authflow.key(text) returns uuid language plpgsql immutable as $$
      begin
        return $1::uuid;
      exception when invalid_text_representation then
        return null;
      end $$;
    -- An address as GoTrue's inet columns hold one, or 0.0.0.0 for text that is none.
    create function authflow.inet_or_none(text) returns inet language plpgsql immutable as $$
      begin
        return $1::inet;
      exception when invalid_text_representation then
        return '0.0.0.0'::inet;
      end $$;

    create table authflow.user_extras (
      user_id uuid primary key references auth.users (id) on delete cascade,
      firebase_uid text unique,
      display_name text,
      photo_url text,
      valid_since bigint,
      password_updated_at bigint,
      initial_email text,
      custom_claims text,
      email_link_signin boolean not null default false,
      custom_auth boolean not null default false
    );
    comment on table authflow.user_extras is 'authflow: the Firebase surface''s fields of a user';
    comment on column authflow.user_extras.firebase_uid is
      'The Firebase surface''s id of a user made there with an id that is no UUID (a custom '
      'token''s uid, an admin''s choice); GoTrue''s id is then md5(firebase_uid)::uuid';

    -- A user's id as the rules name it (a UUID, or a Firebase uid) as GoTrue keys it, or NULL.
    create function authflow.user_key(text) returns uuid language sql stable as $$
      select coalesce(authflow.key($1),
        (select user_id from authflow.user_extras where firebase_uid = $1))
    $$;
    -- GoTrue's key of a user as the rules name the user.
    create function authflow.user_name(uuid) returns text language sql stable as $$
      select coalesce((select firebase_uid from authflow.user_extras where user_id = $1),
        $1::text)
    $$;

    create table authflow.session_extras (
      session_id uuid primary key references auth.sessions (id) on delete cascade,
      amr_method text not null,
      firebase_provider text,
      firebase_claims text
    );
    comment on table authflow.session_extras is
      'authflow: how a session began, and the Firebase surface''s fields of it';

    create table authflow.codes (
      id bigserial primary key,
      user_id uuid not null references auth.users (id) on delete cascade,
      kind text not null,
      token_hash bytea not null,
      link_hash bytea,
      created_at bigint not null,
      expires_at bigint not null,
      used_at bigint
    );
    create index codes_by_user on authflow.codes (user_id, kind);
    create index codes_by_link on authflow.codes (link_hash);
    comment on table authflow.codes is
      'authflow: emailed codes and links, as keyed hashes (spent ones kept until they expire)';

    create table authflow.factor_extras (
      factor_id uuid primary key references auth.mfa_factors (id) on delete cascade,
      last_used_step bigint
    );
    comment on table authflow.factor_extras is
      'authflow: the time step of the last TOTP code a factor accepted';

    create table authflow.challenge_extras (
      challenge_id uuid primary key references auth.mfa_challenges (id) on delete cascade,
      ip_address text not null,
      failed_attempts integer not null default 0
    );
    comment on table authflow.challenge_extras is
      'authflow: who asked for a challenge, and the wrong codes tried against it';

    create table authflow.rate_limits (
      bucket text primary key,
      tokens double precision not null,
      updated_at bigint not null
    );
    comment on table authflow.rate_limits is
      'authflow: per-account budgets (code checks, emails), shared by every server';

    create table authflow.email_sends (
      address_hash bytea primary key,
      last_sent_at bigint not null
    );
    comment on table authflow.email_sends is
      'authflow: the last email to each address, by keyed hash';

    create table authflow.oob_codes (
      id bigserial primary key,
      code_hash bytea not null unique,
      request_type text not null,
      email text not null,
      new_email text,
      user_id uuid references auth.users (id) on delete cascade,
      continue_url text,
      created_at bigint not null,
      expires_at bigint not null,
      used_at bigint
    );
    comment on table authflow.oob_codes is
      'authflow: the Firebase surface''s emailed codes, as keyed hashes';

    create table authflow.mfa_pending_sign_ins (
      credential_hash bytea primary key,
      user_id uuid not null references auth.users (id) on delete cascade,
      provider text not null,
      created_at bigint not null,
      failed_attempts integer not null default 0
    );
    comment on table authflow.mfa_pending_sign_ins is
      'authflow: Firebase sign-ins waiting for their second factor';
    """

  /// The key of `authflow.meta` that says authflow made the `auth` schema, and from which
  /// GoTrue it took its shape.
  static let authMadeByKey = "auth.made_by"
}

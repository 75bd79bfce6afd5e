extension GoTrueAuthSchema {
  /// Users, their identities, instances, the audit log and the migrations table.
  static let accounts = """
    create table auth.users (
      instance_id uuid null,
      id uuid not null,
      aud varchar(255) null,
      "role" varchar(255) null,
      email varchar(255) null,
      encrypted_password varchar(255) null,
      email_confirmed_at timestamptz null,
      invited_at timestamptz null,
      confirmation_token varchar(255) null,
      confirmation_sent_at timestamptz null,
      recovery_token varchar(255) null,
      recovery_sent_at timestamptz null,
      email_change_token_new varchar(255) null,
      email_change varchar(255) null,
      email_change_sent_at timestamptz null,
      last_sign_in_at timestamptz null,
      raw_app_meta_data jsonb null,
      raw_user_meta_data jsonb null,
      is_super_admin bool null,
      created_at timestamptz null,
      updated_at timestamptz null,
      phone text null default null::varchar,
      phone_confirmed_at timestamptz null,
      phone_change text null default ''::varchar,
      phone_change_token varchar(255) null default '',
      phone_change_sent_at timestamptz null,
      confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at))
        stored,
      email_change_token_current varchar(255) null default '',
      email_change_confirm_status smallint default 0,
      banned_until timestamptz null,
      reauthentication_token varchar(255) null default '',
      reauthentication_sent_at timestamptz null,
      is_sso_user boolean not null default false,
      deleted_at timestamptz null,
      is_anonymous boolean not null default false,
      constraint users_pkey primary key (id),
      constraint users_phone_key unique (phone),
      constraint users_email_change_confirm_status_check
        check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2)
    );
    create index users_instance_id_email_idx on auth.users (instance_id, lower(email));
    create index users_instance_id_idx on auth.users (instance_id);
    create index users_is_anonymous_idx on auth.users (is_anonymous);
    create unique index users_email_partial_key on auth.users (email) where is_sso_user = false;
    create unique index confirmation_token_idx on auth.users (confirmation_token)
      where confirmation_token !~ '^[0-9 ]*$';
    create unique index recovery_token_idx on auth.users (recovery_token)
      where recovery_token !~ '^[0-9 ]*$';
    create unique index email_change_token_current_idx on auth.users (email_change_token_current)
      where email_change_token_current !~ '^[0-9 ]*$';
    create unique index email_change_token_new_idx on auth.users (email_change_token_new)
      where email_change_token_new !~ '^[0-9 ]*$';
    create unique index reauthentication_token_idx on auth.users (reauthentication_token)
      where reauthentication_token !~ '^[0-9 ]*$';
    comment on table auth.users is 'Auth: Stores user login data within a secure schema.';
    comment on column auth.users.is_sso_user is 'Auth: Set this column to true when the account \
    comes from SSO. These accounts can have duplicate emails.';
    comment on index auth.users_email_partial_key is 'Auth: A partial unique index that applies \
    only when is_sso_user is false';

    create table auth.identities (
      provider_id text not null,
      user_id uuid not null,
      identity_data jsonb not null,
      provider text not null,
      last_sign_in_at timestamptz null,
      created_at timestamptz null,
      updated_at timestamptz null,
      email text generated always as (lower(identity_data ->> 'email')) stored,
      id uuid not null default gen_random_uuid(),
      constraint identities_pkey primary key (id),
      constraint identities_provider_id_provider_unique unique (provider_id, provider),
      constraint identities_user_id_fkey foreign key (user_id)
        references auth.users (id) on delete cascade
    );
    create index identities_user_id_idx on auth.identities (user_id);
    create index identities_email_idx on auth.identities (email text_pattern_ops);
    comment on table auth.identities is 'Auth: Stores identities associated to a user.';
    comment on column auth.identities.email is 'Auth: Email is a generated column that references \
    the optional email property in the identity_data';
    comment on index auth.identities_email_idx is 'Auth: Ensures indexed queries on the email \
    column';

    create table auth.instances (
      id uuid not null,
      uuid uuid null,
      raw_base_config text null,
      created_at timestamptz null,
      updated_at timestamptz null,
      constraint instances_pkey primary key (id)
    );
    comment on table auth.instances is 'Auth: Manages users across multiple sites.';

    create table auth.audit_log_entries (
      instance_id uuid null,
      id uuid not null,
      payload json null,
      created_at timestamptz null,
      ip_address varchar(64) not null default '',
      constraint audit_log_entries_pkey primary key (id)
    );
    create index audit_logs_instance_id_idx on auth.audit_log_entries (instance_id);
    comment on table auth.audit_log_entries is 'Auth: Audit trail for user actions.';

    create table auth.schema_migrations (
      "version" varchar(255) not null,
      constraint schema_migrations_pkey primary key ("version")
    );
    comment on table auth.schema_migrations is 'Auth: Manages updates to the auth system.';
    """

  /// Sessions, the refresh tokens of each, and the single-use tokens of users.
  static let sessions = """
    create table auth.oauth_clients (
      id uuid not null,
      client_secret_hash text null,
      registration_type auth.oauth_registration_type not null,
      redirect_uris text not null,
      grant_types text not null,
      client_name text null,
      client_uri text null,
      logo_uri text null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz null,
      client_type auth.oauth_client_type not null default 'confidential',
      token_endpoint_auth_method text not null constraint
        oauth_clients_token_endpoint_auth_method_check
        check (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post', 'none')),
      constraint oauth_clients_pkey primary key (id),
      constraint oauth_clients_client_name_length check (char_length(client_name) <= 1024),
      constraint oauth_clients_client_uri_length check (char_length(client_uri) <= 2048),
      constraint oauth_clients_logo_uri_length check (char_length(logo_uri) <= 2048)
    );
    create index oauth_clients_deleted_at_idx on auth.oauth_clients (deleted_at);

    create table auth.sessions (
      id uuid not null,
      user_id uuid not null,
      created_at timestamptz null,
      updated_at timestamptz null,
      factor_id uuid null,
      aal auth.aal_level null,
      not_after timestamptz,
      refreshed_at timestamp without time zone,
      user_agent text,
      ip inet,
      tag text,
      oauth_client_id uuid,
      refresh_token_hmac_key text,
      refresh_token_counter bigint,
      scopes text null,
      constraint sessions_pkey primary key (id),
      constraint sessions_user_id_fkey foreign key (user_id)
        references auth.users (id) on delete cascade,
      constraint sessions_oauth_client_id_fkey foreign key (oauth_client_id)
        references auth.oauth_clients (id) on delete cascade,
      constraint sessions_scopes_length check (char_length(scopes) <= 4096)
    );
    create index user_id_created_at_idx on auth.sessions (user_id, created_at);
    create index sessions_user_id_idx on auth.sessions (user_id);
    create index sessions_not_after_idx on auth.sessions (not_after desc);
    create index sessions_oauth_client_id_idx on auth.sessions (oauth_client_id);
    comment on table auth.sessions is 'Auth: Stores session data associated to a user.';
    comment on column auth.sessions.not_after is 'Auth: Not after is a nullable column that \
    contains a timestamp after which the session should be regarded as expired.';
    comment on column auth.sessions.refresh_token_hmac_key is 'Holds a HMAC-SHA256 key used to \
    sign refresh tokens for this session.';
    comment on column auth.sessions.refresh_token_counter is 'Holds the ID (counter) of the last \
    issued refresh token.';

    create table auth.refresh_tokens (
      instance_id uuid null,
      id bigserial not null,
      "token" varchar(255) null,
      user_id varchar(255) null,
      revoked bool null,
      created_at timestamptz null,
      updated_at timestamptz null,
      parent varchar(255) null,
      session_id uuid null,
      constraint refresh_tokens_pkey primary key (id),
      constraint refresh_tokens_token_unique unique ("token"),
      constraint refresh_tokens_session_id_fkey foreign key (session_id)
        references auth.sessions (id) on delete cascade
    );
    create index refresh_tokens_instance_id_idx on auth.refresh_tokens (instance_id);
    create index refresh_tokens_instance_id_user_id_idx on auth.refresh_tokens (instance_id, user_id);
    create index refresh_tokens_parent_idx on auth.refresh_tokens (parent);
    create index refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
    create index refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);
    comment on table auth.refresh_tokens is 'Auth: Store of tokens used to refresh JWT tokens once \
    they expire.';

    create table auth.one_time_tokens (
      id uuid primary key,
      user_id uuid not null references auth.users on delete cascade,
      token_type auth.one_time_token_type not null,
      token_hash text not null,
      relates_to text not null,
      created_at timestamp without time zone not null default now(),
      updated_at timestamp without time zone not null default now(),
      check (char_length(token_hash) > 0)
    );
    create index one_time_tokens_token_hash_hash_idx on auth.one_time_tokens using hash (token_hash);
    create index one_time_tokens_relates_to_hash_idx on auth.one_time_tokens using hash (relates_to);
    create unique index one_time_tokens_user_id_token_type_key
      on auth.one_time_tokens (user_id, token_type);
    """
}

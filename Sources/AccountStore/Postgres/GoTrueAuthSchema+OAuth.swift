extension GoTrueAuthSchema {
  /// GoTrue as an OAuth 2.1 server (authorizations, consents; its clients are made with the
  /// sessions that refer to them) and as a client of custom OAuth and OIDC providers.
  static let oauthServer = """
    create table auth.oauth_authorizations (
      id uuid not null,
      authorization_id text not null,
      client_id uuid not null references auth.oauth_clients (id) on delete cascade,
      user_id uuid null references auth.users (id) on delete cascade,
      redirect_uri text not null,
      scope text not null,
      state text null,
      resource text null,
      code_challenge text null,
      code_challenge_method auth.code_challenge_method null,
      response_type auth.oauth_response_type not null default 'code',
      status auth.oauth_authorization_status not null default 'pending',
      authorization_code text null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null default (now() + interval '3 minutes'),
      approved_at timestamptz null,
      nonce text null,
      constraint oauth_authorizations_pkey primary key (id),
      constraint oauth_authorizations_authorization_id_key unique (authorization_id),
      constraint oauth_authorizations_authorization_code_key unique (authorization_code),
      constraint oauth_authorizations_redirect_uri_length check (char_length(redirect_uri) <= 2048),
      constraint oauth_authorizations_scope_length check (char_length(scope) <= 4096),
      constraint oauth_authorizations_state_length check (char_length(state) <= 4096),
      constraint oauth_authorizations_resource_length check (char_length(resource) <= 2048),
      constraint oauth_authorizations_code_challenge_length
        check (char_length(code_challenge) <= 128),
      constraint oauth_authorizations_authorization_code_length
        check (char_length(authorization_code) <= 255),
      constraint oauth_authorizations_expires_at_future check (expires_at > created_at),
      constraint oauth_authorizations_nonce_length check (char_length(nonce) <= 255)
    );
    create index oauth_auth_pending_exp_idx on auth.oauth_authorizations (expires_at)
      where status = 'pending';

    create table auth.oauth_consents (
      id uuid not null,
      user_id uuid not null references auth.users (id) on delete cascade,
      client_id uuid not null references auth.oauth_clients (id) on delete cascade,
      scopes text not null,
      granted_at timestamptz not null default now(),
      revoked_at timestamptz null,
      constraint oauth_consents_pkey primary key (id),
      constraint oauth_consents_user_client_unique unique (user_id, client_id),
      constraint oauth_consents_scopes_length check (char_length(scopes) <= 2048),
      constraint oauth_consents_scopes_not_empty check (char_length(trim(scopes)) > 0),
      constraint oauth_consents_revoked_after_granted
        check (revoked_at is null or revoked_at >= granted_at)
    );
    create index oauth_consents_active_user_client_idx on auth.oauth_consents (user_id, client_id)
      where revoked_at is null;
    create index oauth_consents_user_order_idx on auth.oauth_consents (user_id, granted_at desc);
    create index oauth_consents_active_client_idx on auth.oauth_consents (client_id)
      where revoked_at is null;

    create table auth.oauth_client_states (
      id uuid primary key,
      provider_type text not null,
      code_verifier text,
      created_at timestamptz not null
    );
    create index idx_oauth_client_states_created_at on auth.oauth_client_states (created_at);
    comment on table auth.oauth_client_states is 'Stores OAuth states for third-party provider \
    authentication flows where Supabase acts as the OAuth client.';

    create table auth.custom_oauth_providers (
      id uuid not null default gen_random_uuid(),
      provider_type text not null check (provider_type in ('oauth2', 'oidc')),
      identifier text not null,
      name text not null,
      client_id text not null,
      client_secret text not null,
      acceptable_client_ids text[] not null default '{}',
      scopes text[] not null default '{}',
      pkce_enabled boolean not null default true,
      attribute_mapping jsonb not null default '{}',
      authorization_params jsonb not null default '{}',
      enabled boolean not null default true,
      email_optional boolean not null default false,
      issuer text null,
      discovery_url text null,
      skip_nonce_check boolean not null default false,
      cached_discovery jsonb null,
      discovery_cached_at timestamptz null,
      authorization_url text null,
      token_url text null,
      userinfo_url text null,
      jwks_uri text null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      custom_claims_allowlist text[] not null default '{}',
      constraint custom_oauth_providers_pkey primary key (id),
      constraint custom_oauth_providers_identifier_key unique (identifier),
      constraint custom_oauth_providers_oidc_requires_issuer
        check (provider_type != 'oidc' or issuer is not null),
      constraint custom_oauth_providers_oidc_issuer_https
        check (provider_type != 'oidc' or issuer is null or issuer like 'https://%'),
      constraint custom_oauth_providers_oidc_discovery_url_https
        check (provider_type != 'oidc' or discovery_url is null or discovery_url like 'https://%'),
      constraint custom_oauth_providers_oauth2_requires_endpoints check (
        provider_type != 'oauth2'
        or (authorization_url is not null and token_url is not null and userinfo_url is not null)),
      constraint custom_oauth_providers_authorization_url_https
        check (authorization_url is null or authorization_url like 'https://%'),
      constraint custom_oauth_providers_token_url_https
        check (token_url is null or token_url like 'https://%'),
      constraint custom_oauth_providers_userinfo_url_https
        check (userinfo_url is null or userinfo_url like 'https://%'),
      constraint custom_oauth_providers_jwks_uri_https
        check (jwks_uri is null or jwks_uri like 'https://%'),
      constraint custom_oauth_providers_identifier_format
        check (identifier ~ '^[a-z0-9][a-z0-9:-]{0,48}[a-z0-9]$'),
      constraint custom_oauth_providers_name_length
        check (char_length(name) >= 1 and char_length(name) <= 100),
      constraint custom_oauth_providers_issuer_length
        check (issuer is null or (char_length(issuer) >= 1 and char_length(issuer) <= 2048)),
      constraint custom_oauth_providers_discovery_url_length
        check (discovery_url is null or char_length(discovery_url) <= 2048),
      constraint custom_oauth_providers_authorization_url_length
        check (authorization_url is null or char_length(authorization_url) <= 2048),
      constraint custom_oauth_providers_token_url_length
        check (token_url is null or char_length(token_url) <= 2048),
      constraint custom_oauth_providers_userinfo_url_length
        check (userinfo_url is null or char_length(userinfo_url) <= 2048),
      constraint custom_oauth_providers_jwks_uri_length
        check (jwks_uri is null or char_length(jwks_uri) <= 2048),
      constraint custom_oauth_providers_client_id_length
        check (char_length(client_id) >= 1 and char_length(client_id) <= 512)
    );
    create index custom_oauth_providers_identifier_idx on auth.custom_oauth_providers (identifier);
    create index custom_oauth_providers_provider_type_idx
      on auth.custom_oauth_providers (provider_type);
    create index custom_oauth_providers_enabled_idx on auth.custom_oauth_providers (enabled);
    create index custom_oauth_providers_created_at_idx on auth.custom_oauth_providers (created_at);
    """
}

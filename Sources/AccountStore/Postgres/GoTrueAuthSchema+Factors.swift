extension GoTrueAuthSchema {
  /// Second factors (TOTP, phone, WebAuthn), their challenges and a session's AMR claims.
  static let factors = """
    create table auth.mfa_factors (
      id uuid not null,
      user_id uuid not null,
      friendly_name text null,
      factor_type auth.factor_type not null,
      status auth.factor_status not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      secret text null,
      phone text null,
      last_challenged_at timestamptz null,
      web_authn_credential jsonb null,
      web_authn_aaguid uuid null,
      last_webauthn_challenge_data jsonb,
      constraint mfa_factors_pkey primary key (id),
      constraint mfa_factors_user_id_fkey foreign key (user_id)
        references auth.users (id) on delete cascade,
      constraint mfa_factors_last_challenged_at_key unique (last_challenged_at)
    );
    create unique index mfa_factors_user_friendly_name_unique on auth.mfa_factors
      (friendly_name, user_id) where trim(friendly_name) <> '';
    create index factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);
    create index mfa_factors_user_id_idx on auth.mfa_factors (user_id);
    create unique index unique_phone_factor_per_user on auth.mfa_factors (user_id, phone);
    comment on table auth.mfa_factors is 'auth: stores metadata about factors';
    comment on column auth.mfa_factors.last_webauthn_challenge_data is 'Stores the latest \
    WebAuthn challenge data including attestation/assertion for customer verification';

    create table auth.mfa_challenges (
      id uuid not null,
      factor_id uuid not null,
      created_at timestamptz not null,
      verified_at timestamptz null,
      ip_address inet not null,
      otp_code text null,
      web_authn_session_data jsonb null,
      constraint mfa_challenges_pkey primary key (id),
      constraint mfa_challenges_auth_factor_id_fkey foreign key (factor_id)
        references auth.mfa_factors (id) on delete cascade
    );
    create index mfa_challenge_created_at_idx on auth.mfa_challenges (created_at desc);
    comment on table auth.mfa_challenges is 'auth: stores metadata about challenge requests made';

    create table auth.mfa_amr_claims (
      session_id uuid not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      authentication_method text not null,
      id uuid not null,
      constraint mfa_amr_claims_session_id_authentication_method_pkey
        unique (session_id, authentication_method),
      constraint mfa_amr_claims_session_id_fkey foreign key (session_id)
        references auth.sessions (id) on delete cascade,
      constraint amr_id_pk primary key (id)
    );
    comment on table auth.mfa_amr_claims is 'auth: stores authenticator method reference claims \
    for multi factor authentication';
    """

  /// Passkeys: WebAuthn credentials and the challenges of their ceremonies.
  static let passkeys = """
    create table auth.webauthn_credentials (
      id uuid not null default gen_random_uuid(),
      user_id uuid not null references auth.users (id) on delete cascade,
      credential_id bytea not null,
      public_key bytea not null,
      attestation_type text not null default '',
      aaguid uuid,
      sign_count bigint not null default 0,
      transports jsonb not null default '[]'::jsonb,
      backup_eligible boolean not null default false,
      backed_up boolean not null default false,
      friendly_name text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_used_at timestamptz,
      constraint webauthn_credentials_pkey primary key (id)
    );
    create unique index webauthn_credentials_credential_id_key
      on auth.webauthn_credentials (credential_id);
    create index webauthn_credentials_user_id_idx on auth.webauthn_credentials (user_id);

    create table auth.webauthn_challenges (
      id uuid not null default gen_random_uuid(),
      user_id uuid references auth.users (id) on delete cascade,
      challenge_type text not null
        check (challenge_type in ('signup', 'registration', 'authentication')),
      session_data jsonb not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      constraint webauthn_challenges_pkey primary key (id)
    );
    create index webauthn_challenges_user_id_idx on auth.webauthn_challenges (user_id);
    create index webauthn_challenges_expires_at_idx on auth.webauthn_challenges (expires_at);
    """
}

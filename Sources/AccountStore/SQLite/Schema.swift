/// The store's schema, versioned with `PRAGMA user_version`; each migration moves one version up.
enum Schema {
  static let migrations: [String] = [
    // Version 1: GoTrue's auth.users, one_time_tokens, sessions and refresh_tokens, reduced to
    // what email and password need, plus the engine's own rate-limit state. Times are Unix
    // milliseconds; codes and refresh tokens are stored only as hashes.
    """
    CREATE TABLE meta (
      key TEXT PRIMARY KEY,
      value BLOB NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE users (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL UNIQUE,
      encrypted_password TEXT NOT NULL,
      email_confirmed_at INTEGER,
      confirmation_sent_at INTEGER,
      recovery_sent_at INTEGER,
      last_sign_in_at INTEGER,
      user_metadata TEXT NOT NULL DEFAULT '{}',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE one_time_tokens (
      id INTEGER PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('confirmation', 'recovery')),
      token_hash BLOB NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    );
    CREATE INDEX one_time_tokens_by_user ON one_time_tokens(user_id, kind);
    CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      refreshed_at INTEGER NOT NULL
    );
    CREATE INDEX sessions_by_user ON sessions(user_id);
    CREATE TABLE refresh_tokens (
      id INTEGER PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      token_hash BLOB NOT NULL UNIQUE,
      parent_id INTEGER,
      revoked INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX refresh_tokens_by_session ON refresh_tokens(session_id);
    CREATE TABLE rate_limits (
      bucket TEXT PRIMARY KEY,
      tokens REAL NOT NULL,
      updated_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE email_sends (
      address_hash BLOB PRIMARY KEY,
      last_sent_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    """,
    // Version 2: when a refresh token was rotated, for GoTrue's reuse interval.
    """
    ALTER TABLE refresh_tokens ADD COLUMN revoked_at INTEGER;
    """,
    // Version 3: what a GoTrue server keeps beyond an email and a password: roles, app
    // metadata, the email identity, email changes, bans, soft deletes, how a session began;
    // and codes of every emailed kind, each findable by the hash its link carries (kept only
    // as a keyed hash of that hash, since the link is as good as the code).
    """
    ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'authenticated';
    ALTER TABLE users ADD COLUMN app_metadata TEXT NOT NULL
      DEFAULT '{"provider":"email","providers":["email"]}';
    ALTER TABLE users ADD COLUMN identity_id TEXT;
    ALTER TABLE users ADD COLUMN identity_data TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE users ADD COLUMN new_email TEXT;
    ALTER TABLE users ADD COLUMN email_change_sent_at INTEGER;
    ALTER TABLE users ADD COLUMN email_change_confirmed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN banned_until INTEGER;
    ALTER TABLE users ADD COLUMN deleted_at INTEGER;
    ALTER TABLE sessions ADD COLUMN amr_method TEXT NOT NULL DEFAULT 'password';
    CREATE TABLE codes (
      id INTEGER PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN
        ('confirmation', 'recovery', 'magiclink', 'email_change_current', 'email_change_new')),
      token_hash BLOB NOT NULL,
      link_hash BLOB,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    );
    INSERT INTO codes (id, user_id, kind, token_hash, created_at, expires_at, used_at)
      SELECT id, user_id, kind, token_hash, created_at, expires_at, used_at FROM one_time_tokens;
    DROP TABLE one_time_tokens;
    ALTER TABLE codes RENAME TO one_time_tokens;
    CREATE INDEX one_time_tokens_by_user ON one_time_tokens(user_id, kind);
    CREATE INDEX one_time_tokens_by_link ON one_time_tokens(link_hash);
    CREATE INDEX users_by_created ON users(created_at);
    """,
    // Version 4: what the Firebase Auth emulator's surface keeps beyond GoTrue's: a display
    // name and photo, the time before which tokens are refused (`validSince`, revoking them),
    // and when the password last changed. Disabled accounts are banned until year 9999.
    """
    ALTER TABLE users ADD COLUMN display_name TEXT;
    ALTER TABLE users ADD COLUMN photo_url TEXT;
    ALTER TABLE users ADD COLUMN valid_since INTEGER;
    ALTER TABLE users ADD COLUMN password_updated_at INTEGER;
    """,
    // Version 5: what GoTrue keeps for PKCE, anonymous users, invitations, reauthentication and
    // TOTP multi-factor authentication. `users` is rebuilt so that an anonymous user can have no
    // email (NULL, which UNIQUE allows any number of), and `one_time_tokens` so that its kinds
    // take reauthentication and invitation codes. Flow states keep only a keyed hash of their
    // auth code, and factors their TOTP secret sealed under a key of the store's. A session
    // gets its assurance level, the factor that raised it, and the methods it was proved with.
    // (The migrator turns foreign keys off around this version's rebuilds, as SQLite's
    // procedure for changing a table asks.)
    """
    CREATE TABLE users_v5 (
      id TEXT PRIMARY KEY,
      email TEXT UNIQUE,
      encrypted_password TEXT NOT NULL,
      email_confirmed_at INTEGER,
      confirmation_sent_at INTEGER,
      recovery_sent_at INTEGER,
      last_sign_in_at INTEGER,
      user_metadata TEXT NOT NULL DEFAULT '{}',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      role TEXT NOT NULL DEFAULT 'authenticated',
      app_metadata TEXT NOT NULL DEFAULT '{"provider":"email","providers":["email"]}',
      identity_id TEXT,
      identity_data TEXT NOT NULL DEFAULT '{}',
      new_email TEXT,
      email_change_sent_at INTEGER,
      email_change_confirmed INTEGER NOT NULL DEFAULT 0,
      banned_until INTEGER,
      deleted_at INTEGER,
      display_name TEXT,
      photo_url TEXT,
      valid_since INTEGER,
      password_updated_at INTEGER,
      is_anonymous INTEGER NOT NULL DEFAULT 0,
      invited_at INTEGER,
      reauthentication_sent_at INTEGER
    );
    INSERT INTO users_v5 (id, email, encrypted_password, email_confirmed_at,
      confirmation_sent_at, recovery_sent_at, last_sign_in_at, user_metadata, created_at,
      updated_at, role, app_metadata, identity_id, identity_data, new_email,
      email_change_sent_at, email_change_confirmed, banned_until, deleted_at, display_name,
      photo_url, valid_since, password_updated_at)
    SELECT id, email, encrypted_password, email_confirmed_at, confirmation_sent_at,
      recovery_sent_at, last_sign_in_at, user_metadata, created_at, updated_at, role,
      app_metadata, identity_id, identity_data, new_email, email_change_sent_at,
      email_change_confirmed, banned_until, deleted_at, display_name, photo_url, valid_since,
      password_updated_at
    FROM users;
    DROP TABLE users;
    ALTER TABLE users_v5 RENAME TO users;
    CREATE INDEX users_by_created ON users(created_at);
    CREATE TABLE one_time_tokens_v5 (
      id INTEGER PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN
        ('confirmation', 'recovery', 'magiclink', 'email_change_current', 'email_change_new',
         'invite', 'reauthentication')),
      token_hash BLOB NOT NULL,
      link_hash BLOB,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    );
    INSERT INTO one_time_tokens_v5 SELECT id, user_id, kind, token_hash, link_hash, created_at,
      expires_at, used_at FROM one_time_tokens;
    DROP TABLE one_time_tokens;
    ALTER TABLE one_time_tokens_v5 RENAME TO one_time_tokens;
    CREATE INDEX one_time_tokens_by_user ON one_time_tokens(user_id, kind);
    CREATE INDEX one_time_tokens_by_link ON one_time_tokens(link_hash);
    CREATE TABLE flow_states (
      id TEXT PRIMARY KEY,
      user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
      auth_code_hash BLOB UNIQUE,
      code_challenge TEXT NOT NULL,
      code_challenge_method TEXT NOT NULL CHECK (code_challenge_method IN ('s256', 'plain')),
      authentication_method TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      auth_code_issued_at INTEGER
    );
    CREATE INDEX flow_states_by_user ON flow_states(user_id, authentication_method);
    CREATE INDEX flow_states_by_created ON flow_states(created_at);
    ALTER TABLE sessions ADD COLUMN aal TEXT NOT NULL DEFAULT 'aal1';
    ALTER TABLE sessions ADD COLUMN factor_id TEXT;
    CREATE TABLE session_amr (
      session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      method TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (session_id, method)
    ) WITHOUT ROWID;
    CREATE TABLE mfa_factors (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      friendly_name TEXT NOT NULL DEFAULT '',
      factor_type TEXT NOT NULL CHECK (factor_type IN ('totp')),
      status TEXT NOT NULL CHECK (status IN ('unverified', 'verified')),
      secret BLOB NOT NULL,
      last_used_step INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      last_challenged_at INTEGER
    );
    CREATE INDEX mfa_factors_by_user ON mfa_factors(user_id);
    CREATE TABLE mfa_challenges (
      id TEXT PRIMARY KEY,
      factor_id TEXT NOT NULL REFERENCES mfa_factors(id) ON DELETE CASCADE,
      ip_address TEXT NOT NULL DEFAULT '',
      created_at INTEGER NOT NULL,
      verified_at INTEGER
    );
    CREATE INDEX mfa_challenges_by_factor ON mfa_challenges(factor_id);
    """,
    // Version 6: what the Firebase Auth emulator's surface keeps beyond GoTrue's: an account's
    // first email once it changed (`initialEmail`, which a RECOVER_EMAIL code restores), its
    // custom claims (`customAttributes`, from an admin or a custom token), whether it signs in
    // by email link or custom token; and Firebase's out-of-band codes in a table of their own,
    // since an email sign-in code may be for an address with no account yet. Codes are kept
    // only as keyed hashes. A Firebase session keeps how it began (`password`, `anonymous`,
    // `custom`) and a custom token's claims, which its refreshed ID tokens carry again.
    """
    ALTER TABLE users ADD COLUMN initial_email TEXT;
    ALTER TABLE users ADD COLUMN custom_claims TEXT;
    ALTER TABLE users ADD COLUMN email_link_signin INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN custom_auth INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE oob_codes (
      id INTEGER PRIMARY KEY,
      code_hash BLOB NOT NULL UNIQUE,
      request_type TEXT NOT NULL CHECK (request_type IN
        ('PASSWORD_RESET', 'VERIFY_EMAIL', 'VERIFY_AND_CHANGE_EMAIL', 'EMAIL_SIGNIN',
         'RECOVER_EMAIL')),
      email TEXT NOT NULL,
      new_email TEXT,
      user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
      continue_url TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    );
    CREATE INDEX oob_codes_by_user ON oob_codes(user_id);
    ALTER TABLE sessions ADD COLUMN firebase_provider TEXT;
    ALTER TABLE sessions ADD COLUMN firebase_claims TEXT;
    """,
    // Version 7: wrong TOTP codes are counted, so a challenge is spent after a few of them;
    // and the Firebase surface's second step of a sign-in (`mfaPendingCredential`): who signed
    // in with their first factor, how, and when, keyed by a hash of the credential, with its
    // own count of wrong codes.
    """
    ALTER TABLE mfa_challenges ADD COLUMN failed_attempts INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE mfa_pending_sign_ins (
      credential_hash BLOB PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      failed_attempts INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE INDEX mfa_pending_sign_ins_by_user ON mfa_pending_sign_ins(user_id);
    """,
    // Version 8: GoTrue's audit log (`auth.audit_log_entries`), newest first by time; kept by
    // rowid in the order written (a random id as the key would cost each grant a B-tree insert
    // at a random place).
    """
    CREATE TABLE audit_log_entries (
      id TEXT NOT NULL,
      payload TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      ip_address TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX audit_log_entries_by_time ON audit_log_entries(created_at);
    """,
    // Version 9: a user's identity may be another provider's than email: a Web3 wallet's
    // (`web3`, named `web3:<chain>:<address>`), found by that name when the wallet signs in again.
    """
    ALTER TABLE users ADD COLUMN identity_provider TEXT NOT NULL DEFAULT 'email';
    ALTER TABLE users ADD COLUMN identity_provider_id TEXT;
    CREATE UNIQUE INDEX users_by_identity ON users(identity_provider, identity_provider_id);
    """,
    // Version 10: GoTrue's OAuth 2.1 server (`auth.oauth_clients`, `oauth_authorizations`,
    // `oauth_consents`), and the client and scopes of a session one of its clients holds.
    """
    CREATE TABLE oauth_clients (
      id TEXT PRIMARY KEY,
      client_secret_hash TEXT,
      registration_type TEXT NOT NULL,
      redirect_uris TEXT NOT NULL,
      grant_types TEXT NOT NULL,
      client_name TEXT,
      client_uri TEXT,
      logo_uri TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      deleted_at INTEGER,
      client_type TEXT NOT NULL DEFAULT 'confidential',
      token_endpoint_auth_method TEXT NOT NULL
    );
    CREATE TABLE oauth_authorizations (
      id TEXT PRIMARY KEY,
      authorization_id TEXT NOT NULL UNIQUE,
      client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
      user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
      redirect_uri TEXT NOT NULL,
      scope TEXT NOT NULL,
      state TEXT,
      resource TEXT,
      code_challenge TEXT,
      code_challenge_method TEXT,
      nonce TEXT,
      status TEXT NOT NULL DEFAULT 'pending',
      authorization_code TEXT UNIQUE,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      approved_at INTEGER
    );
    CREATE TABLE oauth_consents (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
      scopes TEXT NOT NULL,
      granted_at INTEGER NOT NULL,
      revoked_at INTEGER,
      UNIQUE (user_id, client_id)
    );
    ALTER TABLE sessions ADD COLUMN oauth_client_id TEXT;
    ALTER TABLE sessions ADD COLUMN scopes TEXT;
    """,
    // Version 11: phone numbers (GoTrue's `auth.users.phone`, unique, E.164 digits without the
    // `+`), when they were confirmed, and the phone identity GoTrue makes with one.
    """
    ALTER TABLE users ADD COLUMN phone TEXT;
    ALTER TABLE users ADD COLUMN phone_confirmed_at INTEGER;
    ALTER TABLE users ADD COLUMN phone_identity_id TEXT;
    CREATE UNIQUE INDEX users_by_phone ON users(phone);
    """,
    // Version 12: SSO identity providers as GoTrue's admin API keeps them (`auth.sso_providers`,
    // `saml_providers`, `sso_domains`), with GoTrue's constraints: a resource id and a domain
    // unique ignoring case, an entity id unique (the checks written `= NULL` hold for NULL and
    // for '' alike, as GoTrue's do).
    """
    CREATE TABLE sso_providers (
      id TEXT PRIMARY KEY,
      resource_id TEXT CHECK (resource_id = NULL OR length(resource_id) > 0),
      created_at INTEGER,
      updated_at INTEGER,
      disabled INTEGER
    );
    CREATE UNIQUE INDEX sso_providers_resource_id_idx ON sso_providers(lower(resource_id));
    CREATE TABLE sso_domains (
      id TEXT PRIMARY KEY,
      sso_provider_id TEXT NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
      domain TEXT NOT NULL CHECK (length(domain) > 0),
      created_at INTEGER,
      updated_at INTEGER
    );
    CREATE INDEX sso_domains_sso_provider_id_idx ON sso_domains(sso_provider_id);
    CREATE UNIQUE INDEX sso_domains_domain_idx ON sso_domains(lower(domain));
    CREATE TABLE saml_providers (
      id TEXT PRIMARY KEY,
      sso_provider_id TEXT NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
      entity_id TEXT NOT NULL UNIQUE CHECK (length(entity_id) > 0),
      metadata_xml TEXT NOT NULL CHECK (length(metadata_xml) > 0),
      metadata_url TEXT CHECK (metadata_url = NULL OR length(metadata_url) > 0),
      attribute_mapping TEXT,
      created_at INTEGER,
      updated_at INTEGER,
      name_id_format TEXT
    );
    CREATE INDEX saml_providers_sso_provider_id_idx ON saml_providers(sso_provider_id);
    """,
    // Version 13: identities at other providers than email, phone and a wallet (a Firebase
    // import's `google.com`, …), as GoTrue keeps them in `auth.identities`: a provider's raw id
    // names one user only.
    """
    CREATE TABLE linked_identities (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      provider_id TEXT NOT NULL,
      identity_data TEXT NOT NULL DEFAULT '{}',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (provider_id, provider)
    );
    CREATE INDEX linked_identities_user_id_idx ON linked_identities(user_id);
    """,
    // Version 14: phone sign-in (GoTrue's `phone_change` and `phone_change_sent_at`, a new
    // number waiting for its code), and `one_time_tokens` rebuilt so that its kinds take the
    // codes sent by SMS: a phone's confirmation or sign-in code (`sms`) and a new number's
    // (`phone_change`).
    """
    ALTER TABLE users ADD COLUMN phone_change TEXT;
    ALTER TABLE users ADD COLUMN phone_change_sent_at INTEGER;
    CREATE INDEX users_by_phone_change ON users(phone_change);
    CREATE TABLE one_time_tokens_v14 (
      id INTEGER PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN
        ('confirmation', 'recovery', 'magiclink', 'email_change_current', 'email_change_new',
         'invite', 'reauthentication', 'sms', 'phone_change')),
      token_hash BLOB NOT NULL,
      link_hash BLOB,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    );
    INSERT INTO one_time_tokens_v14 SELECT id, user_id, kind, token_hash, link_hash, created_at,
      expires_at, used_at FROM one_time_tokens;
    DROP TABLE one_time_tokens;
    ALTER TABLE one_time_tokens_v14 RENAME TO one_time_tokens;
    CREATE INDEX one_time_tokens_by_user ON one_time_tokens(user_id, kind);
    CREATE INDEX one_time_tokens_by_link ON one_time_tokens(link_hash);
    """,
  ]

  /// The tables of rowid, the ones a migration may name in SQL it builds.
  static let tables: Set<String> = [
    "users", "one_time_tokens", "sessions", "refresh_tokens", "flow_states", "mfa_factors",
    "mfa_challenges", "oob_codes",
  ]

  /// The version a fully migrated store has.
  static var currentVersion: Int { migrations.count }
}

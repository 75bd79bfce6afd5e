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
  ]

  /// The version a fully migrated store has.
  static var currentVersion: Int { migrations.count }
}

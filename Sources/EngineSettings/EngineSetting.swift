import AccountStore
import AuthCrypto
import CommandLineOptions
import GoTrue
import GoTrueEngine

/// One setting of the embedded engine, declared once for `authflow serve`, the shell and a
/// Supabase project's `config.toml`: its option, GoTrue's variable, the config key, its help,
/// and the one parse-and-check that sets it. Each program lists the rows it takes
/// (``option(section:group:readsGoTrueSettings:)``), so the same option cannot take other values
/// in another program. Learnt from GoTrue's `internal/conf`: one tagged field per setting.
public struct EngineSetting: Sendable {
  /// The option's names, such as `--password-min-length`.
  public let names: [String]
  /// The value's placeholder; `nil` for a flag.
  public let value: String?
  /// The help, one line or more.
  public let help: [String]
  /// GoTrue's variable for it, which `authflow serve` reads.
  public let environment: String?
  /// Where a Supabase project's `config.toml` gives it.
  public let config: ConfigKey?
  /// Sets the settings from the value (empty for a flag), or says what it should be.
  let set: @Sendable (inout EngineSettings, String) throws(OptionValueError) -> Void

  init(
    _ names: [String], _ value: String?, _ help: [String], environment: String? = nil,
    config: ConfigKey? = nil,
    set: @escaping @Sendable (inout EngineSettings, String) throws(OptionValueError) -> Void
  ) {
    self.names = names
    self.value = value
    self.help = help
    self.environment = environment
    self.config = config
    self.set = set
  }

  /// The option's main name.
  public var name: String { names.last ?? "" }

  /// The setting as an option of `Options`, listed under `section` (for `group`); with
  /// `readsGoTrueSettings`, GoTrue's variable gives it when the command line does not, and a
  /// project's `config.toml` key before both (as serve reads them; the shell reads neither).
  public func option<Options: HoldsEngineSettings>(
    section: String, group: String? = nil, readsGoTrueSettings: Bool
  ) -> OptionSpec<Options> {
    let set = self.set
    let name = self.name
    return OptionSpec(
      names, value, help, section: section,
      environment: readsGoTrueSettings ? environment : nil, group: group,
      config: readsGoTrueSettings ? config : nil
    ) { options, value throws(OptionValueError) in
      try set(&options.settings, value)
      options.settings.given[name] = value
    }
  }
}

extension EngineSetting {
  /// Every setting, in the order the programs list them.
  public static let all = [
    store, users, autoconfirm, hashCost, passwordMinimumLength, passwordRequiredCharacters,
    disableSignup, sessionsTimebox, sessionsInactivityTimeout, securePasswordChange,
    redirectURLs, seed,
  ]

  /// `--store`: where the accounts live.
  public static let store = EngineSetting(
    ["--store"], "PATH|:memory:|URL",
    [
      "the accounts: a SQLite file (default",
      "$XDG_DATA_HOME/authflow/auth.db), :memory:, or a PostgreSQL",
      "database (postgresql://USER@HOST:PORT/DB, GoTrue's auth schema)",
    ], environment: "GOTRUE_DB_DATABASE_URL"
  ) { settings, value throws(OptionValueError) in
    _ = try storeLocation(value)
    settings.store = value
  }

  /// `--users FILE`: seeded accounts.
  public static let users = EngineSetting(
    ["--users"], "FILE",
    [
      "seed the store with FILE's accounts at start, idempotently (a",
      "users file, or the Firebase emulator's accounts.json); no demo",
      "accounts then",
    ], environment: "AUTHFLOW_USERS"
  ) { settings, value in settings.users = value }

  /// `--autoconfirm`: no confirmation email.
  public static let autoconfirm = EngineSetting(
    ["--autoconfirm"], nil, ["sign new users in at once, no confirmation email"],
    environment: "GOTRUE_MAILER_AUTOCONFIRM",
    config: ConfigKey("auth.email.enable_confirmations", .flag(when: false))
  ) { settings, _ in settings.engine.autoconfirm = true }

  /// `--hash-cost N`: bcrypt's cost.
  public static let hashCost = EngineSetting(
    ["--hash-cost"], "N",
    [
      "bcrypt cost of new passwords, \(costs.lowerBound)-\(costs.upperBound)"
        + " (default \(Bcrypt.defaultCost), GoTrue's;",
      "lower it for tests only)",
    ]
  ) { settings, value throws(OptionValueError) in
    guard let cost = Int(value), costs.contains(cost) else {
      throw OptionValueError(
        expected: "a number from \(costs.lowerBound) to \(costs.upperBound); "
          + "the default is \(Bcrypt.defaultCost), GoTrue's; lower it for tests only")
    }
    settings.engine.hashCost = cost
  }

  /// `--password-min-length N`: GoTrue raises anything below 6 to 6.
  public static let passwordMinimumLength = EngineSetting(
    ["--password-min-length"], "N", ["the shortest password (default 6; below 6 means 6)"],
    environment: "GOTRUE_PASSWORD_MIN_LENGTH", config: ConfigKey("auth.minimum_password_length")
  ) { settings, value throws(OptionValueError) in
    guard let length = Int(value), (0...72).contains(length) else {
      throw OptionValueError(expected: "a length from 0 to 72 (GoTrue raises below 6 to 6)")
    }
    settings.engine.minimumPasswordLength = max(6, length)
  }

  /// `--password-required-characters`: a character of each set in a new password. Takes the
  /// Supabase CLI's names (`auth.password_requirements`) or GoTrue's own value, sets separated
  /// by `:` (`\\:` for a colon in a set).
  public static let passwordRequiredCharacters = EngineSetting(
    ["--password-required-characters"], "SETS",
    [
      "a new password has a character of each set:",
      "letters_digits, lower_upper_letters_digits,",
      "lower_upper_letters_digits_symbols, or GoTrue's sets",
      "separated by : (default none)",
    ], environment: "GOTRUE_PASSWORD_REQUIRED_CHARACTERS",
    config: ConfigKey("auth.password_requirements")
  ) { settings, value in
    settings.engine.passwordRequiredCharacters = PasswordRequirement.characterSets(value)
  }

  /// `--disable-signup`: admins can still create users.
  public static let disableSignup = EngineSetting(
    ["--disable-signup"], nil, ["refuse new users (admins can still create them)"],
    environment: "GOTRUE_DISABLE_SIGNUP",
    config: ConfigKey("auth.enable_signup", .flag(when: false))
  ) { settings, _ in settings.engine.disableSignup = true }

  /// `--sessions-timebox DURATION`.
  public static let sessionsTimebox = EngineSetting(
    ["--sessions-timebox"], "DURATION",
    ["end sessions this long after sign-in: their refresh is refused", "(24h; default none)"],
    environment: "GOTRUE_SESSIONS_TIMEBOX", config: ConfigKey("auth.sessions.timebox")
  ) { settings, value throws(OptionValueError) in
    settings.engine.sessionLimits.timebox = try sessionLimit(value)
  }

  /// `--sessions-inactivity-timeout DURATION`.
  public static let sessionsInactivityTimeout = EngineSetting(
    ["--sessions-inactivity-timeout"], "DURATION",
    ["end sessions not refreshed for this long (8h; default none)"],
    environment: "GOTRUE_SESSIONS_INACTIVITY_TIMEOUT",
    config: ConfigKey("auth.sessions.inactivity_timeout")
  ) { settings, value throws(OptionValueError) in
    settings.engine.sessionLimits.inactivityTimeout = try sessionLimit(value)
  }

  /// `--secure-password-change`.
  public static let securePasswordChange = EngineSetting(
    ["--secure-password-change"], nil,
    [
      "a password change from a session over a day old needs the",
      "nonce GET /reauthenticate emails",
    ],
    environment: "GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION",
    config: ConfigKey("auth.email.secure_password_change", .flag(when: true))
  ) { settings, _ in settings.engine.passwordChangeNeedsReauthentication = true }

  /// `--redirect-urls URL[,URL…]`: where else links may lead, as GoTrue's allow list.
  public static let redirectURLs = EngineSetting(
    ["--redirect-urls"], "URL[,URL…]",
    [
      "where else redirect_to may send users, beside the site URL: URLs",
      "and globs (* ** ? [a-z]; * stops at . and /), an app's scheme",
      "included: myapp://auth/callback,https://*.example.com/**",
    ], environment: "GOTRUE_URI_ALLOW_LIST",
    config: ConfigKey("auth.additional_redirect_urls", .list)
  ) { settings, value throws(OptionValueError) in
    settings.engine.redirectAllowList = try redirectPatterns(value)
  }

  /// `--seed N`: reproducible codes, ids and clock.
  public static let seed = EngineSetting(
    ["--seed"], "N",
    [
      "reproducible codes, ids and clock, for tests and golden",
      "transcripts, with --store :memory: only; never for real use:",
      "the seed gives away every code",
    ]
  ) { settings, value throws(OptionValueError) in
    guard let seed = UInt64(value) else {
      throw OptionValueError(expected: "a whole number; for example --seed 1")
    }
    settings.seed = seed
  }

  private static let costs = EngineConfiguration.hashCosts

  /// `value` as a store `--store` names; anything else is refused with what it takes.
  public static func storeLocation(_ value: String) throws(OptionValueError) -> StoreLocation {
    do {
      return try StoreLocation(argument: value)
    } catch {
      throw OptionValueError(expected: "a path, :memory: or a PostgreSQL URL (\(error.message))")
    }
  }

  /// The patterns of a comma-separated list, split at every comma as GoTrue splits
  /// `URI_ALLOW_LIST` (so a `{a,b}` cannot be in it); the spaces around each are dropped (no URL
  /// holds one) and empty ones skipped.
  private static func redirectPatterns(_ value: String) throws(OptionValueError)
    -> [RedirectPattern]
  {
    var patterns: [RedirectPattern] = []
    for part in value.split(separator: ",") {
      guard let first = part.firstIndex(where: { !$0.isWhitespace }),
        let last = part.lastIndex(where: { !$0.isWhitespace })
      else { continue }
      let text = String(part[first...last])
      do {
        patterns.append(try RedirectPattern(text))
      } catch {
        let note = text.contains("{") ? " (GoTrue splits the list at every comma)" : ""
        throw OptionValueError(
          expected: "URLs or globs separated by commas; '\(text.prefix(60))' has "
            + error.reason + note)
      }
    }
    return patterns
  }

  /// A session limit: a positive duration (`24h`, `90m`, `1h30m`, or seconds), as GoTrue's
  /// `SessionsConfiguration.Validate` asks, up to ten years.
  private static func sessionLimit(_ value: String) throws(OptionValueError) -> Double {
    guard let seconds = Double(value) ?? GoDuration.seconds(value),
      (1...315_360_000).contains(seconds)
    else {
      throw OptionValueError(
        expected: "a duration such as 24h, 90m or 1h30m (or seconds), at least 1s and at most "
          + "87600h")
    }
    return seconds
  }
}

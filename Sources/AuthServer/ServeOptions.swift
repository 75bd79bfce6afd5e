import AccountStore
import AuthCrypto
import CommandLineOptions
import EngineSettings
import GoTrue
import GoTrueEngine
import HTTPServer

#if canImport(Glibc)
  import Glibc
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The command line of `authflow serve`, with GoTrue's environment variables for its settings.
struct ServeOptions: HoldsEngineSettings {
  /// Where to listen and how hard to hold connections.
  var http = HTTPServerConfiguration()
  /// Whether `--host` was given (then it replaces the default addresses).
  var hostsGiven = false
  /// The engine's settings (GoTrue's defaults unless changed), its store, users file and seed.
  var settings = EngineSettings()
  /// GoTrue's request limits, kept by the server per client.
  var requestLimits = RequestLimits()
  /// `--no-rate-limits`: no limit at all, whatever else is set.
  var noRateLimits = false
  /// `--external-url`: the URL links in emails lead to; by default the server's own.
  var externalURL: String?
  /// `--app-links SCHEME`: emails link straight into the app instead of to `/verify`.
  var appLinkScheme: String?
  /// `--firebase-project ID`: also the Firebase Auth emulator's REST API, for this project.
  var firebaseProject: String?
  /// GoTrue's HTTP auth hooks (`--hook-…`).
  var hooks = HookOptions()
  /// `--config PATH`: the project's own configuration, read before the command line.
  var configPath: String?
  /// What `--config` read.
  var projectConfig: ProjectConfig?
  /// `--allow-clock`: `POST /authflow/v1/clock` may move the clock of a file store too.
  var allowsClock = false
  /// `--quiet`: no line per request.
  var quiet = false
  /// `--help`.
  var help = false
  /// `--version`.
  var version = false

  init() {
    settings.engine.seedsDemoAccounts = true
    // The server limits requests per client itself (``RequestLimiter``), as GoTrue does; the
    // engine keeps what is per account or address: code checks, the email gap, hourly emails.
    settings.engine.rateLimits.token = .unlimited
    settings.engine.rateLimits.email = .unlimited
  }

  /// `authflow serve --help`.
  static var usage: String {
    let lines =
      ["authflow serve: \(abstract).", "", "usage: authflow serve [options]", ""] + about
      + OptionParser.usage(allOptions, sections: sections)
    return lines.joined(separator: "\n")
  }

  /// What `authflow serve` is, in a few words.
  static let abstract = "the embedded engine as a local Supabase Auth (GoTrue) server"

  /// What `--help` says before the options.
  static let about = [
    "GoTrue's REST API at / and /auth/v1/, the admin API for the service-role key, and the",
    "outbox in Mailpit's API at /api/v1/. Options also come from GoTrue's variables (env).",
    "With --firebase-project, also the Firebase Auth emulator's REST API on the same",
    "accounts (FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT for the Firebase SDKs).",
    "With --config, a project's firebase.json and .firebaserc, or supabase/config.toml,",
    "give the options the command line and the variables do not.",
  ]

  /// The sections of the options, in the order `--help` lists them.
  static let sections = [
    "server", "GoTrue", "MFA", "hooks", "Firebase", "rate limits", "testing", "other",
  ]

  /// A number in `range`, or what the option takes.
  private static func number<T: FixedWidthInteger>(
    _ value: String, in range: ClosedRange<T>, _ meaning: String
  ) throws(OptionValueError) -> T {
    guard let number = T(value), range.contains(number) else {
      throw OptionValueError(expected: "\(meaning) from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }

  /// Seconds as a number (`60`) or a Go duration (`60s`, `1m`), as GoTrue reads them.
  static func seconds(_ value: String, in range: ClosedRange<Double>, _ meaning: String)
    throws(OptionValueError) -> Double
  {
    guard let seconds = Double(value) ?? GoDuration.seconds(value), range.contains(seconds)
    else {
      throw OptionValueError(
        expected: "\(meaning): seconds (60) or a duration (60s, 5m) from "
          + "\(Int(range.lowerBound)) to \(Int(range.upperBound)) seconds")
    }
    return seconds
  }

  /// A URL with a scheme and a host, read as a browser reads it (links lead there).
  private static func url(_ value: String) throws(OptionValueError) -> String {
    guard BrowserURL(value) != nil else {
      throw OptionValueError(expected: "a URL such as http://127.0.0.1:3000")
    }
    return value
  }

  /// Every option; `--help` lists them by section, in this order within one.
  static let table =
    generalTable + featureTable + smsOptions + mfaOptions + rateLimitTable + testingOptions

  /// `--host`, which a project's `firebase.json` also gives.
  static let hostOption = OptionSpec<ServeOptions>(
    ["--host"], "ADDRESS",
    [
      "a numeric address to listen on, repeatable (default 127.0.0.1, ::1);",
      "beyond loopback anyone who can reach it can sign up and sign in",
    ], section: "server"
  ) { options, value throws(OptionValueError) in
    guard IPAddress.isNumeric(value) else {
      throw OptionValueError(expected: "a numeric address such as 127.0.0.1, ::1 or 0.0.0.0")
    }
    if !options.hostsGiven { options.http.hosts = [] }
    options.hostsGiven = true
    options.http.hosts.append(value)
  }

  /// `--port`, which a project's file also gives.
  static let portOption = OptionSpec<ServeOptions>(
    ["--port"], "N", ["the port (default 9999, GoTrue's; 0 picks a free one)"], section: "server",
    environment: "PORT",
    config: ConfigKey("api.port")
  ) {
    options, value throws(OptionValueError) in
    options.http.port = try number(value, in: 0...65_535, "a port")
  }

  /// `--firebase-project`, which a Firebase project's `.firebaserc` also gives.
  static let firebaseProjectOption = OptionSpec<ServeOptions>(
    ["--firebase-project"], "ID",
    [
      "also serve the Firebase Auth emulator's REST API for project ID",
      "(the projectId the Firebase SDKs are given, such as demo-app)",
    ], section: "Firebase", environment: "AUTHFLOW_FIREBASE_PROJECT"
  ) { options, value throws(OptionValueError) in
    let valid =
      (1...128).contains(value.utf8.count)
      && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    guard valid else {
      throw OptionValueError(expected: "a project id of letters, digits, - _ or . (demo-app)")
    }
    options.firebaseProject = value
  }

  /// The options of every section but the features', MFA's and the rate limits'.
  private static let generalTable: [OptionSpec<ServeOptions>] = [
    hostOption,
    portOption,
    EngineSetting.store.option(section: "server", readsGoTrueSettings: true),
    EngineSetting.users.option(section: "server", readsGoTrueSettings: true),
    OptionSpec(
      ["--external-url"], "URL", ["the URL links in emails lead to (default: the server's)"],
      section: "server", environment: "API_EXTERNAL_URL"
    ) { options, value throws(OptionValueError) in options.externalURL = try url(value) },
    OptionSpec(
      ["--timeout"], "SECONDS", ["close idle and slow connections after this long (default 10)"],
      section: "server"
    ) { options, value throws(OptionValueError) in
      options.http.requestTimeout = .seconds(try seconds(value, in: 1...3_600, "a timeout"))
    },
    OptionSpec(
      ["--max-connections"], "N", ["connections served at once (default 1024); more are refused"],
      section: "server"
    ) { options, value throws(OptionValueError) in
      options.http.maxConnections = try number(value, in: 1...65_536, "a number")
    },
    OptionSpec(
      ["--config"], "PATH",
      [
        "a project's folder, firebase.json or supabase/config.toml: its",
        "settings first (the emulator's address and project; [auth])",
      ], section: "server"
    ) { options, value in options.configPath = value },
    OptionSpec(["--quiet"], nil, ["no line per request"], section: "server") { options, _ in
      options.quiet = true
    },
    OptionSpec(
      ["--jwt-secret"], "SECRET",
      ["sign tokens with SECRET, 32+ characters (default: the store's own)"],
      section: "GoTrue", environment: "GOTRUE_JWT_SECRET"
    ) { options, value throws(OptionValueError) in
      guard value.utf8.count >= 32 else {
        throw OptionValueError(expected: "a secret of at least 32 characters")
      }
      options.settings.engine.jwtSecret = Array(value.utf8)
    },
    OptionSpec(
      ["--jwt-exp"], "SECONDS", ["how long access tokens last (default 3600)"], section: "GoTrue",
      environment: "GOTRUE_JWT_EXP", config: ConfigKey("auth.jwt_expiry")
    ) { options, value throws(OptionValueError) in
      options.settings.engine.accessTokenLifetime = Double(
        try number(value, in: 30...604_800, "seconds") as Int)
    },
    OptionSpec(
      ["--jwt-issuer"], "ISSUER", ["the iss claim of access tokens (default: none, as GoTrue)"],
      section: "GoTrue", environment: "GOTRUE_JWT_ISSUER",
      config: ConfigKey("auth.jwt_issuer")
    ) { options, value in options.settings.engine.issuer = value },
    EngineSetting.autoconfirm.option(section: "GoTrue", readsGoTrueSettings: true),
    EngineSetting.disableSignup.option(section: "GoTrue", readsGoTrueSettings: true),
    OptionSpec(
      ["--site-url"], "URL", ["where verified links send users (default http://127.0.0.1:3000)"],
      section: "GoTrue", environment: "GOTRUE_SITE_URL",
      config: ConfigKey("auth.site_url")
    ) { options, value throws(OptionValueError) in options.settings.engine.siteURL = try url(value)
    },
    EngineSetting.redirectURLs.option(section: "GoTrue", readsGoTrueSettings: true),
    EngineSetting.passwordMinimumLength.option(section: "GoTrue", readsGoTrueSettings: true),
    EngineSetting.passwordRequiredCharacters.option(section: "GoTrue", readsGoTrueSettings: true),
    OptionSpec(
      ["--otp-exp"], "SECONDS", ["how long emailed codes and links last (default 86400)"],
      section: "GoTrue", environment: "GOTRUE_MAILER_OTP_EXP",
      config: ConfigKey("auth.email.otp_expiry")
    ) { options, value throws(OptionValueError) in
      options.settings.engine.codeLifetime = Double(
        try number(value, in: 60...604_800, "seconds") as Int)
    },
    OptionSpec(
      ["--smtp-max-frequency"], "DURATION",
      ["the least time between two emails to one address (default 60s)"], section: "GoTrue",
      environment: "GOTRUE_SMTP_MAX_FREQUENCY",
      config: ConfigKey("auth.email.max_frequency")
    ) { options, value throws(OptionValueError) in
      options.settings.engine.emailInterval = try seconds(value, in: 0...86_400, "a wait")
    },
    OptionSpec(
      ["--app-links"], "SCHEME",
      [
        "emails link into the app (SCHEME://auth/verify?token=CODE&…), as",
        "templates with {{ .Token }} deep links do, instead of to /verify",
      ], section: "GoTrue"
    ) { options, value throws(OptionValueError) in
      let valid =
        value.first?.isLetter == true
        && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
      guard valid else { throw OptionValueError(expected: "a URL scheme such as myapp") }
      options.appLinkScheme = value
    },
    OptionSpec(
      ["--refresh-token-reuse-interval"], "SECONDS",
      ["how long a rotated refresh token", "still works (default 10)"], section: "GoTrue",
      environment: "GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL",
      config: ConfigKey("auth.refresh_token_reuse_interval")
    ) { options, value throws(OptionValueError) in
      options.settings.engine.refreshTokenReuseInterval = Double(
        try number(value, in: 0...3_600, "seconds") as Int)
    },
    firebaseProjectOption,
    EngineSetting.hashCost.option(section: "testing", readsGoTrueSettings: true),
    EngineSetting.seed.option(section: "testing", readsGoTrueSettings: true),
    OptionSpec(["--version"], nil, ["print the version and exit"], section: "other") {
      options, _ in options.version = true
    },
    OptionSpec(["-h", "--help"], nil, ["print this help and exit"], section: "other") {
      options, _ in options.help = true
    },
  ]
}

/// Numeric IP addresses, the only kind a static executable can listen on (it has no resolver).
enum IPAddress {
  /// Whether `text` is a numeric IPv4 or IPv6 address.
  static func isNumeric(_ text: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
  }
}

import AuthCrypto
import PrivateFiles

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the embedded engine behaves; the defaults are GoTrue's (`conf/configuration.go`).
public struct EngineConfiguration: Equatable, Sendable {
  /// Sign new users in at once instead of emailing a confirmation (GoTrue's `MAILER_AUTOCONFIRM`).
  public var autoconfirm = false
  /// The bcrypt cost of new password hashes; lower it in tests only.
  public var hashCost = Bcrypt.defaultCost

  /// The costs the engine accepts. bcrypt itself goes to 31, but each step doubles the work:
  /// at 14 one hash already takes about a second on a laptop core (a new store hashes three),
  /// and at 31 a single sign-in would take days, so nothing above 14 is a usable setting.
  public static let hashCosts = Bcrypt.minimumCost...14
  /// Seconds an access token lives.
  public var accessTokenLifetime: TimeInterval = 3_600
  /// Seconds a rotated refresh token still gets the session it was rotated into, so two clients
  /// refreshing at once both stay signed in (`REFRESH_TOKEN_REUSE_INTERVAL`; the Supabase CLI's
  /// 10 s). Reuse after it revokes the whole session.
  public var refreshTokenReuseInterval: TimeInterval = 10
  /// Seconds an emailed code or link stays valid (`MAILER_OTP_EXP`).
  public var codeLifetime: TimeInterval = 86_400
  /// Seconds a PKCE flow state lives, from its start (a magic link's: from when its code was
  /// issued); GoTrue's `EXTERNAL_FLOW_STATE_EXPIRY_DURATION`, default and least 300.
  public var flowStateLifetime: TimeInterval = 300
  /// Seconds between two emails to the same address (`SMTP_MAX_FREQUENCY`).
  public var emailInterval: TimeInterval = 60
  /// The shortest password the engine accepts (GoTrue's default is 6).
  public var minimumPasswordLength = 6
  /// Sets of characters a new password must hold one of each of (GoTrue's
  /// `PASSWORD_REQUIRED_CHARACTERS`); none by default.
  public var passwordRequiredCharacters: [String] = []
  /// The longest password, in UTF-8 bytes (bcrypt's limit).
  public var maximumPasswordBytes = 72
  /// Request budgets per bucket.
  public var rateLimits = RateLimits()
  /// Where the links in emails lead.
  public var emailLinks = EmailLinks.app(scheme: "authflow")
  /// Create the demo accounts in a new store.
  public var seedsDemoAccounts = true
  /// Refuse new accounts (GoTrue's `DISABLE_SIGNUP`); admins can still create them.
  public var disableSignup = false
  /// Let `POST /signup` with neither email nor phone make an anonymous user (GoTrue's
  /// `EXTERNAL_ANONYMOUS_USERS_ENABLED`, off by default).
  public var anonymousSignIns = false
  /// Whether the email provider is on (GoTrue's `EXTERNAL_EMAIL_ENABLED`): off, sign-ups and
  /// sign-ins by email are refused; admins can still make users.
  public var emailProvider = true
  /// Whether the phone provider is on (GoTrue's `EXTERNAL_PHONE_ENABLED`): on, users sign up
  /// and in with a phone number and the codes sent to it by SMS, which go to the engine's
  /// ``EmbeddedGoTrue/smsOutbox`` (the engine sends none anywhere).
  public var phoneProvider = false
  /// Sign new phone users in at once instead of texting a confirmation code (GoTrue's
  /// `SMS_AUTOCONFIRM`).
  public var smsAutoconfirm = false
  /// Seconds a code sent by SMS stays valid (`SMS_OTP_EXP`; GoTrue's 60).
  public var smsCodeLifetime: TimeInterval = 60
  /// The digits of a code sent by SMS, 6 to 10 (`SMS_OTP_LENGTH`).
  public var smsCodeLength = 6
  /// Seconds between two codes of one kind sent by SMS to one user (`SMS_MAX_FREQUENCY`).
  public var smsInterval: TimeInterval = 60
  /// The words of an SMS, `{{ .Code }}` standing for the code (`SMS_TEMPLATE`).
  public var smsTemplate = SMSOutbox.defaultTemplate
  /// Whether Sign in with Solana is on (GoTrue's `EXTERNAL_WEB3_SOLANA_ENABLED`, off by default).
  public var web3Solana = false
  /// Whether Sign in with Ethereum is on (GoTrue's `EXTERNAL_WEB3_ETHEREUM_ENABLED`, off by
  /// default).
  public var web3Ethereum = false
  /// How long a Web3 message is good for either side of its `Issued At`, in seconds (GoTrue's
  /// `EXTERNAL_WEB3_*_MAXIMUM_VALIDITY_DURATION`, 10 minutes).
  public var web3MaximumValidity: Double = 600
  /// A password change from a session over a day old needs the nonce `GET /reauthenticate`
  /// sends (GoTrue's `SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION`, off by default).
  public var passwordChangeNeedsReauthentication = false
  /// Let signed-in users link and unlink identities (GoTrue's
  /// `SECURITY_MANUAL_LINKING_ENABLED`, off by default).
  public var manualLinking = false
  /// GoTrue as an OAuth 2.1 server, off by default.
  public var oauthServer = OAuthServerSettings()
  /// Where links send the user after verifying when the request names no allowed
  /// `redirect_to` (GoTrue's `SITE_URL`; the Supabase CLI's default).
  public var siteURL = "http://127.0.0.1:3000"
  /// Where else links may send the user: GoTrue's `URI_ALLOW_LIST` (the Supabase CLI's
  /// `additional_redirect_urls`), exact URLs and glob patterns; none by default.
  public var redirectAllowList: [RedirectPattern] = []
  /// Sign tokens with this secret instead of the store's own (GoTrue's `JWT_SECRET`).
  public var jwtSecret: [UInt8]?
  /// The `iss` claim of access tokens (GoTrue's `JWT_ISSUER`); none when `nil`.
  public var issuer: String?
  /// The keys that sign and check tokens instead of the secret (GoTrue's `JWT_KEYS`).
  package var jwtKeys: JWTKeys?
  /// The `kid` of the secret's key (GoTrue's `JWT_KEY_ID`): in the header of the tokens the
  /// secret signs, and a token naming it is checked with the secret.
  public var jwtKeyID: String?
  /// The methods bearer tokens may use (GoTrue's `JWT_VALID_METHODS`); `nil` for the
  /// algorithms of the keys.
  package var jwtValidMethods: JWTAlgorithmSet?
  /// Confirm an email change from both the old and the new address (GoTrue's
  /// `MAILER_SECURE_EMAIL_CHANGE_ENABLED`).
  public var secureEmailChange = true
  /// Who the emails come from.
  public var sender = EmailAddress(name: "authflow", address: "noreply@authflow.local")
  /// The longest access or ID token the engine issues. Tokens come back in a request header,
  /// and a server reads at most 16 KiB of headers (``maximumTokenBytes`` leaves half for the
  /// rest), so metadata that would make a longer token is refused when it is written.
  public var maximumTokenBytes = 8_192
  /// Multi-factor authentication (GoTrue's `MFA_*` settings).
  public var mfa = MFASettings()
  /// How long sessions last (GoTrue's `SESSIONS_TIMEBOX` and `SESSIONS_INACTIVITY_TIMEOUT`):
  /// for as long as they are refreshed, by default.
  public var sessionLimits = SessionLimits()
  /// Fixed codes for tests (`--test-otp`), by normalized email address or phone number (E.164
  /// digits without the `+`): every code mailed or texted there is its code here, as GoTrue's
  /// `sms.test_otp` fixes a phone's. Each stays single use. Never for a server others can
  /// reach.
  public var testCodes: [String: String] = [:]

  /// GoTrue's defaults.
  public init() {}

  /// Token-bucket budgets: `capacity` requests at once, refilled over `period` seconds.
  public struct RateLimits: Equatable, Sendable {
    /// Password and refresh grants (`RATE_LIMIT_TOKEN_REFRESH`: 150 per 5 minutes), over all
    /// clients: the embedded backend has no clients to tell apart. `authflow serve` turns it
    /// off and limits per client itself, as GoTrue does.
    public var token = Budget(capacity: 150, period: 300)
    /// Checks of one account's codes (30 per 5 minutes), so guessing at one account does not
    /// block every other account's reset. GoTrue's `RATE_LIMIT_VERIFY` counts per client; this
    /// budget is the engine's own, kept by `authflow serve` too.
    public var verify = Budget(capacity: 30, period: 300)
    /// Requests that send email: signup, recover, resend, otp, email changes (`RATE_LIMIT_OTP`:
    /// 30 per 5 minutes), over all clients; `authflow serve` turns it off and limits per client.
    public var email = Budget(capacity: 30, period: 300)
    /// Emails actually sent, over all addresses (`RATE_LIMIT_EMAIL_SENT`: 30 per hour); not
    /// counted when autoconfirm is on.
    public var emailSent = Budget(capacity: 30, period: 3_600)
    /// Text messages actually sent, over all numbers (`RATE_LIMIT_SMS_SENT`: 30 per hour); not
    /// counted when SMS autoconfirm is on, nor for fixed test codes, as in GoTrue.
    public var smsSent = Budget(capacity: 30, period: 3_600)

    /// GoTrue's defaults.
    public init() {}

    /// No limits at all, for load tests: every budget unbounded (and, with
    /// ``EngineConfiguration/emailInterval`` and ``EngineConfiguration/smsInterval`` 0, no wait
    /// between emails or text messages).
    public static let unlimited: RateLimits = {
      var limits = RateLimits()
      limits.token = .unlimited
      limits.verify = .unlimited
      limits.email = .unlimited
      limits.emailSent = .unlimited
      limits.smsSent = .unlimited
      return limits
    }()
  }

  /// A token bucket: up to `capacity` requests, refilling fully over `period` seconds.
  public struct Budget: Equatable, Sendable {
    /// A budget that never runs out.
    public static let unlimited = Budget(capacity: .infinity, period: 1)

    /// Whether the budget ever runs out.
    public var isLimited: Bool { capacity.isFinite }

    /// Requests allowed in a burst.
    public var capacity: Double
    /// Seconds to refill an empty bucket.
    public var period: TimeInterval

    /// A budget of `capacity` per `period` seconds.
    public init(capacity: Double, period: TimeInterval) {
      self.capacity = capacity
      self.period = period
    }
  }
}

/// Where the links in the engine's emails lead.
public enum EmailLinks: Equatable, Sendable {
  /// Straight into the app registered for `scheme`, with the link's token hash alone (seed
  /// 004's shapes): `<scheme>://auth/verify?token=<token hash>&type=signup`,
  /// `<scheme>://auth/forgot-password?token=<token hash>&type=recovery` (the shell's links).
  case app(scheme: String)
  /// To the server's `GET /verify` at `externalURL`, as GoTrue's links do:
  /// `<externalURL>/verify?token=<token hash>&type=signup&redirect_to=…`.
  case server(externalURL: String)
}

/// A mailbox: a display name and an address.
public struct EmailAddress: Equatable, Hashable, Sendable {
  /// The display name, possibly empty.
  public var name: String
  /// The address.
  public var address: String

  /// The mailbox `name <address>`.
  public init(name: String, address: String) {
    self.name = name
    self.address = address
  }
}

/// The demo accounts of a new store, as the README lists them.
public enum DemoAccounts {
  /// A confirmed account: `test@example.com` / `TestPassword123!`.
  public static let confirmed = (email: "test@example.com", password: "TestPassword123!")
  /// An account waiting for confirmation: `unverified@example.com` / `Test1234`.
  public static let unconfirmed = (email: "unverified@example.com", password: "Test1234")

  /// The demo passwords, and a decoy's password that was thrown away, hashed once at every
  /// cost the engine takes (``EngineConfiguration/hashCosts``): a new store takes them instead
  /// of spending three bcrypt rounds at start (at cost 14, some five seconds before the first
  /// prompt). The demo passwords are published in the README anyway; the decoy is what an
  /// unknown address is checked against, so that it costs what a wrong password costs, and
  /// what an account without a password holds.
  static let prehashed: [Int: Prehashed] = [
    Bcrypt.defaultCost: Prehashed(
      confirmed: "$2b$10$IYyadaR.BtYqQ9T6dzgAY.ieWMl2.UBWp/UukDFfSiNhQgyYqMG4y",
      unconfirmed: "$2b$10$fP2ZaZGBSjXdm3XxhFJBZ.u91O6QFV/i6RSLhKpG8kCh8bu.fV0Fi",
      decoy: "$2b$10$b/.5sv1gSdcu3m4aJFQSyOnvyOWPfwB20uKXQ/8Jbtt5DlZ404jY6"),
    Bcrypt.minimumCost: Prehashed(
      confirmed: "$2b$04$sgmMmkasE9fPVutSxG/cZu9.kdvVFGe1Ph6n3zJt6qxmde7kUyeTG",
      unconfirmed: "$2b$04$FQdvYH1FWQVYCnjMPtCkVu/6O0nRegU9nfTkSTchl9Q3Q6kRrsxqe",
      decoy: "$2b$04$ksCXEcI2eQU/U3g1iAIdbeNtiCDmzzUlre36MUbEUHuO8LtTmS8uq"),
    5: Prehashed(
      confirmed: "$2b$05$PIIgM9f35Utj7W5pBhN01.h.LU/Vcj9TGvhpBa3xgFyp8tyPJyllO",
      unconfirmed: "$2b$05$5EWf2My7OsA7Ej3T7qdSH.4pF5q5RzSJ.GTD0GvyD7Xe0qry0vyui",
      decoy: "$2b$05$staG7mBGYyYgWA1tiwZNiOfKL8/k/MyN2NOuWZzyoEkWZ8IaVIWyq"),
    6: Prehashed(
      confirmed: "$2b$06$Sm2O7zXaY6bwnITkgVePQu4TNyPnuHA1ld/5PZnJYJ8l7ktOJ41va",
      unconfirmed: "$2b$06$Av59NXzINUzfNzHUgpmTKOVbJSL0HhYQ7SU7vz.n0TSoD2cMuSxmC",
      decoy: "$2b$06$6ARpEhergjJV6p1qUxLPbu9Q3NkrpL5D6HcQKpA10hfUtMNIBbSNW"),
    7: Prehashed(
      confirmed: "$2b$07$mhn28FWm09B9z4r5KI4c6.mK.k6PSu0YWi3VxRwfKBzMDmDLMQriW",
      unconfirmed: "$2b$07$eDFt.4RdMo0KQr33jruD..f6RG6o6snTDneL3OcNZ7JBxNQfd1Dqu",
      decoy: "$2b$07$5u9cpGwlVfE79DIzhwmupOeya8FEkdeM0mbGkj0TQNBG/SxBqnO8."),
    8: Prehashed(
      confirmed: "$2b$08$LjJ2cA0YgBuwW5.eTqg1XebtrY9yREkvLmkyEVqddABprNN5NaPFa",
      unconfirmed: "$2b$08$LmD9e77xTW9R53H1l.m8aOZfhLXkXsT5tkDw4.NO0/57c23HT0wXK",
      decoy: "$2b$08$5/08JvEvP.mUZcozVhCJpe1GomtZc.07CmeZNDMtzHjmWNrRQr5mu"),
    9: Prehashed(
      confirmed: "$2b$09$lteVMnTQzhmsICmsog1.SOd3KMhgSDj8DVQO8MNjCS1QZnHaDKCjK",
      unconfirmed: "$2b$09$HorqHgnweuBJPbNCZI9emuZE094E.mh0Sgx7E4cNNqm1chHFY7oNK",
      decoy: "$2b$09$EA011jV3r5fjt.sGmUYnFeIQ8c4dYadoiNLdEwKpcBgTcXWyPj0Hi"),
    11: Prehashed(
      confirmed: "$2b$11$aFQj1veVohJE0l8lhaM1QurvSRZOv8wMAFK6zyCw6gC6JIujf6XlW",
      unconfirmed: "$2b$11$i9u9o1tfOx.APFgyzXkVWeeGN3wwZnXpbEjKdnmWIAXBI1OalLrUy",
      decoy: "$2b$11$.k6SR3dtVDxM5wW6z.2tfeHk3LUPZgHx5wCj.6jbjBpAsiHuqYoMa"),
    12: Prehashed(
      confirmed: "$2b$12$v8Wc3JEF3UYpGr6otfEqrOci2lyE24xUKZx7mR3J9uzwosZt9XpHu",
      unconfirmed: "$2b$12$VVSOxkEFEywbcvHZrpYglelcFgJWoKSbkn3AY0AAoWyhoBkQkAqCu",
      decoy: "$2b$12$KWKJactqnPSXJ8eCz4o0ye/iaSMgJ2TZDlcbCN4x9enJINlFmKJzK"),
    13: Prehashed(
      confirmed: "$2b$13$W0TEz6H9mxptgW99Xj2bZeEoKFnGeQyCInshIXZsXR.RTVOeJQiXi",
      unconfirmed: "$2b$13$K8lxG4uBE23e4KwAij8sF.siXBNcdx0.Meok/gXbGXxYgc07HG6Ve",
      decoy: "$2b$13$ksYqNbxuSJ.KToQCy5qT.Or3B.c1luC5Wbbc1ItmkGyV.GJX8yaIO"),
    14: Prehashed(
      confirmed: "$2b$14$R165M62QiK.EJEjz10vOR.xhQaH82haV.xGtSaYD0q54yzX10NSB2",
      unconfirmed: "$2b$14$Ve4lpdVHu1H7veHkI.FY/.W6d3JmiTtyd/5.XG4qgt3ZvxLH34/0q",
      decoy: "$2b$14$1V5JHgpt.rlr9eaQVyJ1DOyTzl0E1RmywUK1gcEOAuxRA5lnn/d.q"),
  ]

  /// The hashes a new store at one cost starts with.
  struct Prehashed: Sendable {
    /// ``confirmed``'s password.
    var confirmed: String
    /// ``unconfirmed``'s password.
    var unconfirmed: String
    /// The decoy's.
    var decoy: String
  }
}

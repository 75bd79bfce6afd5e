import AccountStore
import AuthCrypto
import GoTrue
import GoTrueEngine
import IdentityToolkit
import Synchronization

/// The engine seen through the Firebase Auth emulator's REST surface: the same store, users
/// and sessions, with Firebase's rules and error codes (`IdentityToolkitError`).
///
/// What differs from GoTrue's surface: a user signs in at once, confirmed or not; ID tokens
/// carry Firebase's claims (signed like the engine's access tokens); out-of-band codes are
/// opaque 54-character codes instead of 6 digits. A user made on either surface can use the
/// other.
package struct FirebaseEmulation: Sendable {
  /// The engine underneath.
  package let engine: EmbeddedGoTrue
  /// The one project served (`iss` and `aud` of the ID tokens).
  package let projectID: String
  /// Where the links of out-of-band codes lead: the server's URL (`http://127.0.0.1:9099`).
  package let linkBase: String
  let state = FirebaseEmulationState()

  /// The emulation of `projectID` on `engine`, with links to `linkBase`.
  package init(engine: EmbeddedGoTrue, projectID: String, linkBase: String) {
    self.engine = engine
    self.projectID = projectID
    self.linkBase = linkBase
  }

  /// The project's settings: whether sign-in hides which emails have accounts
  /// (`emailPrivacyConfig.enableImprovedEmailPrivacy`, off as in the emulator).
  package var improvedEmailPrivacy: Bool {
    get { state.config.withLock { $0.improvedEmailPrivacy } }
    nonmutating set { state.config.withLock { $0.improvedEmailPrivacy = newValue } }
  }

  /// The Secure Token issuer of the project's ID tokens.
  package var issuer: String { "https://securetoken.google.com/\(projectID)" }

  // MARK: Running against the store

  /// Runs `body` in one write transaction; a thrown `IdentityToolkitError` undoes the body's
  /// writes and is rethrown as it is. The emulator has no rate limits: nothing is spent.
  func write<T: Sendable>(_ body: (EngineAccounts, Int64) throws -> T)
    throws(IdentityToolkitError) -> T
  {
    try run(inTransaction: true, body)
  }

  /// Runs `body` with the store, outside a transaction (reads).
  func read<T: Sendable>(_ body: (EngineAccounts, Int64) throws -> T)
    throws(IdentityToolkitError) -> T
  {
    try run(inTransaction: false, body)
  }

  private func run<T: Sendable>(inTransaction: Bool, _ body: (EngineAccounts, Int64) throws -> T)
    throws(IdentityToolkitError) -> T
  {
    let now = engine.nowMillis
    let outcome: Result<T, IdentityToolkitError>
    do {
      let attempt = { (accounts: EngineAccounts) throws -> Result<T, IdentityToolkitError> in
        do {
          // A refusal undoes the body's writes; the transaction itself goes on to commit.
          guard inTransaction else { return .success(try body(accounts, now)) }
          return .success(try accounts.undoingOnAnyFailure { try body(accounts, now) })
        } catch let error as IdentityToolkitError {
          return .failure(error)
        }
      }
      outcome =
        try inTransaction
        ? engine.writeThrowingAny(attempt) : engine.withDatabaseThrowingAny(attempt)
    } catch {
      throw Self.translated(error)
    }
    return try outcome.get()
  }

  /// A failure of the engine in Firebase's terms: a spent rate limit is
  /// `TOO_MANY_ATTEMPTS_TRY_LATER`; a store that cannot be written is `503 UNAVAILABLE`.
  static func translated(_ failure: GoTrueFailure) -> IdentityToolkitError {
    switch failure {
    case .api(let error):
      if [.overRequestRateLimit, .overEmailSendRateLimit].contains(error.code) {
        return .badRequest(.tooManyAttempts, error.message)
      }
      let code = IdentityToolkitErrorCode(rawValue: error.code?.rawValue.uppercased() ?? "UNKNOWN")
      return error.status == 503
        ? IdentityToolkitError(
          status: 503, code: code, detail: error.message, statusName: "UNAVAILABLE")
        : IdentityToolkitError(
          status: 500, code: code, detail: error.message, statusName: "UNKNOWN")
    case .transport(let reason):
      return IdentityToolkitError(
        status: 503, code: "UNAVAILABLE", detail: reason, statusName: "UNAVAILABLE")
    case .malformedResponse(let reason):
      return IdentityToolkitError(
        status: 500, code: "UNKNOWN", detail: reason, statusName: "UNKNOWN")
    }
  }

  /// bcrypt off the store's lock, failures in Firebase's terms.
  func hash(_ password: String) throws(IdentityToolkitError) -> String {
    do {
      return try engine.hashPassword(password)
    } catch {
      throw Self.translated(error)
    }
  }

  // MARK: Rules

  /// `email` lowercased, or `INVALID_EMAIL`: Firebase's `something@something`, then GoTrue's
  /// stricter format, so that every address works on both surfaces.
  func validatedEmail(_ email: String) throws(IdentityToolkitError) -> String {
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
      email.utf8.count <= EmailRules.maximumLength, EmailRules.isWellFormed(email)
    else { throw .badRequest(.invalidEmail) }
    return EmailRules.normalized(email)
  }

  /// `WEAK_PASSWORD` below the engine's minimum length, and
  /// `PASSWORD_DOES_NOT_MEET_REQUIREMENTS` beyond bcrypt's 72 bytes.
  func checkPassword(_ password: String) throws(IdentityToolkitError) {
    let minimum = engine.configuration.minimumPasswordLength
    if password.count < minimum {
      throw .badRequest(.weakPassword, "Password should be at least \(minimum) characters")
    }
    let maximum = engine.configuration.maximumPasswordBytes
    if password.utf8.count > maximum || password.utf8.contains(0) {
      throw .badRequest(
        .passwordRequirements, "Password may not be longer than \(maximum) bytes")
    }
  }

  /// The account `id` (not soft-deleted by GoTrue's admin API), or `USER_NOT_FOUND`.
  func existingUser(_ id: String, _ database: EngineAccounts) throws -> UserRecord {
    guard let user = try database.user(id: id), user.deletedAt == nil else {
      throw IdentityToolkitError.badRequest(.userNotFound)
    }
    return user
  }

  /// The time a disabled account is banned until: the last millisecond of year 9999.
  static let disabledUntil: Int64 = 253_402_300_799_999
}

/// What the emulation keeps in this process only: the plaintext of the out-of-band codes it
/// made (to list them, as the emulator's `oobCodes` does; the store keeps only their hashes),
/// the project's configuration, and phone sign-in's codes: hashed while they wait, in plain
/// only in the list of texts (``FirebaseEmulation/text(_:)``).
final class FirebaseEmulationState: Sendable {
  let codes = Mutex<[FirebaseOutOfBandCode]>([])
  let config = Mutex(FirebaseProjectConfig())
  let phoneCodes = Mutex(FirebasePhoneCodes())
  let texts = Mutex<[FirebaseTextedCode]>([])

  /// How many codes are kept for the listing; the oldest go first.
  static let capacity = 1_000
}

/// An account as Firebase describes it.
package struct FirebaseAccount: Equatable, Sendable {
  /// The user's id (`localId`): a UUID unless an admin chose another.
  package var id: String
  /// The email, lowercased.
  package var email: String
  /// Whether the email is confirmed.
  package var emailVerified: Bool
  /// The display name.
  package var displayName: String?
  /// The photo URL.
  package var photoURL: String?
  /// The phone number, E.164 with its `+`.
  package var phoneNumber: String? = nil
  /// Whether the account is disabled (banned).
  package var disabled: Bool
  /// Whether the account has a password anyone knows.
  package var hasPassword: Bool
  /// Tokens issued before this second are refused (Unix seconds).
  package var validSince: Int64?
  /// When the account was made (Unix milliseconds).
  package var createdAt: Int64
  /// When the user last signed in (Unix milliseconds).
  package var lastLoginAt: Int64?
  /// When one of the user's sessions was last refreshed (Unix milliseconds).
  package var lastRefreshAt: Int64?
  /// When the password last changed through this surface (Unix milliseconds).
  package var passwordUpdatedAt: Int64?
  /// The account's first email, once it changed (`initialEmail`).
  package var initialEmail: String? = nil
  /// The custom claims, as JSON text (`customAttributes`).
  package var customAttributes: String? = nil
  /// Whether the account signs in by email link (`emailLinkSignin`).
  package var emailLinkSignin = false
  /// Whether the account was made or signed in by a custom token (`customAuth`).
  package var customAuth = false
  /// The verified second factors (`mfaInfo`), oldest first.
  package var secondFactors: [FirebaseSecondFactor] = []
  /// The stored password hash (bcrypt's text) when the account has a password: what an
  /// export (`batchGet`) shows an admin, never a lookup.
  package var passwordHash: String? = nil
  /// The entries of other providers (`google.com`, …), oldest first.
  package var linkedProviders: [FirebaseLinkedProvider] = []
}

/// A signed-in user: the account, an ID token and the session's refresh token.
package struct FirebaseSession: Equatable, Sendable {
  /// The account.
  package var account: FirebaseAccount
  /// The ID token (an HS256 JWT with Firebase's claims).
  package var idToken: String
  /// The session's refresh token (the engine's, rotated on every use).
  package var refreshToken: String
  /// Seconds the ID token lives.
  package var expiresIn: Int
}

extension FirebaseEmulation {
  /// The account of `user` as it stands at `now`.
  func account(_ user: UserRecord, _ database: EngineAccounts, now: Int64) throws
    -> FirebaseAccount
  {
    let refreshed = try database.lastRefresh(ofUser: user.id)
    return FirebaseAccount(
      id: user.id, email: user.email, emailVerified: user.isConfirmed,
      displayName: user.displayName, photoURL: user.photoURL,
      phoneNumber: user.phone.map(FirebasePhoneNumber.shown), disabled: user.isBanned(at: now),
      hasPassword: user.passwordHash != engine.secrets.decoyHash,
      validSince: user.validSince.map { $0 / 1_000 }, createdAt: user.createdAt,
      lastLoginAt: user.lastSignInAt, lastRefreshAt: refreshed,
      passwordUpdatedAt: user.passwordUpdatedAt, initialEmail: user.initialEmail,
      customAttributes: user.customClaims, emailLinkSignin: user.emailLinkSignin,
      customAuth: user.customAuth,
      secondFactors: user.factors.filter { $0.status == "verified" }.map(FirebaseSecondFactor.init),
      passwordHash: user.passwordHash != engine.secrets.decoyHash ? user.passwordHash : nil,
      linkedProviders: try database.linkedIdentities(ofUser: user.id).map(
        FirebaseLinkedProvider.init))
  }
}

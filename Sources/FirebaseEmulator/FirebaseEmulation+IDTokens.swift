import AccountStore
import AuthCrypto
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// Sessions and the ID tokens that prove them: the emulator's claims (`generateJwt`), signed
/// with the store's secret where the emulator leaves its tokens unsigned, and checked strictly.
extension FirebaseEmulation {
  /// Opens a session for `user` begun by `method` and signs its first ID token.
  func startSession(
    for user: UserRecord, _ method: FirebaseSignInMethod, _ database: EngineAccounts, now: Int64
  ) throws -> FirebaseSession {
    let (info, refreshToken) = try engine.openSession(
      for: user, method: .firebase, in: database, now: now)
    try database.setFirebaseSignIn(
      session: info.id, provider: method.provider,
      claims: FirebaseCustomClaims.serialized(method.claims))
    // A session begun with a second factor is aal2 on GoTrue's terms too: one rule for both.
    if let factorID = method.secondFactor {
      try engine.recordProof(of: "totp", inSession: info.id, database, now: now)
      try database.raiseToAAL2(session: info.id, by: factorID)
    }
    return try session(for: user, info, method, refreshToken: refreshToken, database, now: now)
  }

  /// How the session `id` began, as its refresh tokens carry it on (a session of a version
  /// that did not keep it began with a password), with the second factor it proved while that
  /// factor lasts.
  func signInMethod(ofSession id: String, _ database: EngineAccounts) throws
    -> FirebaseSignInMethod
  {
    let stored = try database.session(id: id)
    return FirebaseSignInMethod(
      provider: stored?.firebaseProvider ?? FirebaseSignInMethod.password.provider,
      claims: FirebaseCustomClaims.stored(stored?.firebaseClaims),
      secondFactor: stored?.aal == "aal2" ? stored?.factorID : nil)
  }

  /// The session `info` of `user` with an ID token signed at `now`.
  func session(
    for user: UserRecord, _ info: EmbeddedGoTrue.SessionInfo, _ method: FirebaseSignInMethod,
    refreshToken: String, _ database: EngineAccounts, now: Int64
  ) throws -> FirebaseSession {
    let lifetime = Int(engine.configuration.accessTokenLifetime)
    let account = try account(user, database, now: now)
    let claims = idTokenClaims(
      for: user, linked: account.linkedProviders, session: info.id, method,
      authTime: account.lastLoginAt ?? account.lastRefreshAt, lifetime: lifetime, now: now)
    return FirebaseSession(
      account: account, idToken: JSONWebToken.sign(claims, secret: engine.secrets.jwt),
      refreshToken: refreshToken, expiresIn: lifetime)
  }

  /// Throws `CLAIMS_TOO_LARGE` when an ID token of `user` begun by `method` would be longer
  /// than ``EngineConfiguration/maximumTokenBytes``: the profile and claims are in every token,
  /// and one the server cannot read back in a header would lock the user out. Call after
  /// writing the user, inside the write's transaction, so the write is undone.
  func checkIDTokenFits(_ user: UserRecord, _ method: FirebaseSignInMethod = .password)
    throws(IdentityToolkitError)
  {
    let claims = idTokenClaims(
      for: user, linked: [], session: UUIDText.placeholder, method, authTime: nil, lifetime: 0,
      now: Int64(Int32.max) * 1_000)
    let length = JSONWebToken.length(ofTokenWith: claims)
    let maximum = engine.configuration.maximumTokenBytes
    guard length > maximum else { return }
    throw .badRequest(
      .claimsTooLarge,
      "the profile and custom claims would make an ID token of \(length) bytes, over the "
        + "\(maximum) a request header may carry")
  }

  /// The emulator's claims, in its layers: `name` and `picture`, then the account's custom
  /// claims, then the session's (a custom token's), then the reserved ones (`email`,
  /// `email_verified`, `phone_number`, `provider_id` for anonymous sessions, `auth_time` (the
  /// last sign-in, Unix seconds), `user_id`, `firebase` (with the raw ids of `linked`
  /// providers and the number among `identities`), `iss`, `aud`, `sub`, `iat`, `exp`), and the
  /// engine's `session_id`, so that revoking a session ends its tokens.
  private func idTokenClaims(
    for user: UserRecord, linked: [FirebaseLinkedProvider], session: String,
    _ method: FirebaseSignInMethod, authTime: Int64?, lifetime: Int, now: Int64
  ) -> [String: JSONValue] {
    var claims: [String: JSONValue] = [:]
    if let name = user.displayName { claims["name"] = .string(name) }
    if let picture = user.photoURL { claims["picture"] = .string(picture) }
    claims.merge(FirebaseCustomClaims.stored(user.customClaims)) { $1 }
    claims.merge(method.claims) { $1 }
    var identities: [String: JSONValue] = [:]
    if !user.email.isEmpty {
      claims["email"] = .string(user.email)
      identities["email"] = .array([.string(user.email)])
    }
    // An account with no address has no verification to speak of (the emulator leaves it
    // unset for anonymous and custom-token accounts).
    if !user.email.isEmpty || user.isConfirmed {
      claims["email_verified"] = .bool(user.isConfirmed)
    }
    for provider in linked {
      identities[provider.providerID] = .array([.string(provider.rawID)])
    }
    if let phone = user.phone.map(FirebasePhoneNumber.shown) {
      claims["phone_number"] = .string(phone)
      identities["phone"] = .array([.string(phone)])
    }
    if method.provider == FirebaseSignInMethod.anonymous.provider {
      claims["provider_id"] = .string(method.provider)
    }
    let issuedAt = Double(now / 1_000)
    claims["auth_time"] = .number(Double((authTime ?? now) / 1_000))
    claims["user_id"] = .string(user.id)
    var firebase: [String: JSONValue] = [
      "identities": .object(identities), "sign_in_provider": .string(method.provider),
    ]
    if let factorID = method.secondFactor {
      firebase["sign_in_second_factor"] = .string("totp")
      firebase["second_factor_identifier"] = .string(factorID)
    }
    claims["firebase"] = .object(firebase)
    claims["iss"] = .string(issuer)
    claims["aud"] = .string(projectID)
    claims["sub"] = .string(user.id)
    claims["iat"] = .number(issuedAt)
    claims["exp"] = .number(issuedAt + Double(lifetime))
    claims["session_id"] = .string(session)
    return claims
  }

  /// The user of `idToken`, checked strictly: signed with the store's secret (HS256 only),
  /// issued for this project with Firebase's claims, else `INVALID_ID_TOKEN`; then, in the
  /// emulator's order, `USER_NOT_FOUND`, `TOKEN_EXPIRED` (issued before `validSince`),
  /// `USER_DISABLED`; and, beyond the emulator, `TOKEN_EXPIRED` once `exp` has passed or its
  /// session has ended (signed out, revoked).
  func verifiedUser(idToken: String, _ database: EngineAccounts, now: Int64) throws
    -> (user: UserRecord, claims: [String: JSONValue])
  {
    let invalid = IdentityToolkitError.badRequest(.invalidIDToken)
    guard !idToken.isEmpty,
      // NB: `exp` is checked below, after the user, in the emulator's order of answers.
      let claims = try? JSONWebToken.verify(idToken, secret: engine.secrets.jwt, now: nil),
      claims["iss"]?.stringValue == issuer, claims["aud"]?.stringValue == projectID,
      claims["firebase"]?.objectValue != nil,
      let id = claims["sub"]?.stringValue, !id.isEmpty,
      let issuedAt = claims["iat"]?.numberValue, let expiry = claims["exp"]?.numberValue,
      // A token issued, or valid from, a time still to come is not one this server made.
      issuedAt <= Double(now / 1_000),
      (claims["nbf"]?.numberValue).map({ $0 <= Double(now / 1_000) }) ?? (claims["nbf"] == nil)
    else { throw invalid }
    let user = try existingUser(id, database)
    if let validSince = user.validSince, issuedAt < Double(validSince / 1_000) {
      throw IdentityToolkitError.badRequest(.tokenExpired)
    }
    if user.isBanned(at: now) { throw IdentityToolkitError.badRequest(.userDisabled) }
    if expiry <= Double(now / 1_000) { throw IdentityToolkitError.badRequest(.tokenExpired) }
    if let sessionID = claims["session_id"]?.stringValue {
      if try database.session(id: sessionID, ofUser: user.id) == nil {
        throw IdentityToolkitError.badRequest(.tokenExpired)
      }
    }
    return (user, claims)
  }

  /// Applies a new `validSince` (Unix seconds) to the sessions of `user`: a session whose
  /// latest tokens were issued before that second ends, refresh token and all (its ID tokens
  /// are refused by `validSince` already); one refreshed in that very second goes on, as its
  /// ID token does in the emulator (`iat >= validSince`).
  func revokeSessions(of user: String, through validSince: Int64, _ database: EngineAccounts)
    throws
  {
    try database.deleteSessions(ofUser: user, refreshedBefore: validSince * 1_000)
  }
}

/// How a Firebase session began: the provider its ID tokens name
/// (`firebase.sign_in_provider`), a custom token's claims, which every token of the session
/// carries (the emulator keeps both in its refresh tokens), and the TOTP factor proved as the
/// second step (`firebase.second_factor_identifier`).
struct FirebaseSignInMethod: Equatable, Sendable {
  var provider: String
  var claims: [String: JSONValue] = [:]
  var secondFactor: String?

  /// An email and password (or an email link).
  static let password = Self(provider: "password")
  /// An anonymous sign-up.
  static let anonymous = Self(provider: "anonymous")
  /// A texted code (or a proof of the number).
  static let phone = Self(provider: "phone")

  /// A custom token, with its claims.
  static func custom(_ claims: [String: JSONValue]) -> Self {
    Self(provider: "custom", claims: claims)
  }

  /// The method an ID token's claims name; `password` when they name none.
  init(idTokenClaims claims: [String: JSONValue]) {
    let firebase = claims["firebase"]?.objectValue
    provider = firebase?["sign_in_provider"]?.stringValue ?? Self.password.provider
    secondFactor = firebase?["second_factor_identifier"]?.stringValue
  }

  init(provider: String, claims: [String: JSONValue] = [:], secondFactor: String? = nil) {
    self.provider = provider
    self.claims = claims
    self.secondFactor = secondFactor
  }
}

import AuthFlow
import Clocks
import IdentityToolkit
import SavedSessions

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The app's ``AuthService`` on Firebase Authentication (seed 003's ClarityPulse plan): the
/// calls the Firebase SDKs make for email and password, with the session in a `SessionStore`.
///
/// Firebase signs a new user in at once and emails the verification link; reset codes travel
/// only in links (`oobCode`); signing out is local, as `Auth.signOut` is (Firebase has no
/// server sign-out).
public final class FirebaseAuthService: AuthService {
  /// How close to expiry a restored session is renewed instead of used, in seconds.
  public static let refreshLeeway: TimeInterval = 60
  /// How close to expiry ``currentIDToken(forcingRefresh:)`` renews the token, in seconds (the
  /// Firebase SDKs' five minutes).
  public static let tokenRefreshMargin: TimeInterval = 300

  private let client: FirebaseClient
  private let sessions: any SessionStore
  private let clock: any AuthClock

  /// A service that talks to `client`, keeps the session in `sessions` and reads time from
  /// `clock`.
  public init(
    client: FirebaseClient, sessions: any SessionStore, clock: any AuthClock = SystemClock()
  ) {
    self.client = client
    self.sessions = sessions
    self.clock = clock
  }

  /// Firebase's reset codes are the opaque `oobCode` of the emailed link.
  public var resetCodeFormat: ResetCodeFormat { .link }

  /// Signs in and saves the session.
  public func signIn(email: String, password: String) async throws(AuthError) -> AuthSession {
    let answer = try await call(.signIn) { () async throws(FirebaseFailure) in
      try await client.signIn(email: email, password: password)
    }
    return keep(AuthSession(firebase: answer, now: clock.now))
  }

  /// Creates the account, which signs it in; sets the display name "First Last" when names
  /// are given, and emails the verification link (seed 003's `register`).
  ///
  /// Once the account exists the signup has succeeded: a failure to set the name is not
  /// reported, since a retry would only hear `EMAIL_EXISTS`; an email that could not be sent is
  /// said so (``SignUpResult/signedInVerificationNotSent(_:)``), never announced as sent
  /// (`resend` sends it again).
  public func signUp(_ request: SignUpRequest) async throws(AuthError) -> SignUpResult {
    let answer = try await call(.signUp) { () async throws(FirebaseFailure) in
      try await client.signUp(email: request.email, password: request.password)
    }
    var session = keep(AuthSession(firebase: answer, now: clock.now))
    if let name = Self.displayName(request),
      let info = try? await client.updateProfile(idToken: answer.idToken, displayName: name)
    {
      session.user.metadata[AuthUser.displayNameKey] = info.displayName ?? name
      if let idToken = info.idToken, let refreshToken = info.refreshToken {
        session.accessToken = idToken
        session.refreshToken = refreshToken
      }
      session = keep(session)
    }
    do {
      _ = try await client.sendEmailVerification(idToken: session.accessToken)
    } catch {
      return .signedInVerificationNotSent(session)
    }
    return .signedInPendingConfirmation(session)
  }

  /// Emails a reset link. An unknown address succeeds as a known one does (`EMAIL_NOT_FOUND`
  /// is what projects without email-enumeration protection, and the emulator, answer).
  public func requestPasswordReset(email: String) async throws(AuthError) {
    do {
      _ = try await client.sendPasswordReset(email: email)
    } catch {
      if error.code == .emailNotFound { return }
      throw AuthError(error, during: .sendPasswordReset)
    }
  }

  /// The address a reset link's code was sent to (`accounts:resetPassword` with the code
  /// alone, which does not spend it).
  public func emailForResetCode(_ code: String) async throws(AuthError) -> String? {
    let info = try await call(.resetPassword) { () async throws(FirebaseFailure) in
      try await client.checkActionCode(code)
    }
    // A verification link's code opened as a reset link.
    if let type = info.requestType, type != "PASSWORD_RESET" { throw .otpRejected }
    return info.email.map(AuthValidation.normalizedEmail)
  }

  /// Spends the reset link's code on `newPassword`; the code alone says whose password it is.
  public func resetPassword(email: String, code: String, newPassword: String)
    async throws(AuthError)
  {
    _ = try await call(.resetPassword) { () async throws(FirebaseFailure) in
      try await client.resetPassword(oobCode: code, newPassword: newPassword)
    }
  }

  /// Applies the verification link's code; a saved session of that user is then renewed, so
  /// its `email_verified` is current.
  public func confirmEmail(email: String, code: String) async throws(AuthError) {
    let info = try await call(.confirmEmail) { () async throws(FirebaseFailure) in
      try await client.applyActionCode(code)
    }
    // The email is confirmed whatever happens to the renewal.
    _ = try? await sessions.exclusively { () async throws(AuthError) -> Bool in
      guard let stored = sessions.load(),
        stored.user.id == info.localId || Self.sameEmail(stored.user.email, info.email)
      else { return false }
      _ = try await renew(stored)
      return true
    }
  }

  /// Sends the verification email again, to the signed-in user: Firebase sends it only with
  /// the user's ID token. With no saved session for `email` nothing is sent and nothing is
  /// said, as GoTrue's resend reveals nothing about an address.
  public func resendConfirmation(email: String) async throws(AuthError) {
    try await sessions.exclusively { () async throws(AuthError) in
      guard var session = sessions.load(), Self.sameEmail(session.user.email, email) else {
        return
      }
      if session.isExpired(at: clock.now, leeway: Self.refreshLeeway) {
        session = try await renew(session)
      }
      do throws(AuthError) {
        try await sendVerification(session)
      } catch .sessionExpired {
        // An ID token revoked by a password change: a renewed one is accepted.
        try await sendVerification(try await renew(session))
      }
    }
  }

  /// Exchanges the refresh token at Secure Token; the new ID token carries the current
  /// `email_verified` (how `reload` re-checks it). A refused one forgets the saved session.
  public func refresh(_ session: AuthSession) async throws(AuthError) -> AuthSession {
    try await renew(session)
  }

  /// The saved session, renewed when it expires within a minute. Offline, a session that has
  /// not expired yet is kept (as apps work offline).
  public func restoreSession() async throws(AuthError) -> AuthSession? {
    try await sessions.exclusively { () async throws(AuthError) -> AuthSession? in
      guard let stored = sessions.load() else { return nil }
      guard stored.isExpired(at: clock.now, leeway: Self.refreshLeeway) else { return stored }
      do throws(AuthError) {
        return try await renew(stored)
      } catch .networkUnavailable where !stored.isExpired(at: clock.now) {
        return stored
      }
    }
  }

  /// Forgets the session: Firebase's `signOut` is local, and its tokens stay valid until
  /// they expire.
  public func signOut(_ session: AuthSession) async throws(AuthError) {
    forgetSession()
  }

  /// Forgets the saved session.
  public func forgetSession() {
    sessions.clear()
  }

  /// Nothing to tell: Firebase keeps no session to end.
  public func endForgottenSession(_ session: AuthSession) async throws(AuthError) {}

  /// Deletes the account (`accounts:delete`), then forgets the session. Firebase asks for a
  /// recent sign-in first (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`, read as an expired session).
  public func deleteAccount(_ session: AuthSession) async throws(AuthError) {
    var current = session
    if current.isExpired(at: clock.now, leeway: Self.refreshLeeway) {
      current = try await renew(current)
    }
    let token = current.accessToken
    try await call(.deleteAccount) { () async throws(FirebaseFailure) in
      try await client.deleteAccount(idToken: token)
    }
    sessions.clear()
  }

  /// The user as `accounts:lookup` has them now, as `User.reload()` asks: whether the address
  /// is verified yet, without renewing the session.
  public func reloadUser(_ session: AuthSession) async throws(AuthError) -> AuthUser? {
    let token = session.accessToken
    let answer = try await call(.lookup) { () async throws(FirebaseFailure) in
      try await client.lookup(idToken: token)
    }
    // An ID token of a deleted user finds no one, as the SDK's reload reports USER_NOT_FOUND.
    guard let found = answer.users?.first else { throw .sessionExpired }
    var user = session.user
    user.emailVerified = found.emailVerified ?? false
    if let email = found.email { user.email = email }
    return user
  }

  /// Sets the signed-in user's new password (`accounts:update`). Firebase revokes the old
  /// tokens and answers with new ones, which become the session; a sign-in too long ago
  /// (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`) ends it. Firebase sends no reauthentication code, so
  /// `nonce` is not used.
  public func updatePassword(_ session: AuthSession, newPassword: String, nonce: String?)
    async throws(AuthError) -> PasswordChangeResult
  {
    var current = session
    if current.isExpired(at: clock.now, leeway: Self.refreshLeeway) {
      current = try await renew(current)
    }
    let token = current.accessToken
    let answer: IdentityToolkitSetAccountInfo
    do {
      answer = try await client.updatePassword(idToken: token, password: newPassword)
    } catch {
      let mapped = AuthError(error, during: .updatePassword)
      if mapped == .sessionExpired { sessions.clear() }
      throw mapped
    }
    guard let idToken = answer.idToken, let refreshToken = answer.refreshToken else {
      return .changed(current)
    }
    return .changed(
      keep(
        current.renewed(
          idToken: idToken, refreshToken: refreshToken, expiresIn: answer.expiresIn ?? "",
          now: clock.now)))
  }

  /// A valid ID token for the app's API (seed 003's `getCurrentUserToken`, the
  /// `tokenProvider`): the saved session's, renewed first when it expires within five minutes
  /// or when `forcingRefresh`. Throws ``AuthError/sessionExpired`` when no one is signed in.
  public func currentIDToken(forcingRefresh: Bool = false) async throws(AuthError) -> String {
    try await sessions.exclusively { () async throws(AuthError) -> String in
      guard let stored = sessions.load() else { throw .sessionExpired }
      if forcingRefresh || stored.isExpired(at: clock.now, leeway: Self.tokenRefreshMargin) {
        return try await renew(stored).accessToken
      }
      return stored.accessToken
    }
  }

  // MARK: Helpers

  /// Renews `session` and saves the result; a refused refresh token forgets the saved session.
  private func renew(_ session: AuthSession) async throws(AuthError) -> AuthSession {
    do {
      let answer = try await client.refresh(refreshToken: session.refreshToken)
      return keep(session.renewed(by: answer, now: clock.now))
    } catch {
      let mapped = AuthError(error, during: .refresh)
      if mapped == .sessionExpired { sessions.clear() }
      throw mapped
    }
  }

  private func sendVerification(_ session: AuthSession) async throws(AuthError) {
    _ = try await call(.sendVerification) { () async throws(FirebaseFailure) in
      try await client.sendEmailVerification(idToken: session.accessToken)
    }
  }

  private func call<Value>(
    _ operation: FirebaseOperation, _ body: () async throws(FirebaseFailure) -> Value
  ) async throws(AuthError) -> Value {
    do {
      return try await body()
    } catch {
      throw AuthError(error, during: operation)
    }
  }

  private func keep(_ session: AuthSession) -> AuthSession {
    sessions.save(session)
    return session
  }

  /// "First Last" from the names given, or `nil` when there are none.
  static func displayName(_ request: SignUpRequest) -> String? {
    let parts = [request.firstName, request.lastName].compactMap { name in
      name.map { String($0.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }
    }.filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }

  private static func sameEmail(_ one: String, _ other: String?) -> Bool {
    guard let other else { return false }
    return AuthValidation.normalizedEmail(one) == AuthValidation.normalizedEmail(other)
  }
}

import AuthFlow
import Clocks
import GoTrue
import SavedSessions
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The app's ``AuthService`` over any GoTrue-speaking backend: the one place GoTrue answers
/// become app results, for the embedded engine and Supabase alike.
public final class GoTrueAuthService: AuthService {
  /// How close to expiry a stored session is refreshed instead of used (supabase-swift's 30 s).
  public static let refreshLeeway: TimeInterval = 30

  private let api: any GoTrueAPI
  private let sessions: any SessionStore
  private let clock: any AuthClock
  private let redirects: EmailRedirects
  /// The session a verified recovery code gave, kept until the new password is accepted, so a
  /// rejected password can be retried without spending a second code.
  private let recovery = Mutex<PendingRecovery?>(nil)

  private struct PendingRecovery {
    var email: String
    var code: String
    var session: GoTrueSession
  }

  /// A service that talks to `api`, keeps the session in `sessions` and reads time from `clock`;
  /// its emails' links lead to `redirects` once verified.
  public init(
    api: any GoTrueAPI, sessions: any SessionStore, clock: any AuthClock = SystemClock(),
    redirects: EmailRedirects = EmailRedirects()
  ) {
    self.api = api
    self.sessions = sessions
    self.clock = clock
    self.redirects = redirects
  }

  /// Signs in and saves the session.
  public func signIn(email: String, password: String) async throws(AuthError) -> AuthSession {
    let session = try await call(.signIn) { () async throws(GoTrueFailure) in
      try await api.signIn(email: email, password: password)
    }
    return keep(session)
  }

  /// Signs up; an answer with no identities is GoTrue's way of saying the email is taken.
  public func signUp(_ request: SignUpRequest) async throws(AuthError) -> SignUpResult {
    var data: [String: JSONValue] = [:]
    if let firstName = request.firstName { data["first_name"] = .string(firstName) }
    if let lastName = request.lastName { data["last_name"] = .string(lastName) }
    if let accepted = request.consentAcceptedAt {
      // What was accepted, and when, kept with the account.
      data["terms_accepted_at"] = .string(GoTrueCoding.timestamp(accepted))
      data["terms_accepted"] = .string("terms_of_service privacy_policy")
    }
    let response = try await call(.signUp) { () async throws(GoTrueFailure) in
      try await api.signUp(
        email: request.email, password: request.password, data: data,
        redirectTo: redirects.confirmation)
    }
    switch response {
    case .session(let session):
      return .signedIn(keep(session))
    case .user(let user):
      if let identities = user.identities, identities.isEmpty { throw .duplicateEmail }
      // GoTrue answers a repeated signup of an unconfirmed address with that account, created
      // earlier and sent its confirmation again; the first password stays.
      if let created = user.createdAt, let sent = user.confirmationSentAt,
        sent.timeIntervalSince(created) > 1
      {
        return .confirmationResentToExistingAccount
      }
      return .confirmationRequired
    }
  }

  /// Asks for a recovery code.
  public func requestPasswordReset(email: String) async throws(AuthError) {
    try await call(.recover) { () async throws(GoTrueFailure) in
      try await api.recover(email: email, redirectTo: redirects.recovery)
    }
  }

  /// Verifies the recovery code, sets the new password, then ends the recovery session so the
  /// user signs in with the new password.
  public func resetPassword(email: String, code: String, newPassword: String)
    async throws(AuthError)
  {
    let session = try await recoverySession(email: email, code: code)
    do {
      _ = try await api.updatePassword(newPassword, accessToken: session.accessToken, nonce: nil)
    } catch {
      let mapped = AuthError(error, during: .updatePassword)
      if mapped == .sessionExpired { recovery.withLock { $0 = nil } }
      throw mapped
    }
    recovery.withLock { $0 = nil }
    try? await api.logout(accessToken: session.accessToken, scope: .local)
  }

  /// The address a recovery link's token hash was sent to. GoTrue tells it only by spending
  /// the token (`POST /verify` with `token_hash`, as supabase clients' `verifyOtp` do), so the
  /// session it gives is kept for the new password. A bare 6-digit code names no account.
  public func emailForResetCode(_ code: String) async throws(AuthError) -> String? {
    guard Self.isLinkToken(code) else { return nil }
    let session = try await recoverySession(email: "", code: code)
    return session.user.email.map(AuthValidation.normalizedEmail)
  }

  /// The address a link's token was sent to, spent or not, when the API can tell (the embedded
  /// engine can; GoTrue's cannot).
  public func recipient(ofLinkCode code: String) async -> String? {
    guard Self.isLinkToken(code) else { return nil }
    return await api.recipient(ofLinkTokenHash: code).map(AuthValidation.normalizedEmail)
  }

  /// The session of a verified recovery `code`: the one kept from an earlier check of the same
  /// code while it is fresh, else a new one, kept for a retry.
  private func recoverySession(email: String, code: String) async throws(AuthError)
    -> GoTrueSession
  {
    let now = clock.now
    let pending = recovery.withLock { pending in
      pending.flatMap { pending in
        let fresh = Double(pending.session.expiresAt ?? 0) > now.timeIntervalSince1970
        // A link's token names its account alone; a code goes with its address.
        let sameAccount = pending.email == email || Self.isLinkToken(code)
        return sameAccount && pending.code == code && fresh ? pending.session : nil
      }
    }
    if let pending { return pending }
    let session = try await verify(.recovery, during: .verifyRecovery, email: email, code: code)
    let address = session.user.email.map(AuthValidation.normalizedEmail) ?? email
    recovery.withLock { $0 = PendingRecovery(email: address, code: code, session: session) }
    return session
  }

  /// Sets the signed-in user's new password (`PUT /user`); GoTrue keeps the session, so the
  /// user stays signed in with the answer's user. When GoTrue asks for reauthentication, the
  /// nonce is requested by email (`GET /reauthenticate`) for the next try.
  public func updatePassword(_ session: AuthSession, newPassword: String, nonce: String?)
    async throws(AuthError) -> PasswordChangeResult
  {
    let token = session.accessToken
    let user: GoTrueUser
    do {
      user = try await api.updatePassword(newPassword, accessToken: token, nonce: nonce)
    } catch {
      guard error.code == .reauthenticationNeeded else {
        throw forgettingEndedSession(AuthError(error, during: .updatePassword))
      }
      try await call(.updatePassword) { () async throws(GoTrueFailure) in
        try await api.reauthenticate(accessToken: token)
      }
      return .reauthenticationCodeSent
    }
    var changed = session
    changed.user = AuthUser(goTrue: user, fallbackEmail: session.user.email)
    sessions.save(changed)
    return .changed(changed)
  }

  /// `error`, after forgetting the stored session when it says the session ended.
  private func forgettingEndedSession(_ error: AuthError) -> AuthError {
    if error == .sessionExpired { sessions.clear() }
    return error
  }

  /// Confirms the email; the session the confirmation gives is ended, so the user signs in next.
  public func confirmEmail(email: String, code: String) async throws(AuthError) {
    let session = try await verify(.signup, during: .confirmEmail, email: email, code: code)
    try? await api.logout(accessToken: session.accessToken, scope: .local)
  }

  /// Deletes the account at the backend (authflow's `DELETE /user`), then forgets the
  /// session. A Supabase project answers 404 or 405: it needs a function for this.
  public func deleteAccount(_ session: AuthSession) async throws(AuthError) {
    do {
      try await api.deleteUser(accessToken: session.accessToken)
    } catch {
      if case .api(let failure) = error, [404, 405].contains(failure.status) {
        throw .accountDeletionUnavailable
      }
      throw AuthError(error, during: .refresh)
    }
    sessions.clear()
  }

  /// A 6-digit code is checked with its email; anything else is a link's token hash, which
  /// needs none (seed 004's links carry no email). A code without an email cannot be checked:
  /// the link it came in is not one the backend sent.
  private func verify(
    _ type: GoTrueOTPType, during operation: GoTrueOperation, email: String, code: String
  ) async throws(AuthError) -> GoTrueSession {
    let isLink = Self.isLinkToken(code)
    if !isLink, email.isEmpty { throw .linkInvalid }
    do {
      return isLink
        ? try await api.verify(type: type, tokenHash: code)
        : try await api.verify(type: type, email: email, token: code)
    } catch {
      throw AuthError(error, during: operation, fromLink: isLink)
    }
  }

  /// Whether `code` is a link's token hash rather than a typed code: GoTrue's are 56
  /// hexadecimal digits; anything of 16 characters or more is taken as one.
  private static func isLinkToken(_ code: String) -> Bool {
    code.utf8.count >= 16
  }

  /// Sends the confirmation email again.
  public func resendConfirmation(email: String) async throws(AuthError) {
    try await call(.resend) { () async throws(GoTrueFailure) in
      try await api.resend(type: .signup, email: email, redirectTo: redirects.confirmation)
    }
  }

  /// The session a server handed the app in a link, once `GET /user` accepts its access token
  /// (a link anyone could have written is not taken on trust); kept as a sign-in's is.
  public func session(from tokens: LinkTokens) async throws(AuthError) -> AuthSession {
    let user: GoTrueUser
    do {
      user = try await api.user(accessToken: tokens.accessToken)
    } catch {
      if case .transport = error { throw .networkUnavailable }
      throw .linkInvalid
    }
    let lifetime =
      tokens.expiresIn
      ?? tokens.expiresAt.map { max(0, $0 - Int(clock.now.timeIntervalSince1970)) }
      ?? AuthSession.defaultLifetime
    return keep(
      GoTrueSession(
        accessToken: tokens.accessToken, tokenType: "bearer", expiresIn: lifetime,
        expiresAt: tokens.expiresAt, refreshToken: tokens.refreshToken, user: user))
  }

  /// Rotates the refresh token; a refused one forgets the stored session.
  public func refresh(_ session: AuthSession) async throws(AuthError) -> AuthSession {
    do {
      return keep(try await api.refresh(refreshToken: session.refreshToken))
    } catch {
      let mapped = AuthError(error, during: .refresh)
      if mapped == .sessionExpired { sessions.clear() }
      throw mapped
    }
  }

  /// The stored session, refreshed when it is about to expire and checked with the backend.
  ///
  /// Unreachable backends keep an unexpired session (working offline, as apps do); a session
  /// the backend no longer knows is refreshed once, then forgotten.
  public func restoreSession() async throws(AuthError) -> AuthSession? {
    try await sessions.exclusively { () async throws(AuthError) -> AuthSession? in
      try await restore()
    }
  }

  private func restore() async throws(AuthError) -> AuthSession? {
    guard let stored = sessions.load() else { return nil }
    if stored.isExpired(at: clock.now, leeway: Self.refreshLeeway) {
      return try await refresh(stored)
    }
    do {
      let user = try await api.user(accessToken: stored.accessToken)
      var session = stored
      session.user = AuthUser(goTrue: user, fallbackEmail: stored.user.email)
      return session
    } catch {
      switch AuthError(error, during: .refresh) {
      case .networkUnavailable: return stored
      case .sessionExpired: return try await refresh(stored)
      case let other: throw other
      }
    }
  }

  /// Forgets the session locally first, then ends it at the backend (this device only).
  public func signOut(_ session: AuthSession) async throws(AuthError) {
    forgetSession()
    try await endForgottenSession(session)
  }

  /// Forgets the saved session, telling the backend nothing.
  public func forgetSession() {
    sessions.clear()
  }

  /// Ends `session` at the backend (this device only): GoTrue's logout revokes its refresh
  /// token. An access token that expired in the meantime is refused, and then there is
  /// nothing more to do from here.
  public func endForgottenSession(_ session: AuthSession) async throws(AuthError) {
    do {
      try await api.logout(accessToken: session.accessToken, scope: .local)
    } catch {
      let mapped = AuthError(error, during: .logout)
      // The session is gone either way; only a failure to reach the backend is worth telling.
      if mapped != .sessionExpired { throw mapped }
    }
  }

  // MARK: Helpers

  private func call<Value>(
    _ operation: GoTrueOperation, _ body: () async throws(GoTrueFailure) -> Value
  ) async throws(AuthError) -> Value {
    do {
      return try await body()
    } catch {
      throw AuthError(error, during: operation)
    }
  }

  private func keep(_ session: GoTrueSession) -> AuthSession {
    let converted = AuthSession(goTrue: session, now: clock.now)
    sessions.save(converted)
    return converted
  }
}

extension AuthSession {
  /// The app's session for a GoTrue session received at `now`.
  public init(goTrue session: GoTrueSession, now: Date) {
    let expiresAt =
      session.expiresAt.map { Date(timeIntervalSince1970: TimeInterval($0)) }
      ?? now.addingTimeInterval(TimeInterval(session.expiresIn))
    self.init(
      user: AuthUser(goTrue: session.user, fallbackEmail: ""),
      accessToken: session.accessToken, refreshToken: session.refreshToken, expiresAt: expiresAt,
      expiresIn: session.expiresIn, tokenType: session.tokenType)
  }
}

extension AuthUser {
  /// The app's user for a GoTrue user.
  public init(goTrue user: GoTrueUser, fallbackEmail: String) {
    // GoTrue copies the identity into user_metadata (email, sub, …): only the app's text is kept.
    let identityKeys: Set<String> = ["email", "sub", "email_verified", "phone_verified"]
    var metadata: [String: String] = [:]
    for (key, value) in user.userMetadata where !identityKeys.contains(key) {
      if let text = value.stringValue { metadata[key] = text }
    }
    self.init(
      id: user.id, email: user.email ?? fallbackEmail, emailConfirmedAt: user.emailConfirmedAt,
      metadata: metadata)
  }
}

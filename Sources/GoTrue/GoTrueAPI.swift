/// The GoTrue (Supabase Auth) endpoints authflow uses, as typed calls.
///
/// The embedded engine implements them in process; the Supabase backend over HTTPS. Both answer
/// with GoTrue's own shapes and codes, and ``GoTrueAuthService`` turns those into the app's
/// results in one place.
public protocol GoTrueAPI: Sendable {
  /// `POST /signup`; its confirmation link leads to `redirectTo` once verified (supabase
  /// clients' `emailRedirectTo`), or to the site URL when `nil` or not allowed.
  func signUp(
    email: String, password: String, data: [String: JSONValue], redirectTo: String?
  ) async throws(GoTrueFailure) -> GoTrueSignUpResponse

  /// `POST /token?grant_type=password`.
  func signIn(email: String, password: String) async throws(GoTrueFailure) -> GoTrueSession

  /// `POST /token?grant_type=refresh_token`.
  func refresh(refreshToken: String) async throws(GoTrueFailure) -> GoTrueSession

  /// `POST /recover`: answers the same for known and unknown emails; its link leads to
  /// `redirectTo` (supabase clients' `redirectTo`).
  func recover(email: String, redirectTo: String?) async throws(GoTrueFailure)

  /// `POST /verify` with an email and the code from its message.
  func verify(
    type: GoTrueOTPType, email: String, token: String
  ) async throws(GoTrueFailure) -> GoTrueSession

  /// `POST /verify` with the `token_hash` an emailed link carries (no email needed).
  func verify(type: GoTrueOTPType, tokenHash: String) async throws(GoTrueFailure) -> GoTrueSession

  /// `POST /resend`: answers the same whether or not anything was sent; its link leads to
  /// `redirectTo` (`emailRedirectTo`).
  func resend(type: GoTrueOTPType, email: String, redirectTo: String?) async throws(GoTrueFailure)

  /// `PUT /user` with a new password, and the `nonce` `GET /reauthenticate` emailed when a
  /// secure password change asks for one.
  func updatePassword(
    _ password: String, accessToken: String, nonce: String?
  ) async throws(GoTrueFailure) -> GoTrueUser

  /// `GET /reauthenticate`: emails the signed-in user a nonce for a password change.
  func reauthenticate(accessToken: String) async throws(GoTrueFailure)

  /// `POST /logout?scope=`.
  func logout(accessToken: String, scope: GoTrueLogoutScope) async throws(GoTrueFailure)

  /// `GET /user`.
  func user(accessToken: String) async throws(GoTrueFailure) -> GoTrueUser

  /// `DELETE /user`: the signed-in user deletes their own account with everything kept with
  /// it (seed 004's GDPR deletion). Not GoTrue's: authflow's engine and server have it; a
  /// Supabase project answers 404 or 405 and needs a database function instead.
  func deleteUser(accessToken: String) async throws(GoTrueFailure)

  /// The address the code of a link's `tokenHash` was sent to, spent or not, when the server
  /// can tell: so an app keeps a screen usable after a link that was used or expired. Not
  /// GoTrue's (its API answers nothing about a spent link); the embedded engine can.
  func recipient(ofLinkTokenHash tokenHash: String) async -> String?
}

extension GoTrueAPI {
  /// `POST /signup`, its link leading to the site URL.
  public func signUp(email: String, password: String, data: [String: JSONValue])
    async throws(GoTrueFailure) -> GoTrueSignUpResponse
  {
    try await signUp(email: email, password: password, data: data, redirectTo: nil)
  }

  /// `POST /recover`, its link leading to the site URL.
  public func recover(email: String) async throws(GoTrueFailure) {
    try await recover(email: email, redirectTo: nil)
  }

  /// `POST /resend`, its link leading to the site URL.
  public func resend(type: GoTrueOTPType, email: String) async throws(GoTrueFailure) {
    try await resend(type: type, email: email, redirectTo: nil)
  }

  /// GoTrue's API cannot tell.
  public func recipient(ofLinkTokenHash tokenHash: String) async -> String? { nil }
}

import AuthFlow
import GoTrue

extension EmbeddedGoTrue: GoTrueAPI {
  /// `POST /signup`.
  public func signUp(email: String, password: String, data: [String: JSONValue])
    async throws(GoTrueFailure) -> GoTrueSignUpResponse
  {
    try createAccount(email: email, password: password, data: data)
  }

  /// `POST /token?grant_type=password`.
  public func signIn(email: String, password: String) async throws(GoTrueFailure)
    -> GoTrueSession
  {
    try passwordGrant(email: email, password: password)
  }

  /// `POST /token?grant_type=refresh_token`.
  public func refresh(refreshToken: String) async throws(GoTrueFailure) -> GoTrueSession {
    try refreshSession(refreshToken)
  }

  /// `POST /recover`.
  public func recover(email: String) async throws(GoTrueFailure) {
    try sendRecovery(email: email)
  }

  /// `POST /verify`.
  public func verify(type: GoTrueOTPType, email: String, token: String)
    async throws(GoTrueFailure) -> GoTrueSession
  {
    try verifyCode(type: type, email: email, code: token)
  }

  /// `POST /resend`; only `signup` confirmations are resent.
  public func resend(type: GoTrueOTPType, email: String) async throws(GoTrueFailure) {
    guard type == .signup else {
      throw .api(
        GoTrueAPIError(
          status: 400, code: .validationFailed, message: "Missing one of these types: signup"))
    }
    try resendConfirmation(email: email)
  }

  /// `PUT /user` with a new password.
  public func updatePassword(_ password: String, accessToken: String)
    async throws(GoTrueFailure) -> GoTrueUser
  {
    try changePassword(password, accessToken: accessToken)
  }

  /// `POST /logout`.
  public func logout(accessToken: String, scope: GoTrueLogoutScope) async throws(GoTrueFailure) {
    try endSessions(accessToken: accessToken, scope: scope)
  }

  /// `GET /user`.
  public func user(accessToken: String) async throws(GoTrueFailure) -> GoTrueUser {
    try currentUser(accessToken: accessToken)
  }
}

extension EmbeddedGoTrue {
  /// The app-facing ``AuthService`` over this engine, keeping the session in `sessions`.
  public func authService(sessions: any SessionStore) -> GoTrueAuthService {
    GoTrueAuthService(api: self, sessions: sessions, clock: clock)
  }
}

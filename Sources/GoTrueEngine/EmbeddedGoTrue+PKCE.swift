import AccountStore
import AuthCrypto
import GoTrue

/// PKCE for emailed flows, as GoTrue does it (`internal/api/pkce.go`, `models/flow_state.go`,
/// `api/token.go` PKCE): a request that comes with a challenge keeps a flow state for the user
/// and the flow (`email/signup`, `recovery`, `magiclink`, `email_change`); its email's link
/// carries `pkce_<token hash>`; verifying that link gives an auth code instead of a session;
/// `POST /token?grant_type=pkce` exchanges the code and the verifier for the session, once.
///
/// Unlike GoTrue, which keeps the auth code in the row, only a keyed hash of it is stored, and
/// the code is made when the link is verified (the browser gets it then, and nobody before).
extension EmbeddedGoTrue {
  /// The prefix a PKCE link's token carries: such a token is found only as it is, so a link
  /// cannot be turned into the implicit flow's session by dropping the prefix.
  package static let pkcePrefix = "pkce_"

  /// Keeps a flow state for `userID` begun with `challenge` for `method`. Call inside a write
  /// transaction, with the email it goes with.
  func beginFlow(
    _ challenge: PKCEChallenge, method: SignInMethod, userID: String, _ database: EngineAccounts,
    now: Int64
  ) throws(GoTrueAPIError) {
    // Flow states outlive their use only as long as their codes could: then they go.
    let horizon =
      now - Int64(max(configuration.codeLifetime, configuration.flowStateLifetime) * 1_000)
    try database.insertFlowState(
      id: random.uuidString(), userID: userID, challenge: challenge, method: method, now: now,
      forgettingBefore: horizon)
  }

  /// The auth code of `user`'s newest flow state for `method`, made now (GoTrue's
  /// `issueAuthCode`): what `GET /verify` sends the browser back with.
  func issueAuthCode(userID: String, method: SignInMethod?, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError) -> String
  {
    guard let method,
      let flow = try database.newestFlowState(ofUser: userID, method: method)
    else {
      throw GoTrueAPIError(
        status: 400, code: .flowStateNotFound,
        message: "No associated flow state found. No valid flow state found for user.")
    }
    let code = random.uuidString()
    try database.setAuthCode(hash: authCodeHash(code), ofFlow: flow.id, now: now)
    return code
  }

  /// `POST /token?grant_type=pkce`: the session of the flow whose link gave `authCode`, for the
  /// client that holds the verifier of its challenge. The flow state is spent by a success
  /// only: a wrong verifier leaves it for the right one, as in GoTrue.
  @concurrent
  package func exchangeAuthCode(_ authCode: String, verifier: String)
    async throws(GoTrueFailure) -> GoTrueSession
  {
    guard !authCode.isEmpty, !verifier.isEmpty else {
      throw .api(
        GoTrueAPIError(
          status: 400, code: .validationFailed,
          message: "invalid request: both auth code and code verifier should be non-empty"))
    }
    let hash = authCodeHash(authCode)
    let lifetime = Int64(configuration.flowStateLifetime * 1_000)
    let (session, method) = try answer(spending: \.token) { database, now throws(GoTrueAPIError) in
      guard
        let flow = try database.flowState(authCodeHash: hash),
        let userID = flow.userID
      else {
        throw GoTrueAPIError(
          status: 404, code: .flowStateNotFound,
          message: "invalid flow state, no valid flow state found")
      }
      // A magic link's flow lives from when its code was issued, every other from its start.
      let start = flow.method == .magicLink ? (flow.codeIssuedAt ?? flow.createdAt) : flow.createdAt
      if now > start + lifetime {
        throw GoTrueAPIError(
          status: 422, code: .flowStateExpired,
          message: "invalid flow state, flow state has expired")
      }
      guard flow.challenge.verifies(verifier) else {
        throw GoTrueAPIError(
          status: 400, code: .badCodeVerifier,
          message: "code challenge does not match previously saved code verifier")
      }
      guard let user = try database.user(id: userID) else {
        throw GoTrueAPIError(
          status: 404, code: .flowStateNotFound,
          message: "invalid flow state, no valid flow state found")
      }
      try database.deleteFlowState(flow.id)
      return (
        try createSession(for: user, method: flow.method, in: database, now: now), flow.method
      )
    }
    return try await withHookClaims(session, method: method.rawValue, isNew: true)
  }

  /// The keyed hash an auth code is found by.
  private func authCodeHash(_ code: String) -> [UInt8] {
    HMAC.sha256(key: secrets.codes, message: Array("auth-code:\(code)".utf8))
  }
}

extension PKCEChallenge {
  /// Whether `verifier` is the one this challenge was made from, compared in constant time
  /// (`security.VerifyPKCEChallenge`).
  func verifies(_ verifier: String) -> Bool {
    let expected: [UInt8] =
      switch method {
      case .s256: Array(Base64URL.encode(SHA256.hash(verifier)).utf8)
      case .plain: Array(verifier.utf8)
      }
    return constantTimeEquals(Array(challenge.utf8), expected)
  }
}

extension SignInMethod {
  /// The flow a verification type's PKCE link belongs to (GoTrue's
  /// `ParseAuthenticationMethod`: any type ending in `signup` is a sign-up); `nil` for a type
  /// no flow state is kept for.
  init?(flowOf type: GoTrueOTPType) {
    switch type {
    case .signup: self = .emailSignup
    case .recovery: self = .recovery
    case .magiclink: self = .magicLink
    case .emailChange: self = .emailChange
    case .invite: self = .invite
    case .email: return nil
    }
  }
}

import GoTrue
import GoTrueEngine
import HTTPServer

/// GoTrue's `/factors` routes (`api/mfa.go`): TOTP factors enrolled, challenged, verified and
/// removed; phone and WebAuthn factors answered as GoTrue answers with them off (its default).
extension GoTrueRoutes {
  static let mfa: [Route] =
    [
      Route(.enrollFactor, enrollFactor), Route(.challengeFactor, challengeFactor),
      Route(.verifyFactor, verifyFactor), Route(.unenrollFactor, unenrollFactor),
    ] + mfaAdmin

  /// `POST /factors` `{factor_type, friendly_name?, issuer?}`.
  @Sendable static func enrollFactor(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let token = context.accessToken
    try context.engine.checkFactorAccess(accessToken: token)
    let body = try context.body().decode(GoTrueEnrollFactorBody.self)
    switch body.factorType ?? "" {
    case "totp":
      return Answer.json(
        try await context.engine.enrollTOTP(
          accessToken: token, friendlyName: body.friendlyName ?? "", issuer: body.issuer ?? ""))
    case "phone":
      throw disabled(.mfaPhoneEnrollNotEnabled, "MFA enroll is disabled for Phone")
    case "webauthn":
      throw disabled(.mfaWebAuthnEnrollNotEnabled, "MFA enroll is disabled for WebAuthn")
    default:
      throw .api(.invalid("factor_type needs to be totp, phone, or webauthn"))
    }
  }

  /// `POST /factors/{id}/challenge` (a TOTP challenge reads no body).
  @Sendable static func challengeFactor(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let token = context.accessToken
    if context.isLimited {
      // GoTrue limits a challenge once the user and the factor are found.
      try context.engine.checkFactorAccess(
        accessToken: token, factorID: context.parameter("factor_id"))
      try context.limit(.factorChallenge)
    }
    return Answer.json(
      try context.engine.challengeFactor(
        accessToken: token, factorID: context.parameter("factor_id"),
        clientIP: clientAddress(context.request)))
  }

  /// `POST /factors/{id}/verify` `{challenge_id, code}`: the session, raised to aal2.
  @Sendable static func verifyFactor(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let token = context.accessToken
    let factorID = context.parameter("factor_id")
    try context.engine.checkFactorAccess(accessToken: token, factorID: factorID)
    // GoTrue limits a verification once the user and the factor are found.
    try context.limit(.factorVerify)
    let body = try context.body().decode(GoTrueVerifyFactorBody.self)
    // Go reads `challenge_id` into a uuid.UUID: other text is bad JSON, none is the nil UUID.
    var challengeID = "00000000-0000-0000-0000-000000000000"
    if let text = body.challengeID {
      switch GoUUID.parse(text) {
      case .success(let id): challengeID = id
      case .failure(let invalid):
        throw .api(
          GoTrueAPIError(
            status: 400, code: .badJSON,
            message: "Could not parse request body as JSON: \(invalid.message)"))
      }
    }
    return Answer.json(
      try await context.engine.verifyFactor(
        accessToken: token, factorID: factorID, challengeID: challengeID,
        code: body.code ?? "", clientIP: clientAddress(context.request)))
  }

  /// `DELETE /factors/{id}`.
  @Sendable static func unenrollFactor(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    Answer.json(
      try context.engine.unenrollFactor(
        accessToken: context.accessToken, factorID: context.parameter("factor_id")))
  }

  /// The client's address, without its port: what a challenge is bound to. GoTrue takes the
  /// first address of `X-Forwarded-For` when there is one; a header any client can write
  /// would let a stolen challenge be answered from elsewhere, so the server takes the peer
  /// of the connection, which is the client on loopback, where the server runs.
  static func clientAddress(_ request: HTTPRequest) -> String {
    let peer = request.peer
    if peer.hasPrefix("["), let close = peer.firstIndex(of: "]") {
      return String(peer[peer.index(after: peer.startIndex)..<close])
    }
    guard let colon = peer.lastIndex(of: ":"), peer.firstIndex(of: ":") == colon else {
      return peer
    }
    return String(peer[..<colon])
  }

  private static func disabled(_ code: GoTrueErrorCode, _ message: String) -> GoTrueFailure {
    .api(GoTrueAPIError(status: 422, code: code, message: message))
  }
}

/// An error answer from a GoTrue server, whichever of its body shapes carried it.
public struct GoTrueAPIError: Error, Equatable, Hashable, Sendable {
  /// The HTTP status.
  public var status: Int
  /// The machine-readable code, when the server sent one.
  public var code: GoTrueErrorCode?
  /// The server's human-readable message; shown to developers, never to app users.
  public var message: String
  /// Why a password was called weak (`length`, `characters`, `pwned`).
  public var weakPasswordReasons: [String]
  /// Whether an `otp_expired` may also mean a wrong code: GoTrue answers it for both, and
  /// only authflow's server says which (``GoTrueErrorBody/otpReasonHeader``).
  public var otpReasonUnknown: Bool
  /// The RFC 6749 error (`invalid_grant`, `invalid_client`…) of an answer GoTrue writes in the
  /// OAuth shape, `{"error", "error_description"}` (its OAuth server's token endpoint), with
  /// ``message`` as the description; `nil` for GoTrue's own shapes.
  public var oauthError: String?

  /// An error with the given parts.
  public init(
    status: Int, code: GoTrueErrorCode?, message: String, weakPasswordReasons: [String] = [],
    otpReasonUnknown: Bool = false
  ) {
    self.status = status
    self.code = code
    self.message = message
    self.weakPasswordReasons = weakPasswordReasons
    self.otpReasonUnknown = otpReasonUnknown
  }

  /// An error in the OAuth shape, as GoTrue's `apierrors.NewOAuthError` makes one: always 400.
  public static func oauth(_ error: String, _ description: String) -> GoTrueAPIError {
    var answer = GoTrueAPIError(status: 400, code: nil, message: description)
    answer.oauthError = error
    return answer
  }
}

/// Why a GoTrue request failed.
public enum GoTrueFailure: Error, Equatable, Hashable, Sendable {
  /// The server answered with an error.
  case api(GoTrueAPIError)
  /// No answer came: connection refused, DNS, TLS, timeout. The text is for developers.
  case transport(String)
  /// An answer came that is not what GoTrue sends. The text is for developers.
  case malformedResponse(String)

  /// The wire code, when the server sent one.
  public var code: GoTrueErrorCode? {
    if case .api(let error) = self { error.code } else { nil }
  }
}

/// The PKCE challenge a client begins an emailed flow with (RFC 7636): a sign-up, recovery,
/// magic link or email change whose link then leads back with `?code=`, exchanged at
/// `POST /token?grant_type=pkce` with the verifier only that client holds.
///
/// GoTrue's checks (`internal/api/pkce.go`): both fields or neither; a challenge of 43 to 128
/// characters from `[A-Za-z0-9._~-]`. The method is read case-insensitively and kept lowercase.
public struct PKCEChallenge: Equatable, Hashable, Sendable {
  /// How the verifier is turned into the challenge.
  public enum Method: String, Sendable, Hashable {
    /// `BASE64URL(SHA-256(verifier))`, the one clients use.
    case s256
    /// The verifier itself.
    case plain
  }

  /// The challenge, as sent.
  public let challenge: String
  /// The method.
  public let method: Method

  /// A challenge already checked (from the store).
  public init(challenge: String, method: Method) {
    self.challenge = challenge
    self.method = method
  }

  /// GoTrue's shortest and longest challenge.
  public static let lengths = 43...128

  /// The challenge of a request's `code_challenge` and `code_challenge_method`: `nil` when both
  /// are missing or empty (the implicit flow), else checked as GoTrue checks them.
  public static func of(challenge: String?, method: String?) throws(GoTrueAPIError)
    -> PKCEChallenge?
  {
    let challenge = challenge ?? ""
    let methodText = method ?? ""
    guard challenge.isEmpty == methodText.isEmpty else {
      throw invalid("PKCE flow requires code_challenge_method and code_challenge")
    }
    guard !challenge.isEmpty else { return nil }
    guard lengths.contains(challenge.utf8.count) else {
      throw invalid(
        "code challenge has to be between \(lengths.lowerBound) and \(lengths.upperBound) characters"
      )
    }
    guard challenge.utf8.allSatisfy(isChallengeByte) else {
      throw invalid(
        "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes"
      )
    }
    // NB: GoTrue checks the method only when it writes the flow state, and answers an unknown
    // one with an unforeseen 500; here it is the same one-line 400 as the other checks.
    guard let method = Method(rawValue: methodText.lowercased()) else {
      throw invalid("unsupported code_challenge method \"\(methodText)\"")
    }
    return PKCEChallenge(challenge: challenge, method: method)
  }

  private static func isChallengeByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"), UInt8(ascii: "-"):
      true
    default:
      false
    }
  }

  private static func invalid(_ message: String) -> GoTrueAPIError {
    GoTrueAPIError(status: 400, code: .validationFailed, message: message)
  }
}

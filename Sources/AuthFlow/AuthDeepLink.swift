#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A link from an authentication email, as the app receives it when the link is tapped.
///
/// Links look like `<scheme>://auth/verify?token=123456&type=signup&email=…` and
/// `<scheme>://auth/reset?token=123456&type=recovery&email=…` (the links of the confirmation
/// and reset emails, with the email added so the app can fill in the form). A server that
/// verified the email's link itself sends the app on with the outcome in the fragment:
/// `<scheme>://auth/verify#access_token=…&refresh_token=…&type=signup`, or
/// `#error_code=otp_expired&error_description=…`.
public enum AuthDeepLink: Equatable, Hashable, Sendable {
  /// Confirms the email address of a new account.
  case confirmation(email: String, code: String)
  /// Opens the reset-verify form for a password reset.
  case recovery(email: String, code: String)
  /// The server verified the email's link and signed the user in (its tokens in the fragment).
  case signedIn(LinkTokens)
  /// The server could not verify the email's link (GoTrue's `error_code` in the fragment).
  case refused(errorCode: String)

  /// The email address the link was sent to; empty for links that carry none.
  public var email: String {
    switch self {
    case .confirmation(let email, _), .recovery(let email, _): email
    case .signedIn, .refused: ""
    }
  }

  /// Parses a link from an email, or says what is wrong with it.
  ///
  /// Firebase's action links (`https://…/__/auth/action?mode=resetPassword&oobCode=…`, and the
  /// emulator's `http://…/emulator/action?…`) carry no email: theirs is empty.
  public init(parsing text: String) throws(AuthDeepLinkError) {
    guard let components = URLComponents(string: text), let scheme = components.scheme,
      !scheme.isEmpty
    else { throw .notAnAuthLink }
    if ["http", "https"].contains(scheme.lowercased()),
      components.path.hasSuffix("/__/auth/action") || components.path == "/emulator/action"
    {
      let query = try Self.query(of: components)
      guard let mode = query["mode"] else { throw .missingParameter("mode") }
      guard let code = query["oobCode"], !code.isEmpty else {
        throw .missingParameter("oobCode")
      }
      let email = query["email"].map(AuthValidation.normalizedEmail) ?? ""
      switch mode {
      case "verifyEmail": self = .confirmation(email: email, code: code)
      case "resetPassword": self = .recovery(email: email, code: code)
      default: throw .unsupportedMode(mode)
      }
      return
    }
    // The app's own links (`<scheme>://auth/…`), and the server's (`https://…/verify?…`, with
    // the token hash GoTrue's emails carry and a `redirect_to`); the email is optional (seed
    // 004's links carry none), and then the code stands alone.
    let isServerLink =
      ["http", "https"].contains(scheme.lowercased()) && components.path.hasSuffix("/verify")
    guard components.host == "auth" || isServerLink else { throw .notAnAuthLink }
    if !isServerLink, let fragment = components.fragment, !fragment.isEmpty {
      self = try Self.landing(fragment: fragment)
      return
    }
    let query = try Self.query(of: components)
    guard let type = query["type"] else { throw .missingParameter("type") }
    guard let token = query["token"] ?? query["token_hash"], !token.isEmpty else {
      throw .missingParameter("token")
    }
    let normalized = query["email"].map(AuthValidation.normalizedEmail) ?? ""
    switch type {
    case "signup", "email": self = .confirmation(email: normalized, code: token)
    case "recovery": self = .recovery(email: normalized, code: token)
    default: throw .unsupportedType(type)
    }
  }

  /// Where a server sent the app after verifying an email's link: GoTrue's implicit-flow
  /// fragment, with the session or the error.
  private static func landing(fragment: String) throws(AuthDeepLinkError) -> AuthDeepLink {
    var parsed = URLComponents()
    parsed.percentEncodedQuery = fragment
    let values = try query(of: parsed.queryItems ?? [])
    if let code = values["error_code"] ?? values["error"] { return .refused(errorCode: code) }
    guard let access = values["access_token"], !access.isEmpty else {
      throw .missingParameter("access_token")
    }
    guard let refresh = values["refresh_token"], !refresh.isEmpty else {
      throw .missingParameter("refresh_token")
    }
    guard let type = values["type"] else { throw .missingParameter("type") }
    guard ["signup", "email", "magiclink", "invite"].contains(type) else {
      throw .unsupportedSessionType(type)
    }
    return .signedIn(
      LinkTokens(
        accessToken: access, refreshToken: refresh,
        expiresIn: values["expires_in"].flatMap(Int.init),
        expiresAt: values["expires_at"].flatMap(Int.init), type: type))
  }

  /// The link's query parameters; a repeated one or a control character is refused.
  private static func query(of components: URLComponents) throws(AuthDeepLinkError)
    -> [String: String]
  {
    try query(of: components.queryItems ?? [])
  }

  private static func query(of items: [URLQueryItem]) throws(AuthDeepLinkError)
    -> [String: String]
  {
    var query: [String: String] = [:]
    for item in items {
      // A parameter given twice is ambiguous: which one a reader takes is not for a link to
      // decide, so such a link is refused.
      guard query[item.name] == nil else { throw .repeatedParameter(item.name) }
      // A parameter that decodes to a control character is not from an email the app sent.
      if let value = item.value,
        value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        )
      {
        throw .controlCharacter(item.name)
      }
      if let value = item.value { query[item.name] = value }
    }
    return query
  }
}

/// Why a piece of text is not a usable authentication link.
public enum AuthDeepLinkError: Error, Equatable, Sendable {
  /// The text is not a `<scheme>://auth/…` link.
  case notAnAuthLink
  /// A required query parameter is missing.
  case missingParameter(String)
  /// The `type` parameter is neither `signup` nor `recovery`.
  case unsupportedType(String)
  /// A server's link into the app carries a session of a kind the app does not sign in with.
  case unsupportedSessionType(String)
  /// The `mode` of a Firebase action link is neither `verifyEmail` nor `resetPassword`.
  case unsupportedMode(String)
  /// A parameter appears more than once.
  case repeatedParameter(String)
  /// A parameter holds a control character once decoded.
  case controlCharacter(String)

  /// A one-line explanation with the expected form.
  public var message: String {
    let expected = "expected <scheme>://auth/verify?token=…&type=signup&email=…"
    return switch self {
    case .notAnAuthLink: "not an authentication link; \(expected)"
    case .missingParameter(let name): "the link has no \(name) parameter; \(expected)"
    case .unsupportedType(let type):
      "the link type '\(type)' is not supported; use type=signup or type=recovery"
    case .unsupportedSessionType(let type):
      "the app does not sign in from a '\(type)' session link; only type=signup, email, "
        + "magiclink or invite sign in"
    case .unsupportedMode(let mode):
      "the link mode '\(mode)' is not supported; use mode=verifyEmail or mode=resetPassword"
    case .repeatedParameter(let name):
      "the link gives its \(name) parameter more than once; \(expected)"
    case .controlCharacter(let name):
      "the link's \(name) parameter holds a control character; \(expected)"
    }
  }
}

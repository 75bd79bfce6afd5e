import AuthCrypto
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The link an email carries.
///
/// For the app (the shell's links): `<scheme>://auth/verify?token=…&type=signup&email=…` for a
/// confirmation, `<scheme>://auth/reset?token=…&type=recovery&email=…` for a password reset,
/// with the email so the app can fill in its form. For a server, GoTrue's link to its own
/// `GET /verify`: `<externalURL>/verify?token=<token hash>&type=signup&redirect_to=…`.
struct EmailLink: Equatable, Sendable {
  var kind: OutboxMessage.Kind
  var recipient: String
  var code: String
  /// Where the server sends the user once the link is verified.
  var redirectTo: String

  /// GoTrue's name for an emailed code: the hex SHA-224 of the address and the code
  /// (`crypto.GenerateTokenHash`), the `token` of its links and the `token_hash` of
  /// `POST /verify`.
  static func tokenHash(email: String, code: String) -> String {
    SHA224.hash(email + code).hexString
  }

  /// The link as text.
  func url(_ links: EmailLinks) -> String {
    switch links {
    case .app(let scheme): appURL(scheme: scheme)
    case .server(let externalURL): serverURL(externalURL)
    }
  }

  private func appURL(scheme: String) -> String {
    var components = URLComponents()
    components.scheme = scheme
    components.host = "auth"
    components.path = kind == .recovery ? "/reset" : "/verify"
    components.queryItems = [
      URLQueryItem(name: "token", value: code),
      URLQueryItem(name: "type", value: kind.verificationType),
      URLQueryItem(name: "email", value: recipient),
    ]
    // NB: URLComponents leaves "+" alone in queries; escape it so "a+b@x.io" survives the trip.
    components.percentEncodedQuery = components.percentEncodedQuery?.replacing("+", with: "%2B")
    return components.string ?? ""
  }

  /// GoTrue's form: `redirect_to` goes in as it is unless it holds `&`, `=` or `#`, which would
  /// end it early, and then query-escaped (`templatemailer.go`).
  private func serverURL(_ externalURL: String) -> String {
    let base = externalURL.hasSuffix("/") ? String(externalURL.dropLast()) : externalURL
    let hash = Self.tokenHash(email: recipient, code: code)
    let redirect =
      redirectTo.contains(where: { "&=#".contains($0) })
      ? FormEncoding.escape(redirectTo) : redirectTo
    return "\(base)/verify?token=\(hash)&type=\(kind.verificationType)&redirect_to=\(redirect)"
  }
}

import AuthCrypto
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The link an email carries.
///
/// For the app (the shell's links), seed 004's shapes: `<scheme>://auth/verify?token=…&type=signup`
/// for a confirmation, `<scheme>://auth/forgot-password?token=…&type=recovery` for a password
/// reset. For a server, GoTrue's link to its own `GET /verify`:
/// `<externalURL>/verify?token=<token hash>&type=signup&redirect_to=…`. Either way the token is
/// the link's token hash, which names its code (and so its account and purpose) on its own, as
/// GoTrue's `{{ .TokenHash }}` does: no email rides in the link.
struct EmailLink: Equatable, Sendable {
  var kind: OutboxMessage.Kind
  /// The `token` of the link (``tokenHash(email:code:key:)``).
  var tokenHash: String
  /// Where the server sends the user once the link is verified.
  var redirectTo: String

  /// The name of an emailed code in links: the `token` of a link and the `token_hash` of
  /// `POST /verify`, 56 hexadecimal digits as GoTrue's are.
  ///
  /// GoTrue's is the SHA-224 of the address and the code (`crypto.GenerateTokenHash`), which
  /// anyone who knows the address can compute for each of a million codes: a guess through a
  /// link would then escape the per-account budget of guesses at the code. Here it is keyed
  /// with the store's code key (HMAC-SHA-256, cut to GoTrue's 28 bytes), so only the email
  /// that carries the link names it.
  static func tokenHash(email: String, code: String, key: [UInt8]) -> String {
    HMAC.sha256(key: key, message: Array("link-token:\(email)\u{0}\(code)".utf8)).prefix(28)
      .hexString
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
    components.path = kind == .recovery ? "/forgot-password" : "/verify"
    components.queryItems = [
      URLQueryItem(name: "token", value: tokenHash),
      URLQueryItem(name: "type", value: kind.verificationType),
    ]
    return components.string ?? ""
  }

  /// GoTrue's form: `redirect_to` goes in as it is unless it holds `&`, `=` or `#`, which would
  /// end it early, and then query-escaped (`templatemailer.go`).
  private func serverURL(_ externalURL: String) -> String {
    let base = externalURL.hasSuffix("/") ? String(externalURL.dropLast()) : externalURL
    let hash = tokenHash
    let redirect =
      redirectTo.contains(where: { "&=#".contains($0) })
      ? FormEncoding.escape(redirectTo) : redirectTo
    return "\(base)/verify?token=\(hash)&type=\(kind.verificationType)&redirect_to=\(redirect)"
  }
}

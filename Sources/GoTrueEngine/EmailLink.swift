#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The link an email carries, for the app to open: `<scheme>://auth/verify?token=…&type=signup
/// &email=…` for a confirmation, `<scheme>://auth/reset?token=…&type=recovery&email=…` for a
/// password reset. The email is in the link so the app can fill in its form.
struct EmailLink: Equatable, Sendable {
  var kind: OutboxMessage.Kind
  var email: String
  var code: String

  /// The link as text, for the app registered under `scheme`.
  func url(scheme: String) -> String {
    var components = URLComponents()
    components.scheme = scheme
    components.host = "auth"
    components.path = kind == .confirmation ? "/verify" : "/reset"
    components.queryItems = [
      URLQueryItem(name: "token", value: code),
      URLQueryItem(name: "type", value: kind == .confirmation ? "signup" : "recovery"),
      URLQueryItem(name: "email", value: email),
    ]
    // NB: URLComponents leaves "+" alone in queries; escape it so "a+b@x.io" survives the trip.
    components.percentEncodedQuery = components.percentEncodedQuery?.replacing("+", with: "%2B")
    return components.string ?? ""
  }
}

/// The way the view model's requests travel to its backend, where something besides the
/// backend decides whether they arrive. An app has none: its requests go straight to the
/// service. The shell's simulated network is one (`network unreachable` cuts it), and knows, as
/// the phone does, which of its emails a link came in.
package protocol AuthLink: Sendable {
  /// Whether requests reach the backend now. While they do not, each fails as a request fails
  /// when the server cannot be reached (``AuthError/networkUnavailable``), and the service
  /// never hears of it.
  var isUp: Bool { get }

  /// The address of the email a link carrying `code` came in, when the device can tell; asked
  /// when the backend cannot.
  func recipient(ofLinkCode code: String) async -> String?
}

extension AuthViewModel {
  /// The one way to the backend: `request` made of the service, unless the link is cut, when
  /// it fails with ``AuthError/networkUnavailable`` after `whenCut` did what the device does
  /// alone. Every request the view model makes comes through here, so a link cuts them all in
  /// this one place, whatever the service offers.
  func send<Value>(
    _ request: (any AuthService) async throws(AuthError) -> Value,
    whenCut: (any AuthService) -> Void = { _ in }
  ) async throws(AuthError) -> Value {
    if let link, !link.isUp {
      whenCut(service)
      throw .networkUnavailable
    }
    return try await request(service)
  }

  /// The address a link's `code` was sent to, spent or not: the backend's answer, else the
  /// device's (the inbox the link came in). Not a request a link cuts: the backend answers
  /// from what it keeps, the device from what it holds.
  func recipient(ofLinkCode code: String) async -> String? {
    if let known = await service.recipient(ofLinkCode: code) { return known }
    return await link?.recipient(ofLinkCode: code)
  }
}

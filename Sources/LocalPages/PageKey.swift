import AuthCrypto

/// The key that binds the page's requests to a page this server served: each page gets a fresh
/// nonce and the HMAC-SHA256 of it under a key made at random when the process starts, and
/// every read and action of the page must carry the pair (`X-Authflow-Page`, or `token=` for
/// the event stream). Another site's page cannot read a served page (no CORS grant, and
/// `frame-ancestors 'none'`), so it cannot learn a pair; a new process refuses old pages.
public struct PageKey: Sendable {
  private let key: [UInt8]
  private let random: any RandomSource

  /// A key drawn from `random` (the system's, never a seeded run's stream).
  public init(random: any RandomSource = SystemRandom()) {
    self.random = random
    key = random.bytes(32)
  }

  /// A new page's token: `nonce.mac`, both base64url.
  public func issue() -> String {
    let nonce = Base64URL.encode(random.bytes(18))
    return nonce + "." + Base64URL.encode(mac(nonce))
  }

  /// Whether `token` is one ``issue()`` made in this process.
  public func accepts(_ token: String?) -> Bool {
    guard let token, token.utf8.count < 200 else { return false }
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let given = Base64URL.decode(parts[1]) else { return false }
    return constantTimeEquals(given, mac(String(parts[0])))
  }

  private func mac(_ nonce: String) -> [UInt8] {
    HMAC.sha256(key: key, message: Array("authflow-page:\(nonce)".utf8))
  }
}

import AuthCrypto
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where one of GoTrue's HTTP hooks is and how its calls are signed: GoTrue's
/// `ExtensibilityPointConfiguration` (`HOOK_<NAME>_ENABLED`, `_URI`, `_SECRETS`).
struct HookEndpoint: Sendable {
  /// The hook's URL: https, or http on this machine only.
  var uri = ""
  /// Its Standard Webhooks secrets, each `v1,whsec_<base64>`, as the variable lists them
  /// (separated by `|`).
  var secrets: [String] = []
  /// Whether it is on (`_ENABLED`); `nil` when only the command line's URI says so.
  var enabled: Bool?

  /// Whether the hook is called: on when its `_ENABLED` says so, or when a URI was given on
  /// the command line and `_ENABLED` says nothing.
  func isOn(uriGivenOnCommandLine: Bool) -> Bool {
    enabled ?? uriGivenOnCommandLine
  }

  /// The keys the secrets hold, or one line saying what is wrong with the hook's settings
  /// (`option` names its URI option), as GoTrue's `ValidateExtensibilityPoint` checks them.
  func keys(option: String) throws(HookSettingsError) -> [[UInt8]] {
    guard !uri.isEmpty else {
      throw HookSettingsError("\(option) is on but has no URI; give \(option) https://…")
    }
    guard let url = URLComponents(string: uri), let scheme = url.scheme?.lowercased(),
      let host = url.host, !host.isEmpty
    else {
      throw HookSettingsError("\(option) takes a URL such as https://example.com/hook")
    }
    switch scheme {
    case "https": break
    case "http":
      let local = ["localhost", "127.0.0.1", "::1", "[::1]", "host.docker.internal"]
      guard local.contains(host.lowercased()) else {
        throw HookSettingsError(
          "\(option): only localhost, 127.0.0.1, and ::1 are supported with http; use https")
      }
    case "pg-functions":
      throw HookSettingsError(
        "\(option): authflow has no Postgres, so no pg-functions hooks; give an http(s) URL")
    default:
      throw HookSettingsError(
        "\(option): only postgres hooks and HTTPS functions are supported; give an https URL")
    }
    return try secrets.map { secret throws(HookSettingsError) in
      guard let key = Self.key(of: secret) else {
        throw HookSettingsError(
          "\(option)-secrets: invalid secret format; each is v1,whsec_ and at least 32 "
            + "base64 characters, separated by |")
      }
      return key
    }
  }

  /// The HMAC key of a `v1,whsec_<base64>` secret (GoTrue's `symmetricSecretFormat`, then
  /// Standard Webhooks' decoding). GoTrue signs with no other kind (`v1a` it cannot sign).
  static func key(of secret: String) -> [UInt8]? {
    let prefix = "v1,whsec_"
    guard secret.hasPrefix(prefix) else { return nil }
    let encoded = secret.dropFirst(prefix.count)
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
    let leading = encoded.prefix { alphabet.contains($0) }
    guard leading.count >= 32, let data = Data(base64Encoded: String(encoded)) else { return nil }
    return Array(data)
  }

  /// `|`-separated secrets, as GoTrue's `HTTPHookSecrets` reads its variable.
  static func secrets(_ text: String) -> [String] {
    text.split(separator: "|").map(String.init)
  }
}

/// What is wrong with a hook's settings, in one line.
struct HookSettingsError: Error, Equatable, Sendable {
  var text: String
  init(_ text: String) { self.text = text }
}

/// Standard Webhooks' signature (`standard-webhooks` `Sign`), as GoTrue signs its hook calls:
/// `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's key.
enum WebhookSignature {
  /// The signature of `body` sent as message `id` at `timestamp` (Unix seconds) under `key`.
  static func sign(id: String, timestamp: Int, body: [UInt8], key: [UInt8]) -> String {
    let message = Array("\(id).\(timestamp).".utf8) + body
    return "v1," + Data(HMAC.sha256(key: key, message: message)).base64EncodedString()
  }
}

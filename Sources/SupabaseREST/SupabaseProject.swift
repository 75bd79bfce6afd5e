#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A Supabase project to sign in against: its URL and its public (anon) key.
public struct SupabaseProject: Equatable, Sendable {
  /// The project URL without a trailing slash, e.g. `https://abcd.supabase.co`.
  public let url: String
  /// The anon (or publishable) key, sent as `apikey`.
  public let key: String
  /// Seconds to wait for an answer.
  public let timeout: Double

  /// The Auth API base: `<url>/auth/v1`.
  public var authURL: String { url + "/auth/v1" }

  /// A short name for prompts: the project ref of `<ref>.supabase.co`, else the host.
  public var name: String {
    let host = URLComponents(string: url)?.host ?? url
    if host.hasSuffix(".supabase.co"), let ref = host.split(separator: ".").first {
      return String(ref)
    }
    return host
  }

  /// A checked project: an https URL (http for a local Supabase only) and a key that looks like
  /// one. Errors never repeat the key.
  public init(url rawURL: String, key: String, timeout: Double = 10) throws(SupabaseProjectError) {
    var text = trimmed(rawURL)
    while text.hasSuffix("/") { text.removeLast() }
    if text.hasSuffix("/auth/v1") { text.removeLast("/auth/v1".count) }
    guard let components = URLComponents(string: text),
      let scheme = components.scheme?.lowercased(),
      let host = components.host, !host.isEmpty
    else { throw .badURL("it is not a URL") }
    guard components.query == nil, components.fragment == nil, components.path.isEmpty else {
      throw .badURL("it should be the project URL alone, with no path or query")
    }
    let local =
      ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host) || host.hasSuffix(".local")
    guard scheme == "https" || (scheme == "http" && local) else {
      throw .badURL("use https (http only for a local Supabase)")
    }
    let trimmedKey = trimmed(key)
    guard !trimmedKey.isEmpty else { throw .missingKey }
    let parts = trimmedKey.split(separator: ".", omittingEmptySubsequences: false)
    let looksLikeJWT =
      parts.count == 3 && parts.allSatisfy { !$0.isEmpty } && trimmedKey.hasPrefix("eyJ")
    guard looksLikeJWT || trimmedKey.hasPrefix("sb_publishable_"),
      !trimmedKey.contains(where: { $0.isWhitespace })
    else { throw .badKey }
    guard timeout > 0, timeout <= 300 else { throw .badTimeout }
    url = text
    self.key = trimmedKey
    self.timeout = timeout
  }
}

/// What is wrong with a Supabase project's settings.
public enum SupabaseProjectError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The URL is not a project URL.
  case badURL(String)
  /// No key was given.
  case missingKey
  /// The key does not look like an anon or publishable key.
  case badKey
  /// The timeout is not between 0 and 300 seconds.
  case badTimeout

  /// One line saying what is wrong and what would be right (never the key itself).
  public var description: String {
    switch self {
    case .badURL(let reason):
      "the Supabase URL is not usable: \(reason); expected https://<project-ref>.supabase.co"
    case .missingKey:
      "the Supabase anon key is missing; set SUPABASE_ANON_KEY or pass --supabase-key"
    case .badKey:
      "the Supabase key does not look like an anon key (eyJ…, a JWT) or a publishable key (sb_publishable_…)"
    case .badTimeout:
      "--timeout takes seconds from 1 to 300"
    }
  }
}

private func trimmed(_ text: String) -> String {
  String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
}

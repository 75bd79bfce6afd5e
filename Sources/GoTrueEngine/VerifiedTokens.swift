import GoTrue
import Synchronization

/// The claims of tokens already checked against a key set, so a token an app sends again and
/// again (an access token lives an hour) is not decoded, parsed and its signature checked on
/// every request: about half the time of `GET /user` went there. What a token is never changes
/// for the same keys, so only what depends on the time (`exp`, `nbf`, `iat`) is checked again
/// on each use, and the session the token names is still looked up by the caller.
///
/// Bounded: at most ``capacity`` tokens, forgotten all at once when it is reached (the next
/// request of each checks it in full once more). Tokens live here only in this process's
/// memory, as they do while a request is answered; never on disk, never in a log.
package final class VerifiedTokens: Sendable {
  /// The most tokens kept.
  static let capacity = 1_024

  private let claims = Mutex<[String: [String: JSONValue]]>([:])

  package init() {}

  /// The claims of `token`, if it was checked before.
  func claims(of token: String) -> [String: JSONValue]? {
    claims.withLock { $0[token] }
  }

  /// Keeps the claims of `token`, whose signature and form were just checked.
  func remember(_ token: String, _ checked: [String: JSONValue]) {
    claims.withLock { kept in
      if kept.count >= Self.capacity { kept.removeAll(keepingCapacity: true) }
      kept[token] = checked
    }
  }
}

import GoTrue

/// A hook GoTrue calls (`hooks/v0hooks`), by the name its payload's `metadata.name` carries.
public enum AuthHook: String, Sendable, CaseIterable {
  /// The custom access token hook: it gets a token's claims and answers the claims to sign.
  case customizeAccessToken = "customize-access-token"
  /// The send-email hook: it gets each email's codes and links, and sends it instead of GoTrue.
  case sendEmail = "send-email"
}

/// What calls the engine's hooks, as GoTrue calls its HTTP hooks (`authflow serve` signs and
/// posts them); injected, so the engine does no HTTP and tests answer for the hook.
public protocol AuthHookDispatcher: Sendable {
  /// Whether `hook` is on.
  func isEnabled(_ hook: AuthHook) -> Bool

  /// Sends `payload` to `hook`. Answers the hook's JSON object (empty for 204 No Content), or
  /// throws GoTrue's answer when the hook failed, timed out, or answered an `error` object.
  func dispatch(_ hook: AuthHook, payload: [String: JSONValue]) async throws(GoTrueAPIError)
    -> [String: JSONValue]

  /// Tells of a call of `hook` that failed where no answer can say so: an email of a route
  /// that must not tell who has an account, sent in the background.
  func report(_ failure: GoTrueAPIError, of hook: AuthHook)
}

extension AuthHookDispatcher {
  /// Reports nothing.
  public func report(_ failure: GoTrueAPIError, of hook: AuthHook) {}
}

extension EmbeddedGoTrue {
  /// The payload of a call to `hook`: GoTrue's `metadata` (a fresh UUID, the time, the hook's
  /// name) with `fields`.
  func hookPayload(_ hook: AuthHook, _ fields: [String: JSONValue]) -> [String: JSONValue] {
    var payload = fields
    payload["metadata"] = .object([
      "uuid": .string(random.uuidString()), "time": .string(GoTrueCoding.timestamp(clock.now)),
      "name": .string(hook.rawValue),
    ])
    return payload
  }
}

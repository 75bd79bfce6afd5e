extension IdentityToolkitRequest {
  /// An admin's `projects/{project}:createSessionCookie`: a session cookie for a signed-in
  /// user's ID token.
  public struct CreateSessionCookie: IdentityToolkitBody {
    /// The user's ID token.
    public var idToken: String?
    /// How long the cookie lives, in seconds (5 minutes to 2 weeks; 2 weeks when absent).
    public var validDuration: Int64?

    /// A request with the given members.
    public init(idToken: String? = nil, validDuration: Int64? = nil) {
      self.idToken = idToken
      self.validDuration = validDuration
    }
  }
}

/// What `createSessionCookie` answers.
public struct IdentityToolkitSessionCookie: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// The cookie: a JWT of the ID token's claims, issued by
  /// `https://session.firebase.google.com/{project}`.
  public var sessionCookie: String

  /// An answer holding `sessionCookie`.
  public init(sessionCookie: String) {
    self.sessionCookie = sessionCookie
  }

  /// `{"sessionCookie": …}`.
  public var emulatorJSON: EmulatorJSON { .members(["sessionCookie": .string(sessionCookie)]) }
}

/// One of GoTrue's endpoints (`internal/api/api.go`): what a client sends and a server matches,
/// said once for both.
public struct GoTrueEndpoint: Hashable, Sendable, CustomStringConvertible {
  /// The HTTP method (`POST`).
  public let method: String
  /// The path below the API's root, `{name}` standing for one part (`/admin/users/{user_id}`),
  /// named as GoTrue's router names it.
  public let path: String
  /// The `grant_type` a `/token` request names.
  public let grant: String?
  /// Who may call it: what the client sends and the server checks before anything else.
  public let access: Access

  /// Who may call an endpoint, as GoTrue's route groups say (`requireAuthentication`,
  /// `requireAdmin`).
  public enum Access: Hashable, Sendable {
    /// Anyone with the API key.
    case anyone
    /// A signed-in user: the request carries the user's access token as its bearer.
    case user
    /// An admin: the bearer is a `service_role` token.
    case admin
  }

  private init(_ method: String, _ path: String, grant: String? = nil, _ access: Access = .anyone) {
    self.method = method
    self.path = path
    self.grant = grant
    self.access = access
  }

  /// The query every request to the endpoint carries (`grant_type=password`), if any.
  public var query: String? { grant.map { "grant_type=\($0)" } }

  /// The path with `parts` in place of its `{…}`s, in order.
  public func path(_ parts: String...) -> String {
    var parts = parts[...]
    return path.split(separator: "/", omittingEmptySubsequences: false)
      .map { $0.hasPrefix("{") && $0.hasSuffix("}") ? (parts.popFirst() ?? "") : String($0) }
      .joined(separator: "/")
  }

  /// `POST /signup`.
  public static let signUp = GoTrueEndpoint("POST", "/signup")
  /// `POST /token?grant_type=password`.
  public static let passwordGrant = GoTrueEndpoint("POST", "/token", grant: "password")
  /// `POST /token?grant_type=refresh_token`.
  public static let refreshGrant = GoTrueEndpoint("POST", "/token", grant: "refresh_token")
  /// `POST /token?grant_type=pkce`.
  public static let pkceGrant = GoTrueEndpoint("POST", "/token", grant: "pkce")
  /// `POST /logout?scope=`.
  public static let logout = GoTrueEndpoint("POST", "/logout", .user)
  /// `GET /user`.
  public static let user = GoTrueEndpoint("GET", "/user", .user)
  /// `PUT /user`.
  public static let updateUser = GoTrueEndpoint("PUT", "/user", .user)
  /// `DELETE /user`: authflow serve's own, the signed-in user deleting their account.
  public static let deleteUser = GoTrueEndpoint("DELETE", "/user", .user)
  /// `POST /recover`.
  public static let recover = GoTrueEndpoint("POST", "/recover")
  /// `POST /verify`: a code with its email, or a link's token hash.
  public static let verify = GoTrueEndpoint("POST", "/verify")
  /// `GET /verify`: the link in an email.
  public static let verifyLink = GoTrueEndpoint("GET", "/verify")
  /// `POST /otp`.
  public static let otp = GoTrueEndpoint("POST", "/otp")
  /// `POST /magiclink`.
  public static let magicLink = GoTrueEndpoint("POST", "/magiclink")
  /// `POST /resend`.
  public static let resend = GoTrueEndpoint("POST", "/resend")
  /// `GET /admin/users`.
  public static let listUsers = GoTrueEndpoint("GET", "/admin/users", .admin)
  /// `POST /admin/users`.
  public static let createUser = GoTrueEndpoint("POST", "/admin/users", .admin)
  /// `GET /admin/users/{id}`.
  public static let adminUser = GoTrueEndpoint("GET", "/admin/users/{user_id}", .admin)
  /// `PUT /admin/users/{id}`.
  public static let adminUpdateUser = GoTrueEndpoint("PUT", "/admin/users/{user_id}", .admin)
  /// `DELETE /admin/users/{id}`.
  public static let adminDeleteUser = GoTrueEndpoint("DELETE", "/admin/users/{user_id}", .admin)
  /// `POST /admin/generate_link`.
  public static let generateLink = GoTrueEndpoint("POST", "/admin/generate_link", .admin)
  /// `GET /reauthenticate`: a nonce by email for the signed-in user.
  public static let reauthenticate = GoTrueEndpoint("GET", "/reauthenticate", .user)
  /// `GET /admin/sso/providers`: the SAML identity providers (GoTrue lists them even with SAML
  /// off).
  public static let listSSOProviders = GoTrueEndpoint("GET", "/admin/sso/providers", .admin)
  /// `POST /invite`: an admin invites an address.
  public static let invite = GoTrueEndpoint("POST", "/invite", .admin)
  /// `DELETE /user/identities/{id}`: unlinks one of the signed-in user's identities.
  public static let deleteIdentity = GoTrueEndpoint(
    "DELETE", "/user/identities/{identity_id}", .user)

  /// Every endpoint above, each once.
  public static let all: [GoTrueEndpoint] = [
    .signUp, .passwordGrant, .refreshGrant, .pkceGrant, .logout, .user, .updateUser, .deleteUser,
    .recover, .verify, .verifyLink, .otp, .magicLink, .resend, .listUsers, .createUser,
    .adminUser, .adminUpdateUser, .adminDeleteUser, .generateLink, .reauthenticate, .invite,
    .deleteIdentity, .listSSOProviders,
  ]

  /// `POST /factors`: enrols a factor.
  public static let enrollFactor = GoTrueEndpoint("POST", "/factors", .user)
  /// `POST /factors/{id}/challenge`.
  public static let challengeFactor = GoTrueEndpoint(
    "POST", "/factors/{factor_id}/challenge", .user)
  /// `POST /factors/{id}/verify`: a code for a challenge, raising the session to aal2.
  public static let verifyFactor = GoTrueEndpoint("POST", "/factors/{factor_id}/verify", .user)
  /// `DELETE /factors/{id}`.
  public static let unenrollFactor = GoTrueEndpoint("DELETE", "/factors/{factor_id}", .user)
  /// `GET /admin/users/{id}/factors`.
  public static let adminListFactors = GoTrueEndpoint(
    "GET", "/admin/users/{user_id}/factors", .admin)
  /// `PUT /admin/users/{id}/factors/{factor_id}`.
  public static let adminUpdateFactor = GoTrueEndpoint(
    "PUT", "/admin/users/{user_id}/factors/{factor_id}", .admin)
  /// `DELETE /admin/users/{id}/factors/{factor_id}`.
  public static let adminDeleteFactor = GoTrueEndpoint(
    "DELETE", "/admin/users/{user_id}/factors/{factor_id}", .admin)

  /// The multi-factor endpoints, users' and admins'.
  public static let mfa: [GoTrueEndpoint] = [
    .enrollFactor, .challengeFactor, .verifyFactor, .unenrollFactor, .adminListFactors,
    .adminUpdateFactor, .adminDeleteFactor,
  ]

  /// `METHOD /path?query`, as errors and logs show an endpoint.
  public var description: String { "\(method) \(path)" + (query.map { "?" + $0 } ?? "") }
}

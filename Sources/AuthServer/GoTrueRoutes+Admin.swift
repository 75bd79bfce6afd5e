import GoTrue
import GoTrueEngine
import HTTPServer

/// The admin API, for a bearer token with an admin role (the service-role key).
extension GoTrueRoutes {
  static let admin: [Route] = [
    Route(.listUsers, listUsers), Route(.createUser, createUser), Route(.adminUser, getUser),
    Route(.adminUpdateUser, updateUserByID), Route(.adminDeleteUser, deleteUser),
    Route(.generateLink, generateLink), Route(.invite, invite),
  ]

  /// `POST /invite`: the invited user, emailed a link to accept.
  @Sendable static func invite(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let body = try context.body().decode(GoTrueInviteBody.self)
    return Answer.json(
      try await context.engine.invite(
        email: body.email ?? "", data: body.data ?? [:], redirectTo: context.redirectTo))
  }

  /// `GET /admin/users?page=&per_page=&sort=&filter=`, with `X-Total-Count` and `Link`.
  @Sendable static func listUsers(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let request = context.request
    var order = EmbeddedGoTrue.UserOrder.newestFirst
    if let sort = request.queryValue("sort"), !sort.isEmpty {
      let parts = sort.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "+" })
      guard parts.first == "created_at" else {
        throw .api(.invalid("Bad Sort Parameters: bad field for sort '\(parts.first ?? "")'"))
      }
      if parts.count > 1, parts[1].lowercased() == "asc" { order = .oldestFirst }
    }
    let pagination = try Pagination(request)
    let filter = request.queryValue("filter").flatMap { $0.isEmpty ? nil : $0 }
    let found = try context.engine.listUsers(
      limit: pagination.limit, offset: pagination.offset, filter: filter, order: order)
    return Answer.json(
      UserList(users: found.users), headers: pagination.headers(for: request, total: found.total))
  }

  /// `POST /admin/users`.
  @Sendable static func createUser(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let attributes = try context.body().decode(GoTrueAdminUserAttributes.self)
    return Answer.json(try await context.engine.createUser(attributes))
  }

  /// `GET /admin/users/{id}`.
  @Sendable static func getUser(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    return Answer.json(try context.engine.user(id: context.parameter("user_id")))
  }

  /// `PUT /admin/users/{id}`.
  @Sendable static func updateUserByID(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let attributes = try context.body().decode(GoTrueAdminUserAttributes.self)
    return Answer.json(
      try await context.engine.updateUser(id: context.parameter("user_id"), attributes))
  }

  /// `DELETE /admin/users/{id}` with an optional `{"should_soft_delete": true}`.
  @Sendable static func deleteUser(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let body = try context.optionalBody().decode(GoTrueAdminDeleteBody.self)
    let softly = body.shouldSoftDelete ?? false
    try context.engine.deleteUser(id: context.parameter("user_id"), softly: softly)
    return Answer.empty
  }

  /// `POST /admin/generate_link`: the code and link an email would carry, sent nowhere.
  @Sendable static func generateLink(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let body = try context.body().decode(GoTrueGenerateLinkBody.self)
    let generated = try await context.engine.generateLink(
      type: body.type ?? "", email: body.email ?? "", password: body.password,
      data: body.data ?? [:], newEmail: body.newEmail,
      redirectTo: body.redirectTo.flatMap { context.engine.isRedirectAllowed($0) ? $0 : nil }
        ?? context.redirectTo)
    return Answer.json(GeneratedLinkAnswer(link: generated))
  }
}

/// `generate_link`'s answer: the user's fields at the top level, then the link's.
private struct GeneratedLinkAnswer: Encodable {
  var link: GeneratedLink

  private enum CodingKeys: String, CodingKey {
    case actionLink = "action_link"
    case emailOTP = "email_otp"
    case hashedToken = "hashed_token"
    case verificationType = "verification_type"
    case redirectTo = "redirect_to"
  }

  func encode(to encoder: any Encoder) throws {
    try link.user.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(link.actionLink, forKey: .actionLink)
    try container.encode(link.code, forKey: .emailOTP)
    try container.encode(link.tokenHash, forKey: .hashedToken)
    try container.encode(link.verificationType, forKey: .verificationType)
    try container.encode(link.redirectTo, forKey: .redirectTo)
  }
}

/// The body of `GET /admin/users`.
private struct UserList: Encodable {
  var users: [GoTrueUser]
  var aud = "authenticated"
}

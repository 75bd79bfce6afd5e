import AccountStore
import FirebaseEmulator
import GoTrue
import HTTPServer
import IdentityToolkit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The users' data and actions, through the functions the admin APIs call: a page of both
/// surfaces' users (one store holds them), a new user, and what an admin does to one.
enum PageUsers {
  /// Users to a page.
  static let perPage = 20

  /// `GET /_/api/users?page=&q=`: one page of users, newest first.
  static func list(_ context: RouteContext, _ page: ServePage) throws(GoTrueFailure)
    -> HTTPResponse
  {
    let number = max(1, Int(context.request.queryValue("page") ?? "") ?? 1)
    let query = context.request.queryValue("q").flatMap { $0.isEmpty ? nil : $0 }
    let found = try page.engine.consoleUsers(page: number, perPage: perPage, filter: query)
    let now = page.engine.nowMillis
    return Answer.json(
      PageUserList(
        users: found.users.map { PageUser($0, now: now) }, total: found.total, page: number,
        perPage: perPage, firebase: page.firebase != nil))
  }

  /// `POST /_/api/users` with `{"email","password","confirmed"}`: a user as the admin API
  /// makes one (its password, if any, held only to bcrypt's limit).
  static func create(_ context: RouteContext, _ page: ServePage) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let body = try fields(context)
    let password = body["password"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    let user = try await page.engine.createUser(
      GoTrueAdminUserAttributes(
        email: body["email"]?.stringValue, password: password,
        emailConfirm: body["confirmed"] == .bool(true)))
    return Answer.json(["id": JSONValue.string(user.id)])
  }

  /// `POST /_/api/users/{id}/{action}`: `confirm`, `disable`, `enable`, `reset` (sends the
  /// recovery email), `signout` (ends every session), `delete`, or `update` with
  /// `{"userMetadata","appMetadata","customClaims"}` (objects; metadata merged key by key, a
  /// `null` member removing the key, as the admin API does).
  static func act(_ context: RouteContext, _ page: ServePage) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let engine = page.engine
    let id = context.parameter("id")
    switch context.parameter("action") {
    case "confirm":
      _ = try await engine.updateUser(id: id, GoTrueAdminUserAttributes(emailConfirm: true))
    case "disable":
      _ = try await engine.updateUser(id: id, GoTrueAdminUserAttributes(banDuration: forever))
    case "enable":
      _ = try await engine.updateUser(id: id, GoTrueAdminUserAttributes(banDuration: "none"))
    case "reset":
      guard let email = try engine.user(id: id).email, !email.isEmpty else {
        throw .api(.invalid("the user has no email to send a reset to"))
      }
      try await engine.recover(email: email, redirectTo: nil)
    case "signout":
      try engine.endSessions(ofUser: id)
      if let firebase = page.firebase {
        var changes = FirebaseAccountChanges()
        changes.validSince = engine.nowMillis / 1_000
        try await firebaseCall { () async throws(IdentityToolkitError) in
          _ = try await firebase.update(.id(id), changes, privileged: true)
        }
      }
    case "delete":
      try engine.deleteUser(id: id)
    case "update":
      try await update(id, try fields(context), page)
    default:
      return Answer.notFound
    }
    return Answer.empty
  }

  /// A ban as long as the admin API allows (ten years), which both surfaces read as disabled.
  static let forever = "87600h"

  private static func update(_ id: String, _ body: [String: JSONValue], _ page: ServePage)
    async throws(GoTrueFailure)
  {
    let userMetadata = try object(body["userMetadata"], "userMetadata")
    let appMetadata = try object(body["appMetadata"], "appMetadata")
    let claims = try object(body["customClaims"], "customClaims")
    if userMetadata != nil || appMetadata != nil {
      _ = try await page.engine.updateUser(
        id: id,
        GoTrueAdminUserAttributes(userMetadata: userMetadata, appMetadata: appMetadata))
    }
    if let claims, let firebase = page.firebase {
      let text = String(decoding: JSONValue.object(claims).jsonBytes, as: UTF8.self)
      var changes = FirebaseAccountChanges()
      changes.customAttributes = claims.isEmpty ? "" : text
      try await firebaseCall { () async throws(IdentityToolkitError) in
        _ = try FirebaseCustomClaims.parse(serialized: text)
        _ = try await firebase.update(.id(id), changes, privileged: true)
      }
    }
  }

  /// The request's JSON object.
  private static func fields(_ context: RouteContext) throws(GoTrueFailure) -> [String: JSONValue] {
    guard let object = JSONValue(parsing: context.request.body)?.objectValue else {
      throw .api(.invalid("the body must be a JSON object"))
    }
    return object
  }

  /// `value` as an object, `nil` when absent.
  private static func object(_ value: JSONValue?, _ name: String) throws(GoTrueFailure)
    -> [String: JSONValue]?
  {
    switch value {
    case nil, .null?: return nil
    case .object(let object)?: return object
    default: throw .api(.invalid("\(name) must be a JSON object"))
    }
  }

  /// Runs a call of the Firebase surface, its refusal said in GoTrue's shape.
  private static func firebaseCall(_ body: () async throws(IdentityToolkitError) -> Void)
    async throws(GoTrueFailure)
  {
    do {
      try await body()
    } catch {
      throw .api(.invalid(error.message, status: error.status))
    }
  }
}

/// A page of users.
struct PageUserList: Encodable {
  var users: [PageUser]
  var total: Int
  var page: Int
  var perPage: Int
  /// Whether the Firebase surface is on (its custom claims can be edited).
  var firebase: Bool
}

/// One user as the users view shows them: never a password hash or a token.
struct PageUser: Encodable {
  var id: String
  var email: String
  var phone: String
  var confirmed: Bool
  var provider: String
  var createdAt: String
  var lastSignInAt: String?
  var anonymous: Bool
  var factors: Int
  var disabled: Bool
  var userMetadata: [String: JSONValue]
  var appMetadata: [String: JSONValue]
  var customClaims: JSONValue?

  init(_ record: UserRecord, now: Int64) {
    let user = record.goTrueUser
    id = record.id
    email = record.email
    phone = user.phone ?? ""
    confirmed = record.emailConfirmedAt != nil
    provider =
      record.isAnonymous ? "anonymous" : record.appMetadata["provider"]?.stringValue ?? "email"
    createdAt = GoTrueCoding.timestamp(Date(timeIntervalSince1970: Double(record.createdAt) / 1e3))
    lastSignInAt = record.lastSignInAt.map {
      GoTrueCoding.timestamp(Date(timeIntervalSince1970: Double($0) / 1e3))
    }
    anonymous = record.isAnonymous
    factors = record.factors.count
    disabled = record.isBanned(at: now)
    userMetadata = record.userMetadata
    appMetadata = record.appMetadata
    customClaims = record.customClaims.flatMap { JSONValue(parsing: Array($0.utf8)) }
  }
}

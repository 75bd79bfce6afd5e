import FirebaseEmulator
import GoTrue
import HTTPServer
import IdentityToolkit

/// `projects/{id}/accounts:query` (and `projects/{id}:queryAccounts`): every account at once,
/// or only how many there are; what the emulator does not do is its `501`.
extension FirebaseRoutes {
  /// The emulator's names for `order` and `sortBy` (an integer sent is the name at its index).
  static let orders = ["ORDER_UNSPECIFIED", "ASC", "DESC"]
  static let sortFields = [
    "SORT_BY_FIELD_UNSPECIFIED", "USER_ID", "NAME", "CREATED_AT", "LAST_LOGIN_AT", "USER_EMAIL",
  ]

  /// `accounts:query`, checked in the emulator's order: an `expression` is `501`;
  /// `returnUserInfo: false` answers `{recordsCount}` alone; then any `limit`, an `offset` other
  /// than `"0"` and a sort other than by user id are `501`. Otherwise every user, by id.
  @Sendable static func queryAccounts(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    if body.has("expression") {
      guard case .array(let expressions)? = body.members["expression"] else {
        throw .invalidPayload("/expression should be array")
      }
      if !expressions.isEmpty { throw notImplemented("expression is not implemented.") }
    }
    let request = try call.decode(IdentityToolkitRequest.Query.self)
    if request.returnUserInfo == false {
      let count = try call.emulation.accountCount()
      return call.json(IdentityToolkitQuery(recordsCount: "\(count)", userInfo: nil))
    }
    if request.limit.nonEmpty != nil { throw notImplemented("limit is not implemented.") }
    if request.offset.nonEmpty ?? "0" != "0" {
      throw notImplemented("offset is not implemented.")
    }
    let order = try enumeration(request.order, "order", orders) ?? "ASC"
    let sortBy = try enumeration(request.sortBy, "sortBy", sortFields) ?? "USER_ID"
    guard ["SORT_BY_FIELD_UNSPECIFIED", "USER_ID"].contains(sortBy) else {
      throw notImplemented("Only sorting by USER_ID is implemented.")
    }
    let accounts = try call.emulation.allAccounts(descending: order == "DESC")
    return call.json(
      IdentityToolkitQuery(
        recordsCount: "\(accounts.count)", userInfo: accounts.map(FirebaseAnswer.user)))
  }

  /// The enum `name`, sent as `text`, by its name or index among `names`; `nil` when absent.
  private static func enumeration(_ text: String?, _ name: String, _ names: [String])
    throws(IdentityToolkitError) -> String?
  {
    guard let text else { return nil }
    if let index = Int(text), names.indices.contains(index) { return names[index] }
    guard names.contains(text) else {
      throw .invalidPayload("/\(name) should be equal to one of the allowed values")
    }
    return text
  }
}

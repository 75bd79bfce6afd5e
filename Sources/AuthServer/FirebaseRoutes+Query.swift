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
    if try body.bool("returnUserInfo") == false {
      let count = try call.emulation.accountCount()
      return FirebaseAnswer.json(.members(["recordsCount": .string("\(count)")]))
    }
    if try body.nonEmpty("limit") != nil { throw notImplemented("limit is not implemented.") }
    if try body.nonEmpty("offset") ?? "0" != "0" {
      throw notImplemented("offset is not implemented.")
    }
    let order = try enumeration(body, "order", orders) ?? "ASC"
    let sortBy = try enumeration(body, "sortBy", sortFields) ?? "USER_ID"
    guard ["SORT_BY_FIELD_UNSPECIFIED", "USER_ID"].contains(sortBy) else {
      throw notImplemented("Only sorting by USER_ID is implemented.")
    }
    let accounts = try call.emulation.allAccounts(descending: order == "DESC")
    return FirebaseAnswer.json(
      .members([
        "recordsCount": .string("\(accounts.count)"),
        "userInfo": .array(accounts.map { FirebaseAnswer.user($0).emulatorJSON }),
      ]))
  }

  /// The enum `name` of `body` by its name or index among `names`; `nil` when absent.
  private static func enumeration(_ body: FirebaseBody, _ name: String, _ names: [String])
    throws(IdentityToolkitError) -> String?
  {
    guard let text = try body.string(name) else { return nil }
    if let index = Int(text), names.indices.contains(index) { return names[index] }
    guard names.contains(text) else {
      throw .invalidPayload("/\(name) should be equal to one of the allowed values")
    }
    return text
  }
}

import GoTrue

/// GoTrue's reading of a phone number (`api/phone.go`): the `+` and every space dropped, then
/// E.164's 2 to 15 digits, not starting with 0; kept as those digits.
package enum PhoneRules {
  /// `phone` as GoTrue keeps it, or its 400 for a number that is not E.164.
  package static func normalized(_ phone: String) throws(GoTrueFailure) -> String {
    var digits = Substring(phone)
    if digits.hasPrefix("+") { digits = digits.dropFirst() }
    let kept = String(digits.filter { $0 != " " })
    let bytes = Array(kept.utf8)
    let valid =
      (2...15).contains(bytes.count) && bytes.first != UInt8(ascii: "0")
      && bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    guard valid else {
      throw .api(
        GoTrueAPIError(
          status: 400, code: .validationFailed,
          message: "Invalid phone number format (E.164 required)"))
    }
    return kept
  }

  /// GoTrue's 422 for a number another user has.
  static let taken = GoTrueAPIError(
    status: 422, code: .phoneExists, message: "Phone number already registered by another user")
}

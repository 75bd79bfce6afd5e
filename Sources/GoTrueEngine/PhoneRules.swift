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

  /// `phone` with its `+` and spaces dropped, unchecked (`formatPhoneNumber`: what a password
  /// grant looks a number up by).
  package static func formatted(_ phone: String) -> String {
    var digits = Substring(phone)
    if digits.hasPrefix("+") { digits = digits.dropFirst() }
    return String(digits.filter { $0 != " " })
  }

  /// The lengths a code sent by SMS may have (`SMS_OTP_LENGTH`, 6 to 10).
  package static let codeLengths = 6...10

  /// Whether `code` could be one texted: 6 to 10 ASCII digits.
  package static func isWellFormedCode(_ code: String) -> Bool {
    codeLengths.contains(code.utf8.count)
      && code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  /// GoTrue's 400 for a `channel` other than `sms` (`whatsapp` too: it needs Twilio, and the
  /// engine's messages go to its outbox).
  package static let invalidChannel = GoTrueAPIError(
    status: 400, code: .validationFailed,
    message:
      "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported "
      + "if Twilio or Twilio Verify is used as the provider.")

  /// GoTrue's 422 for a number another user has.
  static let taken = GoTrueAPIError(
    status: 422, code: .phoneExists, message: "Phone number already registered by another user")
}

import GoTrue

/// GoTrue's own rules for email addresses (`internal/api/mail.go`, `validateEmail`): present, at
/// most 255 bytes, the format `checkmail` accepts, then lowercased. They are the server's rules,
/// deliberately apart from the app's stricter form validation, so a client bug cannot hide
/// behind a shared rule.
package enum EmailRules {
  /// The longest address GoTrue accepts, in bytes.
  package static let maximumLength = 255

  /// The address as GoTrue stores and looks it up: lowercased (and in Unicode's composed
  /// form, though GoTrue's format admits only ASCII).
  package static func normalized(_ email: String) -> String {
    String(decoding: email.lowercased()._nfcCodeUnits, as: UTF8.self)
  }

  /// The normalized address, or 400 `validation_failed` with GoTrue's message.
  package static func validated(_ email: String) throws(GoTrueFailure) -> String {
    if email.isEmpty { throw invalid("An email address is required") }
    if email.utf8.count > maximumLength { throw invalid("An email address is too long") }
    guard isWellFormed(email) else {
      throw invalid("Unable to validate email address: invalid format")
    }
    return normalized(email)
  }

  /// `local@domain` with checkmail's character sets: the local part from RFC 5322's atext and
  /// dots, the domain dot-separated labels of letters, digits and inner hyphens.
  package static func isWellFormed(_ email: String) -> Bool {
    let parts = email.utf8.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false)
    guard parts.count == 2, let local = parts.first, let domain = parts.last,
      !local.isEmpty, !domain.isEmpty
    else { return false }
    guard local.allSatisfy(isLocalByte) else { return false }
    return domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy {
      label in
      guard let first = label.first, let last = label.last, label.count <= 63 else { return false }
      return isAlphanumeric(first) && isAlphanumeric(last)
        && label.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
    }
  }

  private static func isLocalByte(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || ".!#$%&'*+/=?^_`{|}~-".utf8.contains(byte)
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private static func invalid(_ message: String) -> GoTrueFailure {
    .api(GoTrueAPIError(status: 400, code: .validationFailed, message: message))
  }
}

/// GoTrue's emailed codes: 6 digits by default (`MAILER_OTP_LENGTH`).
package enum CodeRules {
  /// The length of the codes the engine sends.
  package static let length = 6

  /// Whether `code` could be one the engine sent: exactly ``length`` ASCII digits.
  package static func isWellFormed(_ code: String) -> Bool {
    code.utf8.count == length
      && code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }
}

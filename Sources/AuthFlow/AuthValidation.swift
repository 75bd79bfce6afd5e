/// A form problem found before any call to the backend, with the wording users read.
public enum ValidationIssue: String, Error, CaseIterable, Hashable, Sendable {
  /// The email field is empty.
  case emailRequired = "email_required"
  /// The email is not an address GoTrue accepts, of the form `name@domain.tld`.
  case emailInvalid = "email_invalid"
  /// The password field is empty.
  case passwordRequired = "password_required"
  /// A new password is shorter than 8 characters.
  case passwordTooShort = "password_too_short"
  /// A new password has no ASCII letter.
  case passwordNeedsLetter = "password_needs_letter"
  /// A new password has no digit.
  case passwordNeedsNumber = "password_needs_number"
  /// A new password is longer than bcrypt can hash (72 bytes).
  case passwordTooLong = "password_too_long"
  /// The confirmation differs from the password.
  case passwordsDontMatch = "passwords_dont_match"
  /// The terms were not accepted.
  case consentRequired = "consent_required"
  /// The reset code is not 6 digits.
  case codeInvalid = "code_invalid"
  /// The reset code, which only the email's link carries, is missing or not a code.
  case linkCodeInvalid = "link_code_invalid"

  /// The user-facing text.
  public var message: String {
    switch self {
    case .emailRequired: "Email is required"
    case .emailInvalid: "Invalid email format"
    case .passwordRequired: "Password is required"
    case .passwordTooShort: "Minimum 8 characters required"
    case .passwordNeedsLetter: "Must contain at least one letter"
    case .passwordNeedsNumber: "Must contain at least one number"
    case .passwordTooLong: "Maximum 72 characters allowed"
    case .passwordsDontMatch: "Passwords don't match"
    case .consentRequired: "You must accept the terms to continue."
    case .codeInvalid: "Enter the 6-digit code from your email"
    case .linkCodeInvalid: "Open the reset link from your email to fill in its code"
    }
  }
}

/// The client-side rules of the forms, as pure functions: an email is required and is an
/// address GoTrue accepts (``checkEmail(_:)``); a login password is required; a new password has 8 characters or more, a letter and a
/// number; a reset code is 6 digits.
public enum AuthValidation {
  /// The longest password bcrypt hashes in full, in UTF-8 bytes.
  public static let maximumPasswordBytes = 72
  /// The shortest acceptable new password, in characters.
  public static let minimumPasswordLength = 8

  /// The email as the backend should see it: trimmed, lowercased and in Unicode's composed
  /// form (NFC), so two spellings of the same address identify the same account.
  public static func normalizedEmail(_ email: String) -> String {
    // NB: the standard library's NFC, public though underscored; Foundation's needs ICU.
    String(decoding: email.trimmingWhitespace().lowercased()._nfcCodeUnits, as: UTF8.self)
  }

  /// The code with the spaces people type between digit groups removed; a link's code (which
  /// may hold `-`) only loses the blanks around it.
  public static func normalizedCode(_ code: String, format: ResetCodeFormat = .sixDigits)
    -> String
  {
    switch format {
    case .sixDigits: String(code.filter { $0 != " " && $0 != "-" })
    case .link: code.trimmingWhitespace()
    }
  }

  /// The first problem with `email`, or `nil` when it is well formed.
  public static func checkEmail(_ email: String) -> ValidationIssue? {
    let trimmed = email.trimmingWhitespace()
    if trimmed.isEmpty { return .emailRequired }
    return isWellFormedEmail(trimmed) ? nil : .emailInvalid
  }

  /// The problem with a password typed to sign in: it only has to be present.
  public static func checkLoginPassword(_ password: String) -> ValidationIssue? {
    password.isEmpty ? .passwordRequired : nil
  }

  /// The first rule a new password breaks (length, then letter, then number), or `nil`.
  public static func checkNewPassword(_ password: String) -> ValidationIssue? {
    if password.isEmpty { return .passwordRequired }
    if password.count < minimumPasswordLength { return .passwordTooShort }
    if !password.utf8.contains(where: isASCIILetter) { return .passwordNeedsLetter }
    if !password.utf8.contains(where: isASCIIDigit) { return .passwordNeedsNumber }
    if password.utf8.count > maximumPasswordBytes { return .passwordTooLong }
    return nil
  }

  /// The problem with a reset code, or `nil` when it has the backend's `format`: exactly 6
  /// digits, or for a link's code 1 to 1 024 printable ASCII characters.
  public static func checkCode(_ code: String, format: ResetCodeFormat = .sixDigits)
    -> ValidationIssue?
  {
    let bytes = normalizedCode(code, format: format).utf8
    switch format {
    case .sixDigits:
      // Or the token hash a GoTrue link carries in place of the code (hex SHA-224), which
      // only arrives by opening the link.
      let isCode = bytes.count == 6 && bytes.allSatisfy(isASCIIDigit)
      let isLinkHash = bytes.count == 56 && bytes.allSatisfy(isHexDigit)
      return isCode || isLinkHash ? nil : .codeInvalid
    case .link:
      let printable = bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
      return (1...1_024).contains(bytes.count) && printable ? nil : .linkCodeInvalid
    }
  }

  /// Whether `email` is an address GoTrue accepts, with a dot in its domain as the seeds ask.
  ///
  /// GoTrue's rule (`validateEmail` with checkmail's format): at most 255 bytes; a local part
  /// of ASCII letters, digits and ``localSymbols``; a domain of dot-separated labels of ASCII
  /// letters, digits and inner hyphens, 63 at most each. So `josé@example.com`, an IDN domain
  /// (`ivan@почта.рф`; its `xn--` form passes), a quoted local part and a trailing dot are
  /// refused here as the server refuses them. The seeds add that the domain has a dot, which
  /// GoTrue does not ask (`a@localhost`): the app is never more lenient than the server.
  private static func isWellFormedEmail(_ email: String) -> Bool {
    let bytes = email.utf8
    guard bytes.count <= maximumEmailBytes else { return false }
    let parts = bytes.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false)
    guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty,
      local.allSatisfy({ isASCIIAlphanumeric($0) || localSymbols.utf8.contains($0) })
    else { return false }
    let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    return labels.count >= 2
      && labels.allSatisfy { label in
        guard let first = label.first, let last = label.last, label.count <= 63 else {
          return false
        }
        return isASCIIAlphanumeric(first) && isASCIIAlphanumeric(last)
          && label.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") }
      }
  }

  /// The longest address GoTrue accepts, in UTF-8 bytes.
  public static let maximumEmailBytes = 255

  /// The characters besides ASCII letters and digits that a local part may hold (RFC 5322's
  /// atext, and dots anywhere), as checkmail allows them.
  private static let localSymbols = ".!#$%&'*+/=?^_`{|}~-"

  private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    isASCIILetter(byte) || isASCIIDigit(byte)
  }

  private static func isASCIILetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }

  private static func isASCIIDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    isASCIIDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
  }
}

extension String {
  /// The string without leading and trailing whitespace and newlines.
  func trimmingWhitespace() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }
}

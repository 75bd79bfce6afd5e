import AuthFlow
import Testing

/// The pure validation rules, table-driven.
struct ValidationTests {
  @Test(arguments: [
    ("", ValidationIssue?.some(.emailRequired)),
    (" \t\n", .emailRequired),
    ("test@example.com", nil),
    ("  test@example.com  ", nil),
    ("first.last+tag@sub.example.co.uk", nil),
    ("test", .emailInvalid),
    ("test@", .emailInvalid),
    ("@example.com", .emailInvalid),
    ("test@example", .emailInvalid),
    ("test@example.", .emailInvalid),
    ("test@.example.com", .emailInvalid),
    ("test@example..com", .emailInvalid),
    ("te st@example.com", .emailInvalid),
    ("test@@example.com", .emailInvalid),
    ("a@b@example.com", .emailInvalid),
    ("test@exa(mple).com", .emailInvalid),
    ("test\u{0}@example.com", .emailInvalid),
    ("a@" + String(repeating: "b", count: 250) + ".com", .emailInvalid),
    // GoTrue's rule: ASCII atext and dots before the @, alphanumeric labels with inner hyphens.
    ("jos\u{E9}@example.com", .emailInvalid),
    ("ivan@\u{43F}\u{43E}\u{447}\u{442}\u{430}.\u{440}\u{444}", .emailInvalid),  // ivan@почта.рф
    ("ivan@xn--80a1acny.xn--p1ai", nil),  // the same domain as DNS spells it
    ("\"quoted\"@example.com", .emailInvalid),
    ("test@example.com.", .emailInvalid),
    ("test@-example.com", .emailInvalid),
    ("test@exa_mple.com", .emailInvalid),
    (".dots.@example.com", nil),
    ("o'brien+{x}@example.com", nil),
    (String(repeating: "a", count: 65) + "@example.com", nil),
    (EmailTable.longest, nil),
    ("a" + EmailTable.longest, .emailInvalid),
  ])
  func email(_ input: String, _ expected: ValidationIssue?) {
    #expect(AuthValidation.checkEmail(input) == expected)
  }

  @Test(arguments: [
    ("", ValidationIssue?.some(.passwordRequired)),
    ("Abcdef1", .passwordTooShort),
    ("Abcdefg1", nil),
    ("12345678", .passwordNeedsLetter),
    ("éééééé12", .passwordNeedsLetter),
    ("Abcdefgh", .passwordNeedsNumber),
    ("TestPassword123!", nil),
    ("Test1234", nil),
    (String(repeating: "a", count: 71) + "1", nil),
    (String(repeating: "a", count: 72) + "1", .passwordTooLong),
  ])
  func newPassword(_ input: String, _ expected: ValidationIssue?) {
    #expect(AuthValidation.checkNewPassword(input) == expected)
  }

  @Test func loginPasswordOnlyHasToBePresent() {
    #expect(AuthValidation.checkLoginPassword("") == .passwordRequired)
    #expect(AuthValidation.checkLoginPassword("x") == nil)
  }

  @Test(arguments: [
    ("123456", ValidationIssue?.none),
    ("123 456", nil),
    ("123-456", nil),
    ("12345", .codeInvalid),
    ("1234567", .codeInvalid),
    ("12345a", .codeInvalid),
    ("١٢٣٤٥٦", .codeInvalid),
    ("", .codeInvalid),
  ])
  func code(_ input: String, _ expected: ValidationIssue?) {
    #expect(AuthValidation.checkCode(input) == expected)
  }

  @Test func normalization() {
    #expect(AuthValidation.normalizedEmail("  Test@Example.COM\n") == "test@example.com")
    #expect(AuthValidation.normalizedCode("12 34-56") == "123456")
  }

  @Test func seedMessagesAreExact() {
    #expect(ValidationIssue.emailRequired.message == "Email is required")
    #expect(ValidationIssue.emailInvalid.message == "Invalid email format")
    #expect(ValidationIssue.passwordRequired.message == "Password is required")
    #expect(ValidationIssue.passwordTooShort.message == "Minimum 8 characters required")
    #expect(ValidationIssue.passwordNeedsLetter.message == "Must contain at least one letter")
    #expect(ValidationIssue.passwordNeedsNumber.message == "Must contain at least one number")
    #expect(ValidationIssue.passwordsDontMatch.message == "Passwords don't match")
    #expect(ValidationIssue.consentRequired.message == "You must accept the terms to continue.")
  }

  @Test func everyIssueHasItsOwnMessage() {
    let messages = Set(ValidationIssue.allCases.map(\.message))
    #expect(messages.count == ValidationIssue.allCases.count)
  }

  @Test func emailsAreComposedAndLowercasedBeforeTheyIdentifyAnAccount() {
    let decomposed = "  Pa\u{301}te\u{301}@Example.COM "
    let composed = "p\u{E1}t\u{E9}@example.com"
    #expect(Array(AuthValidation.normalizedEmail(decomposed).utf8) == Array(composed.utf8))
    #expect(AuthValidation.normalizedEmail("ANA@B.CO") == "ana@b.co")
  }
}

/// Addresses at GoTrue's limits.
enum EmailTable {
  /// 255 bytes, the longest address GoTrue accepts: a 64-byte local part and three labels.
  static let longest =
    String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 63) + "."
    + String(repeating: "c", count: 63) + "." + String(repeating: "d", count: 62)
}

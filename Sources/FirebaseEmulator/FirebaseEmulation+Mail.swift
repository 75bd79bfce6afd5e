import GoTrueEngine

/// The emails of out-of-band codes, in the words of Firebase's default templates
/// (Authentication → Templates), which carry only the link. The emulator writes a line to its
/// log instead; here they go to the engine's outbox, which Mailpit's API shows.
extension FirebaseEmulation {
  /// The email that carries `code`. A `VERIFY_AND_CHANGE_EMAIL` link goes to the new address
  /// it verifies; a `RECOVER_EMAIL` link to the address left, naming `changedTo`.
  func mail(for code: FirebaseOutOfBandCode, changedTo: String?) -> PendingEmail {
    let project = projectID
    let recipient = code.type == .verifyAndChangeEmail ? code.newEmail ?? code.email : code.email
    let (subject, lead, ignore): (String, String, String) =
      switch code.type {
      case .passwordReset:
        (
          "Reset your password for \(project)",
          "Follow this link to reset your \(project) password for your \(code.email) account.",
          "If you didn't ask to reset your password, you can ignore this email."
        )
      case .verifyEmail:
        (
          "Verify your email for \(project)",
          "Follow this link to verify your email address.",
          "If you didn't ask to verify this address, you can ignore this email."
        )
      case .verifyAndChangeEmail:
        (
          "Verify your new email for \(project)",
          "Follow this link to verify \(recipient) as the new sign-in email of your \(project) "
            + "account (now \(code.email)).",
          "If you didn't ask to change your email, you can ignore this email."
        )
      case .emailSignIn:
        (
          "Sign in to \(project)",
          "We received a request to sign in to \(project) using this email address. If you want "
            + "to sign in with your \(code.email) account, click this link:",
          "If you did not request this link, you can safely ignore this email."
        )
      case .recoverEmail:
        (
          "Your sign-in email was changed for \(project)",
          "Your sign-in email for \(project) was changed to \(changedTo ?? "another address"). "
            + "If you didn't ask to change your email, follow this link to reset your sign-in "
            + "email.",
          "If you made this change, you can ignore this email."
        )
      }
    let escaped = EmailTemplate.escaped
    let text = """
      Hello,

      \(lead)

      \(code.link)

      \(ignore)

      Thanks,

      Your \(project) team

      """
    let html = """
      <p>Hello,</p>
      <p>\(escaped(lead))</p>
      <p><a href="\(escaped(code.link))">\(escaped(code.link))</a></p>
      <p>\(escaped(ignore))</p>
      <p>Thanks,</p>
      <p>Your \(escaped(project)) team</p>

      """
    return PendingEmail(
      recipient: recipient, kind: code.type.mailKind, code: code.code, link: code.link,
      content: EmailContent(subject: subject, text: text, html: html))
  }
}

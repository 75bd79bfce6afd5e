import AccountStore
import AuthCrypto
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The admin API's links: `POST /admin/generate_link` and `POST /invite`.
extension EmbeddedGoTrue {
  /// `POST /admin/generate_link`: a `signup`, `invite`, `magiclink`, `recovery`,
  /// `email_change_current` or `email_change_new` link for `email`, as GoTrue makes them,
  /// without sending anything.
  @concurrent
  package func generateLink(
    type: String, email rawEmail: String, password: String?, data: [String: JSONValue],
    newEmail rawNewEmail: String?, redirectTo: String?
  ) async throws(GoTrueFailure) -> GeneratedLink {
    let email = try EmailRules.validated(rawEmail)
    let kinds = [
      "signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new",
    ]
    guard kinds.contains(type) else {
      throw .api(Self.invalid("Invalid email action link type requested: \(type)"))
    }
    let newEmail = try rawNewEmail.map { address throws(GoTrueFailure) in
      try EmailRules.validated(address)
    }
    if type.hasPrefix("email_change") {
      guard newEmail != nil else {
        throw .api(Self.invalid("The new email address provided is invalid"))
      }
      if type == "email_change_current", !configuration.secureEmailChange {
        throw .api(Self.invalid("Enable secure email change to generate link for current email"))
      }
    }
    // A new account's password is hashed before the write lock; others need none.
    var hash: String?
    if type == "signup", let password {
      try checkPasswordStrength(password)
      hash = try hashPassword(password)
    }
    let target = allowedRedirect(redirectTo)
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) -> GeneratedLink in
      let existing = try database.user(email: email)
      var user: UserRecord
      var kind: CodeKind
      var verification = type
      var recipient = email
      switch type {
      case "signup", "invite", "magiclink":
        if let existing {
          if existing.isConfirmed, type != "magiclink" { throw Self.emailTaken }
          user = existing
          // A magic link for a user who exists is a sign-in link, confirmed or not (its use
          // confirms the address); a sign-up for one still waiting updates their metadata.
          kind = type == "magiclink" ? .magicLink : type == "invite" ? .invite : .confirmation
          if type == "signup", !data.isEmpty {
            try database.updateUser(
              existing.id,
              [
                .userMetadata(UserRecord.merging(data, into: existing.userMetadata)),
                .updatedAt(now),
              ])
          }
        } else {
          if type == "signup", hash == nil {
            throw GoTrueAPIError.invalidRequest("Signup requires a valid password")
          }
          // GoTrue keeps the data as the new user's metadata, and gives the identity only its
          // claims (a sign-up through /signup merges the two).
          user = try insertUser(
            email: email, passwordHash: hash ?? secrets.decoyHash, data: data,
            userMetadata: data, identityData: [:], confirmed: false, database, now: now)
          kind = type == "invite" ? .invite : .confirmation
          if type == "magiclink" { verification = "signup" }
        }
        if kind == .invite {
          try database.updateUser(user.id, [.invitedAt(now)])
        }
      default:
        guard let existing else {
          throw GoTrueAPIError(
            status: 404, code: .userNotFound, message: "User with this email not found")
        }
        user = existing
        kind = .recovery
        if let newEmail, type.hasPrefix("email_change") {
          if try database.user(email: newEmail) != nil { throw Self.emailTaken }
          try database.updateUser(user.id, [.newEmail(newEmail), .emailChangeConfirmed(false)])
          user.newEmail = newEmail
          kind = type == "email_change_new" ? .emailChangeNew : .emailChangeCurrent
          if kind == .emailChangeNew { recipient = newEmail }
        }
      }
      let pending = try issueCode(
        kind, for: user, to: recipient, database, now: now, redirectTo: redirectTo, mailed: false)
      let current = try database.existingUser(id: user.id)
      return GeneratedLink(
        user: current.goTrueUser, actionLink: pending.link, code: pending.code,
        tokenHash: linkToken(email: recipient, code: pending.code),
        verificationType: verification, redirectTo: target)
    }
  }
}

extension GoTrueAPIError {
  /// 400 `validation_failed` with `message`.
  static func invalidRequest(_ message: String) -> GoTrueAPIError {
    GoTrueAPIError(status: 400, code: .validationFailed, message: message)
  }
}

extension EmbeddedGoTrue {
  /// `POST /invite`: emails an invitation to `email`, making the user (unconfirmed, with
  /// `data` as metadata and no password anyone knows) when there is none; a confirmed user's
  /// address is taken (422 `email_exists`). Invitations wait for no per-address gap, as in
  /// GoTrue, but count against the hourly budget of emails.
  @concurrent
  package func invite(email rawEmail: String, data: [String: JSONValue], redirectTo: String?)
    async throws(GoTrueFailure) -> GoTrueUser
  {
    let email = try EmailRules.validated(rawEmail)
    let date = clock.now
    let (invited, emails) = try answer(spending: nil) {
      database, now throws(GoTrueAPIError) -> (GoTrueUser, [PendingEmail]) in
      let user: UserRecord
      if let existing = try database.user(email: email) {
        if existing.isConfirmed { throw Self.emailTaken }
        user = existing
      } else {
        user = try insertUser(
          email: email, passwordHash: secrets.decoyHash, data: data, userMetadata: data,
          identityData: [:], confirmed: false, database, now: now)
      }
      let sent = try issueCode(.invite, for: user, database, now: now, redirectTo: redirectTo)
      try database.updateUser(user.id, [.invitedAt(now)])
      try audit(
        database, .admin, .userInvited,
        traits: ["user_id": .string(user.id), "user_email": .string(user.email)], now: now)
      return (try Self.existingUser(user.id, database).goTrueUser, [sent])
    }
    try await send(emails, at: date)
    return invited
  }
}

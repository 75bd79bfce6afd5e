import AccountStore
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A text message decided inside a transaction, put in the SMS outbox only once it commits.
package struct PendingSMS: Sendable {
  /// The number, E.164 digits without the `+`.
  var recipient: String
  var kind: SMSMessage.Kind
  var code: String
  /// Whether the code is a fixed one (`--test-otp`): GoTrue names its message `test-otp`.
  var isTestCode: Bool
}

/// What GoTrue's `POST /verify` checks a texted code as (`type`).
package enum PhoneVerification: String, Sendable {
  /// A phone's confirmation or sign-in code, checked against the user's number.
  case sms
  /// A new number's code, checked against the number waiting (`phone_change`).
  case phoneChange = "phone_change"

  /// The stored kind of its codes.
  var codeKind: CodeKind { self == .sms ? .sms : .phoneChange }
}

/// Codes sent by SMS, as GoTrue sends them (`api/phone.go`, `sendPhoneConfirmation`).
extension EmbeddedGoTrue {
  /// Makes a fresh code of `kind` (`sms`, `phoneChange` or `reauthentication`) for `user`,
  /// texted to `phone` (E.164 digits), replacing any unused one of the same kind; stores only
  /// its keyed hash. In GoTrue's order: the wait since the last code of that kind (kept in the
  /// user's row), then, unless the number has a fixed test code, the hourly budget of text
  /// messages. A `phoneChange` code records `phone` as the number waiting. Call inside a write
  /// transaction.
  package func textCode(
    _ kind: CodeKind, for user: UserRecord, to phone: String, _ database: EngineAccounts,
    now: Int64
  ) throws(GoTrueAPIError) -> PendingSMS {
    let lastSent: Int64? =
      switch kind {
      case .phoneChange: user.phoneChangeSentAt
      case .reauthentication: user.reauthenticationSentAt
      default: user.confirmationSentAt
      }
    let limits = limiter(database, now)
    try limits.checkSMSInterval(lastSent: lastSent)
    // A fixed test code still takes its draw, so every other secret of a seeded run stays
    // what it would be without one.
    let drawn = random.digits(configuration.smsCodeLength)
    let fixed = configuration.testCodes[phone]
    if fixed == nil { try limits.consumeSMSSent() }
    let code = fixed ?? drawn
    let lifetime = Int64(configuration.smsCodeLifetime * 1_000)
    // Spent and expired codes of every kind stay as long as emailed ones do, so a used code is
    // told apart from a wrong one.
    let kept = max(lifetime, Int64(configuration.codeLifetime * 1_000))
    try database.replaceCode(
      NewCode(
        userID: user.id, kind: kind, codeHash: codeHash(kind, userID: user.id, code: code),
        linkHash: nil, createdAt: now, expiresAt: now + lifetime),
      forgettingExpiredBefore: now - kept)
    let sent: [UserChange] =
      switch kind {
      case .phoneChange: [.phoneChange(phone), .phoneChangeSentAt(now)]
      case .reauthentication: [.reauthenticationSentAt(now)]
      default: [.confirmationSentAt(now)]
      }
    try database.updateUser(user.id, sent + [.updatedAt(now)])
    return PendingSMS(
      recipient: phone, kind: kind.smsKind, code: code, isTestCode: fixed != nil)
  }

  /// Puts `messages` in the SMS outbox, sent at `date`, in the words of
  /// ``EngineConfiguration/smsTemplate``. Answers GoTrue's `message_id` of the last one: the
  /// outbox's number for it (a provider's message id), or `test-otp` for a fixed code.
  @discardableResult
  package func deliver(_ messages: [PendingSMS], at date: Date) -> String? {
    var messageID: String?
    for message in messages {
      let sent = smsOutbox.send(
        to: message.recipient, code: message.code, kind: message.kind,
        body: SMSOutbox.text(configuration.smsTemplate, code: message.code), at: date)
      messageID = message.isTestCode ? "test-otp" : "\(sent.id)"
    }
    return messageID
  }

  /// GoTrue's answer to a phone request with the phone provider off (`POST /otp`).
  static let unsupportedPhoneProvider = GoTrueAPIError(
    status: 400, code: .phoneProviderDisabled, message: "Unsupported phone provider")

  /// `POST /otp` with a phone: a sign-in code for a confirmed number; for an unknown one, a new
  /// user (unless `createUser` is false or signups are off) with a password no one knows,
  /// confirmed by the code; for an unconfirmed one, its confirmation again. With SMS
  /// autoconfirm the number is confirmed at once and gets a sign-in code, as GoTrue's signup
  /// inside `SmsOtp` does. Answers GoTrue's `message_id` when a sign-in code went out (GoTrue
  /// answers `{}` for a confirmation).
  @concurrent
  package func sendSignInCode(
    phone rawPhone: String, createUser: Bool, data: [String: JSONValue], channel: String? = nil
  ) async throws(GoTrueFailure) -> String? {
    guard configuration.phoneProvider else { throw .api(Self.unsupportedPhoneProvider) }
    let phone = try PhoneRules.normalized(rawPhone)
    let date = clock.now
    let (texts, answersID) = try answer(spending: \.email) {
      database, now throws(GoTrueAPIError) -> ([PendingSMS], Bool) in
      let existing = try database.user(phone: phone)
      if existing == nil, !createUser {
        throw GoTrueAPIError(
          status: 422, code: .otpDisabled, message: "Signups not allowed for otp")
      }
      // Text messages only: WhatsApp needs Twilio (checked after the lookup, as in GoTrue).
      guard ["", "sms"].contains(channel ?? "") else { throw PhoneRules.invalidChannel }
      let channel: [String: JSONValue] = ["channel": .string("sms")]
      if let existing, existing.isPhoneConfirmed {
        try audit(database, .user(existing), .userRecoveryRequested, traits: channel, now: now)
        return ([try textCode(.sms, for: existing, to: phone, database, now: now)], true)
      }
      // A new or unconfirmed number: GoTrue's signup, with a password no one knows (the
      // store's decoy hash, so a password sign-in costs the same and never succeeds).
      if configuration.disableSignup { throw Self.signupsDisabled }
      var user: UserRecord
      if let existing {
        user = existing
      } else {
        user = try insertPhoneUser(
          phone, passwordHash: secrets.decoyHash, data: data, confirmed: false, database, now: now)
      }
      let provider: [String: JSONValue] = ["provider": .string("phone")]
      guard configuration.smsAutoconfirm else {
        try audit(database, .user(user), .userConfirmationRequested, traits: provider, now: now)
        return ([try textCode(.sms, for: user, to: phone, database, now: now)], false)
      }
      try audit(
        database, .user(user), .userSignedUp, traits: provider.merging(channel) { $1 }, now: now)
      user = try database.updatedUser(
        user.id, [.phoneConfirmedAt(now), .updatedAt(now)])
      try database.setPhoneIdentity(
        id: user.phoneIdentityID ?? random.uuidString(), userID: user.id, phone: phone,
        confirmed: true, now: now)
      try audit(database, .user(user), .userRecoveryRequested, traits: channel, now: now)
      return ([try textCode(.sms, for: user, to: phone, database, now: now)], true)
    }
    let messageID = deliver(texts, at: date)
    return answersID ? messageID : nil
  }

  /// `POST /resend` with a phone: `sms` texts a waiting confirmation again, `phone_change` the
  /// code of the number waiting. Nothing is sent, and `nil` answered, for an unknown number or
  /// nothing to resend (GoTrue's `{}`); else GoTrue's `message_id`.
  @concurrent
  package func resendText(_ type: PhoneVerification, phone rawPhone: String)
    async throws(GoTrueFailure) -> String?
  {
    let phone = try PhoneRules.normalized(rawPhone)
    let date = clock.now
    let texts = try answer(spending: \.email) {
      database, now throws(GoTrueAPIError) -> [PendingSMS] in
      guard let user = try database.user(phone: phone) else { return [] }
      switch type {
      case .sms:
        guard !user.isPhoneConfirmed else { return [] }
        try audit(database, .user(user), .userRecoveryRequested, now: now)
        return [try textCode(.sms, for: user, to: phone, database, now: now)]
      case .phoneChange:
        guard let waiting = user.phoneChange else { return [] }
        return [try textCode(.phoneChange, for: user, to: waiting, database, now: now)]
      }
    }
    return deliver(texts, at: date)
  }
}

extension CodeKind {
  /// The text message that carries a code of this kind (a reauthentication nonce goes by SMS
  /// to a user with a phone and no email).
  var smsKind: SMSMessage.Kind {
    switch self {
    case .phoneChange: .phoneChange
    case .reauthentication: .reauthentication
    default: .otp
    }
  }
}

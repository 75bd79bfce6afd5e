import AccountStore
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// Finding and listing accounts for an admin: `accounts:lookup` by identifiers,
/// `accounts:batchGet` page by page, `accounts:query` all at once.
extension FirebaseEmulation {
  /// `accounts:lookup` by an admin: the accounts `lookup` names, each once, in the order the
  /// emulator reads the lists (ids, emails, phone numbers, provider ids).
  package func accounts(matching lookup: FirebaseLookup) throws(IdentityToolkitError)
    -> [FirebaseAccount]
  {
    try read { database, now in
      var found: [UserRecord] = []
      for id in lookup.ids {
        if let user = try database.user(id: id) { found.append(user) }
      }
      for email in lookup.emails {
        if let user = try database.user(email: EmailRules.normalized(email)) { found.append(user) }
      }
      // A number that is no E.164 number with its `+` is no account's.
      for number in lookup.phoneNumbers {
        if let digits = FirebasePhoneNumber.digits(number),
          let user = try database.user(phone: digits)
        {
          found.append(user)
        }
      }
      for federated in lookup.federatedIDs {
        switch federated.providerID {
        case "password":
          // The `password` provider's raw id is the account's email, as stored (lowercased).
          if let user = try database.user(email: federated.rawID),
            try account(user, database, now: now).signsInByEmail
          {
            found.append(user)
          }
        case "phone":
          if let digits = FirebasePhoneNumber.digits(federated.rawID),
            let user = try database.user(phone: digits)
          {
            found.append(user)
          }
        default:
          if let id = try database.userID(
            linkedProvider: federated.providerID, providerID: federated.rawID),
            let user = try database.user(id: id)
          {
            found.append(user)
          }
        }
      }
      var seen: Set<String> = []
      return try found.filter { $0.deletedAt == nil && seen.insert($0.id).inserted }.map {
        try account($0, database, now: now)
      }
    }
  }

  /// ``accounts(matching:)`` by ids and emails.
  package func accounts(ids: [String], emails: [String]) throws(IdentityToolkitError)
    -> [FirebaseAccount]
  {
    var lookup = FirebaseLookup()
    (lookup.ids, lookup.emails) = (ids, emails)
    return try accounts(matching: lookup)
  }

  /// `accounts:batchGet`: up to `limit` accounts (the emulator's default 20, at most 1000;
  /// a negative limit means all) whose ids sort after `after`, by id; the next page's token
  /// (the last id) when the page is full, even if no account follows.
  package func page(after: String?, limit: Int?) throws(IdentityToolkitError)
    -> (accounts: [FirebaseAccount], next: String?)
  {
    let size = min(limit.flatMap { $0 == 0 ? nil : $0 } ?? 20, 1_000)
    return try read { database, now in
      let users = try database.liveUsers(after: after ?? "", limit: size < 0 ? nil : size)
      let accounts = try users.map { try account($0, database, now: now) }
      let full = size >= 0 && accounts.count == size && size > 0
      return (accounts, full ? accounts.last?.id : nil)
    }
  }

  /// `accounts:query`: every account, by id (`descending` or not).
  package func allAccounts(descending: Bool) throws(IdentityToolkitError) -> [FirebaseAccount] {
    try read { database, now in
      try database.liveUsers(descending: descending).map { try account($0, database, now: now) }
    }
  }

  /// `accounts:query` with `returnUserInfo: false`: how many accounts there are.
  package func accountCount() throws(IdentityToolkitError) -> Int {
    try read { database, _ in
      try database.liveUserCount()
    }
  }
}

/// What an admin's `accounts:lookup` names: lists of ids, emails, phone numbers and provider
/// ids, any of them empty.
package struct FirebaseLookup: Equatable, Sendable {
  /// `localId`.
  package var ids: [String] = []
  /// `email`, matched without regard to case.
  package var emails: [String] = []
  /// `phoneNumber`.
  package var phoneNumbers: [String] = []
  /// `federatedUserId`: a provider and the user's id there.
  package var federatedIDs: [FirebaseFederatedID] = []

  /// A lookup naming nothing yet.
  package init() {}
}

/// A user's id at a provider (`{providerId, rawId}`).
package struct FirebaseFederatedID: Equatable, Sendable {
  /// The provider (`password`, `google.com`, …).
  package var providerID: String
  /// The user's id there (for `password`, the email).
  package var rawID: String

  /// The id `rawID` at `providerID`.
  package init(providerID: String, rawID: String) {
    self.providerID = providerID
    self.rawID = rawID
  }
}

extension FirebaseAccount {
  /// Whether the account has the `password` provider: an email with a password or email-link
  /// sign-in (the emulator's rule for `providerUserInfo`).
  package var signsInByEmail: Bool { !email.isEmpty && (hasPassword || emailLinkSignin) }
}

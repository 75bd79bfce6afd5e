import AccountStore
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// An account's phone number, as the emulator keeps one (`phoneNumber`, the `phone` provider)
/// and GoTrue keeps it (`auth.users.phone`, confirmed, with a phone identity and `phone` among
/// the providers of `app_metadata`): a number set by an admin or proved by a texted code is
/// verified on both surfaces.
extension FirebaseEmulation {
  /// The live account with the stored number `digits`.
  func holder(ofPhone digits: String, _ database: EngineAccounts) throws -> UserRecord? {
    try database.user(phone: digits).flatMap { $0.deletedAt == nil ? $0 : nil }
  }

  /// `PHONE_NUMBER_EXISTS` when an account other than `userID` has the stored number
  /// `digits`.
  func checkPhoneFree(_ digits: String, for userID: String?, _ database: EngineAccounts) throws {
    if let holder = try database.user(phone: digits), holder.id != userID {
      throw IdentityToolkitError.badRequest(.phoneNumberExists)
    }
  }

  /// Gives `user` the stored number `digits`, confirmed now (`PHONE_NUMBER_EXISTS` when
  /// another account has it): an anonymous user becomes a phone user, as linking a phone
  /// makes one in Firebase. A number the user has, confirmed, is left as it is; one GoTrue
  /// has not confirmed yet is confirmed.
  func setPhone(_ digits: String, of user: UserRecord, _ database: EngineAccounts, now: Int64)
    throws
  {
    guard digits != user.phone || user.phoneConfirmedAt == nil else { return }
    try checkPhoneFree(digits, for: user.id, database)
    var app = user.appMetadata
    var providers = (app["providers"]?.arrayValue ?? []).compactMap(\.stringValue)
    if user.isAnonymous { providers.removeAll { $0 == "anonymous" } }
    if !providers.contains("phone") { providers.append("phone") }
    app["providers"] = .array(providers.map(JSONValue.string))
    if user.isAnonymous || app["provider"] == nil { app["provider"] = .string("phone") }
    try database.updateUser(
      user.id,
      [
        .phone(digits), .phoneConfirmedAt(now), .appMetadata(app), .isAnonymous(false),
        .updatedAt(now),
      ])
    try database.setPhoneIdentity(
      id: user.phoneIdentityID ?? engine.random.uuidString(), userID: user.id, phone: digits,
      confirmed: true, now: now)
  }

  /// Takes `user`'s number away (`deleteProvider: ["phone"]`), and `phone` from its
  /// providers.
  func removePhone(of user: UserRecord, _ database: EngineAccounts, now: Int64) throws {
    guard user.phone != nil else { return }
    try database.removePhone(ofUser: user.id)
    var app = user.appMetadata
    if let providers = app["providers"]?.arrayValue {
      let kept = providers.filter { $0.stringValue != "phone" }
      app["providers"] = .array(kept)
      if app["provider"]?.stringValue == "phone" { app["provider"] = kept.first }
    }
    try database.updateUser(user.id, [.appMetadata(app), .updatedAt(now)])
  }
}

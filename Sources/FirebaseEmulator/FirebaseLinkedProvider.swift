import AccountStore
import GoTrue
import IdentityToolkit

/// A provider entry an account has beside `password` and `phone` (an import's `google.com`,
/// …): kept as the store's ``LinkedIdentity``, shown in `providerUserInfo` and found by an
/// admin's `federatedUserId` lookup, as the emulator keeps the entries `batchCreate` gives it.
package struct FirebaseLinkedProvider: Equatable, Sendable {
  /// The provider (`google.com`).
  package var providerID: String
  /// The user's id at the provider (`rawId`).
  package var rawID: String
  /// The provider's id for the user (`federatedId`), when one was given.
  package var federatedID: String?
  /// The email at the provider.
  package var email: String?
  /// The display name at the provider.
  package var displayName: String?
  /// The photo URL at the provider.
  package var photoURL: String?

  /// An entry with the given parts.
  package init(
    providerID: String, rawID: String, federatedID: String? = nil, email: String? = nil,
    displayName: String? = nil, photoURL: String? = nil
  ) {
    self.providerID = providerID
    self.rawID = rawID
    self.federatedID = federatedID
    self.email = email
    self.displayName = displayName
    self.photoURL = photoURL
  }

  /// The entry an import gives (its provider and raw id checked present).
  init(imported entry: IdentityToolkitRequest.ImportedProvider, providerID: String, rawID: String) {
    self.init(
      providerID: providerID, rawID: rawID, federatedID: Self.present(entry.federatedId),
      email: Self.present(entry.email), displayName: Self.present(entry.displayName),
      photoURL: Self.present(entry.photoUrl))
  }

  /// The entry the store keeps as `identity`.
  init(_ identity: LinkedIdentity) {
    let data = identity.data
    self.init(
      providerID: identity.provider, rawID: identity.providerID,
      federatedID: data["federated_id"]?.stringValue, email: data["email"]?.stringValue,
      displayName: data["full_name"]?.stringValue, photoURL: data["avatar_url"]?.stringValue)
  }

  /// What the store keeps of it, in the names GoTrue's identities use (`sub`, `email`,
  /// `full_name`, `avatar_url`), and `federated_id` when one was given.
  func identity(id: String, now: Int64) -> LinkedIdentity {
    var data: [String: JSONValue] = ["sub": .string(rawID)]
    if let email { data["email"] = .string(email) }
    if let displayName { data["full_name"] = .string(displayName) }
    if let photoURL { data["avatar_url"] = .string(photoURL) }
    if let federatedID { data["federated_id"] = .string(federatedID) }
    return LinkedIdentity(
      id: id, provider: providerID, providerID: rawID, data: data, createdAt: now)
  }

  private static func present(_ text: String?) -> String? {
    text.flatMap { $0.isEmpty ? nil : $0 }
  }
}

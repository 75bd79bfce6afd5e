/// The Auth emulator's fake password hash, `fakeHash:salt=SALT:password=PASSWORD`: the
/// password in the clear, as the emulator keeps every password (its exports, and imports that
/// send them back). Read by the users file and by `accounts:batchCreate`.
package enum FirebaseFakeHash {
  /// How the fake form starts.
  package static let prefix = "fakeHash:salt="

  /// Whether `hash` is in the fake form.
  package static func isFake(_ hash: String) -> Bool { hash.hasPrefix(prefix) }

  /// The password in the fake `hash`, or `nil` when it is not in that form. A `salt` given
  /// beside the hash tells where the password starts, whatever either holds; without one the
  /// first `:password=` does.
  package static func password(in hash: String, salt: String?) -> String? {
    guard isFake(hash) else { return nil }
    let rest = hash.dropFirst(prefix.count)
    let marker = ":password="
    var split = rest.firstRange(of: marker)?.lowerBound
    if let salt, rest.hasPrefix(salt + marker) {
      split = rest.index(rest.startIndex, offsetBy: salt.count)
    }
    guard let split else { return nil }
    return String(rest[split...].dropFirst(marker.count))
  }
}

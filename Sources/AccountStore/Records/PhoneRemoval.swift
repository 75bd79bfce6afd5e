/// Taking a phone number away from a user (Firebase's `deleteProvider: ["phone"]`): the
/// number, its confirmation and the phone identity GoTrue keeps with it.
extension Accounts {
  /// Removes user `id`'s phone number, its confirmation and its phone identity.
  package func removePhone(ofUser id: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.removePhone(ofUser: id) }
    }
    try run(
      "UPDATE users SET phone = NULL, phone_confirmed_at = NULL, phone_identity_id = NULL "
        + "WHERE id = ?", .text(id))
  }
}

extension PostgresConnection {
  /// The number and its confirmation cleared in `auth.users`, the `phone` identity deleted.
  func removePhone(ofUser id: String) throws(AccountStoreError) {
    try query(
      "UPDATE auth.users SET phone = NULL, phone_confirmed_at = NULL "
        + "WHERE id = authflow.user_key($1)", .text(id))
    try query(
      "DELETE FROM auth.identities WHERE user_id = authflow.user_key($1) AND provider = 'phone'",
      .text(id))
  }
}

import GoTrue

/// The admin API's factor routes (`api/admin.go`: `adminUserGetFactors`,
/// `adminUserUpdateFactor`, `adminUserDeleteFactor`), for a caller already checked with
/// ``EmbeddedGoTrue/authorizeAdmin(_:)``.
extension EmbeddedGoTrue {
  /// `GET /admin/users/{id}/factors`: the user's factors, oldest first (`[]` for none).
  package func factors(ofUser userID: String) throws(GoTrueFailure) -> [GoTrueFactor] {
    try withDatabase { database throws(GoTrueAPIError) in
      let user = try Self.existingUser(userID, database)
      return try database.factors(ofUser: user.id).map(\.goTrueFactor)
    }
  }

  /// Fails as GoTrue's `loadUser` does when there is no user `userID`.
  package func loadUser(_ userID: String) throws(GoTrueFailure) {
    try withDatabase { database throws(GoTrueAPIError) in
      _ = try Self.existingUser(userID, database)
    }
  }

  /// Factor `factorID` of user `userID` (GoTrue's `loadUser` and `loadFactor`).
  package func factor(ofUser userID: String, id factorID: String) throws(GoTrueFailure)
    -> GoTrueFactor
  {
    try withDatabase { database throws(GoTrueAPIError) in
      let user = try Self.existingUser(userID, database)
      return try ownedFactor(factorID, of: user, database).goTrueFactor
    }
  }

  /// `PUT /admin/users/{id}/factors/{factor_id}`: renames the factor when `friendlyName` is not
  /// empty (no check for a name the user already uses, as in GoTrue); answers the factor.
  package func updateFactor(ofUser userID: String, factorID: String, friendlyName: String)
    throws(GoTrueFailure) -> GoTrueFactor
  {
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let user = try Self.existingUser(userID, database)
      var factor = try ownedFactor(factorID, of: user, database)
      if !friendlyName.isEmpty {
        try database.updateFactor(factor.id, [.friendlyName(friendlyName), .updatedAt(now)])
        factor.friendlyName = friendlyName
        factor.updatedAt = now
      }
      return factor.goTrueFactor
    }
  }

  /// `DELETE /admin/users/{id}/factors/{factor_id}`: removes the factor, verified or not; the
  /// sessions it raised drop to aal1. Answers the factor as it was.
  package func deleteFactor(ofUser userID: String, factorID: String)
    throws(GoTrueFailure) -> GoTrueFactor
  {
    try answer(spending: nil) { database, _ throws(GoTrueAPIError) in
      let user = try Self.existingUser(userID, database)
      let factor = try ownedFactor(factorID, of: user, database)
      try database.deleteFactor(factor.id)
      try database.downgradeSessions(raisedBy: factor.id)
      return factor.goTrueFactor
    }
  }
}

import AccountStore
import GoTrue

/// What serve's page (`/_/users`) reads and does beside the admin API: whole user rows (with
/// their factors and the Firebase surface's custom claims), and the end of every session of a
/// user, which an admin otherwise gets only by signing in as them.
extension EmbeddedGoTrue {
  /// One page of users, newest first, `perPage` to a page from page 1, only those whose email
  /// or `full_name` contains `filter` when it is given; and how many match in all.
  package func consoleUsers(page: Int, perPage: Int, filter: String?) throws(GoTrueFailure)
    -> (users: [UserRecord], total: Int)
  {
    let offset = Int64(max(0, page - 1)) * Int64(max(1, perPage))
    return try withDatabase { database throws(GoTrueAPIError) in
      try database.users(
        UserQuery(containing: filter, newestFirst: true, limit: perPage, offset: offset))
    }
  }

  /// Ends every session of user `id` on both surfaces: their refresh tokens stop working, and
  /// their access tokens lapse when they expire.
  package func endSessions(ofUser id: String) throws(GoTrueFailure) {
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let user = try Self.existingUser(id, database)
      try database.deleteSessions(ofUser: user.id)
      try audit(database, .admin, .logout, traits: AuditActor.traits(of: user), now: now)
    }
  }
}

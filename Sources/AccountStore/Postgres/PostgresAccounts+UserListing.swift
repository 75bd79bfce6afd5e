/// Users listed on PostgreSQL: the admin API's pages, the Firebase emulator's listings in its
/// own order (by uid, bytewise), and the counts beside them.
extension PostgresConnection {
  func usersPage(_ query: UserQuery) throws(AccountStoreError) -> (users: [UserRecord], total: Int)
  {
    let condition =
      query.containing == nil
      ? "true"
      : """
      (strpos(lower(coalesce(u.email, '')), lower($1)) > 0
        OR strpos(lower(coalesce(u.raw_user_meta_data ->> 'full_name', '')), lower($1)) > 0)
      """
    let values: [PostgresValue] = query.containing.map { [.text($0)] } ?? []
    let direction = query.newestFirst ? "DESC" : "ASC"
    let total =
      try first(
        "SELECT count(*) FROM auth.users u WHERE \(condition)", values
      ) { row throws(AccountStoreError) in Int(try row.int64(0)) } ?? 0
    let users = try users(
      where: condition, values,
      suffix:
        "ORDER BY u.created_at \(direction), u.id \(direction) LIMIT \(query.limit) OFFSET \(query.offset)"
    )
    return (users, total)
  }

  func liveUsers(after id: String, limit: Int?) throws(AccountStoreError) -> [UserRecord] {
    try users(
      where: "u.deleted_at IS NULL AND coalesce(x.firebase_uid, u.id::text) COLLATE \"C\" > $1",
      [.text(id)],
      suffix: "ORDER BY coalesce(x.firebase_uid, u.id::text) COLLATE \"C\""
        + (limit.map { " LIMIT \($0)" } ?? ""))
  }

  func liveUsers(descending: Bool) throws(AccountStoreError) -> [UserRecord] {
    try users(
      where: "u.deleted_at IS NULL", [],
      suffix: "ORDER BY coalesce(x.firebase_uid, u.id::text) COLLATE \"C\" "
        + (descending ? "DESC" : "ASC"))
  }

  func liveUsersOldestFirst() throws(AccountStoreError) -> [UserRecord] {
    try users(where: "u.deleted_at IS NULL", [], suffix: "ORDER BY u.created_at, u.id")
  }

  func userCount(live: Bool) throws(AccountStoreError) -> Int {
    try first(
      "SELECT count(*) FROM auth.users" + (live ? " WHERE deleted_at IS NULL" : "")
    ) { row throws(AccountStoreError) in Int(try row.int64(0)) } ?? 0
  }
}

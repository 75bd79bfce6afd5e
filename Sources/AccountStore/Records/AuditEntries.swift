/// One entry of GoTrue's audit log (`auth.audit_log_entries`): who did what, as a JSON
/// payload, and when.
package struct AuditEntryRecord: Sendable, Equatable {
  /// The entry's UUID.
  package var id: String
  /// The payload as JSON text (`actor_id`, `actor_username`, `action`, `log_type`, `traits`…).
  package var payload: String
  /// When, in Unix milliseconds.
  package var createdAt: Int64
  /// The client's address where GoTrue records one, else empty.
  package var ipAddress: String

  /// An entry made of its parts.
  package init(id: String, payload: String, createdAt: Int64, ipAddress: String) {
    self.id = id
    self.payload = payload
    self.createdAt = createdAt
    self.ipAddress = ipAddress
  }
}

/// Which entries a page of the log holds: those whose payload has `value` within any of
/// `members` (GoTrue's `ILIKE '%value%'`, its `%` and `_` wildcards too), newest first.
package struct AuditQuery: Sendable {
  /// The payload members searched; none for every entry.
  package var members: [String]
  /// The text searched for.
  package var value: String
  /// At most this many entries (GoTrue's `per_page`).
  package var limit: Int
  /// After skipping this many.
  package var offset: Int64

  /// A query of its parts.
  package init(members: [String], value: String, limit: Int, offset: Int64) {
    self.members = members
    self.value = value
    self.limit = limit
    self.offset = offset
  }
}

extension Accounts {
  /// Adds `entry` to the log.
  package func appendAuditEntry(_ entry: AuditEntryRecord) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.appendAuditEntry(entry) }
    }
    try run(
      "INSERT INTO audit_log_entries (id, payload, created_at, ip_address) VALUES (?, ?, ?, ?)",
      .text(entry.id), .text(entry.payload), .integer(entry.createdAt), .text(entry.ipAddress))
  }

  /// One page of the log, and how many entries match in all.
  package func auditEntries(_ wanted: AuditQuery) throws(Failure) -> (
    entries: [AuditEntryRecord], total: Int
  ) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.auditEntries(wanted) }
    }
    var condition = ""
    var values: [SQLiteValue] = []
    if !wanted.members.isEmpty && !wanted.value.isEmpty {
      // SQLite's LIKE ignores ASCII case, as ILIKE does.
      condition =
        "WHERE "
        + wanted.members.map { _ in "json_extract(payload, '$.' || ?) LIKE ?" }
        .joined(separator: " OR ")
      for member in wanted.members { values += [.text(member), .text("%\(wanted.value)%")] }
    }
    let total =
      try first("SELECT count(*) FROM audit_log_entries \(condition)", values) {
        Int($0.int(0))
      } ?? 0
    let entries = try query(
      """
      SELECT id, payload, created_at, ip_address FROM audit_log_entries \(condition)
      ORDER BY created_at DESC, rowid DESC LIMIT \(wanted.limit) OFFSET \(wanted.offset)
      """, values
    ) {
      AuditEntryRecord(
        id: $0.text(0), payload: $0.text(1), createdAt: $0.int(2), ipAddress: $0.text(3))
    }
    return (entries, total)
  }
}

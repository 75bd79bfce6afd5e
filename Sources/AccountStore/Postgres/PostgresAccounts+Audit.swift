/// GoTrue's audit log on PostgreSQL (`auth.audit_log_entries`), written as GoTrue writes it:
/// the nil instance id, the payload as `json`.
extension PostgresConnection {
  func appendAuditEntry(_ entry: AuditEntryRecord) throws(AccountStoreError) {
    try query(
      """
      INSERT INTO auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
      VALUES ('00000000-0000-0000-0000-000000000000', $1::uuid, $2::json, authflow.ts($3), $4)
      """, .text(entry.id), .text(entry.payload), .integer(entry.createdAt),
      .text(entry.ipAddress))
  }

  func auditEntries(_ query: AuditQuery) throws(AccountStoreError) -> (
    entries: [AuditEntryRecord], total: Int
  ) {
    var condition = ""
    var values: [PostgresValue] = []
    if !query.members.isEmpty && !query.value.isEmpty {
      condition =
        "WHERE "
        + query.members.indices.map { "payload->>$\(2 * $0 + 1) ILIKE $\(2 * $0 + 2)" }
        .joined(separator: " OR ")
      for member in query.members { values += [.text(member), .text("%\(query.value)%")] }
    }
    let total =
      try first("SELECT count(*) FROM auth.audit_log_entries \(condition)", values) {
        row throws(AccountStoreError) in Int(try row.int64(0))
      } ?? 0
    let entries = try rows(
      """
      SELECT id::text, coalesce(payload::text, '{}'), coalesce(authflow.ms(created_at), 0),
        ip_address
      FROM auth.audit_log_entries \(condition)
      ORDER BY created_at DESC LIMIT \(query.limit) OFFSET \(query.offset)
      """, values
    ) { row throws(AccountStoreError) in
      AuditEntryRecord(
        id: try row.text(0), payload: try row.text(1), createdAt: try row.int64(2),
        ipAddress: try row.text(3))
    }
    return (entries, total)
  }
}

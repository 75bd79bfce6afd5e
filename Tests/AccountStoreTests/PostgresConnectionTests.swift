import AccountStore
import Foundation
import PostgresTestSupport
import Testing

/// A libpq connection: statements with parameters, rows read by type, transactions, errors.
struct PostgresConnectionTests {
  @Test func connectsAndAnswersAQuery() throws {
    let connection = try connectToNewDatabase()
    #expect(connection.backendPID > 0)
    #expect(try connection.column("select current_setting('TimeZone')") == ["UTC"])
    #expect(try connection.column("select current_setting('server_encoding')") == ["UTF8"])
    #expect(
      try connection.first("select 40 + 2") { row throws(AccountStoreError) in
        try row.int64(0)
      } == 42)
  }

  @Test func parametersComeBackAsTheyWent() throws {
    let connection = try connectToNewDatabase()
    let text = "O'Brien said \"hi\"; -- \\x00 ünïcødé 🎉 日本 $1 %s"
    let bytes: [UInt8] = [0, 1, 0, 255, 0, 39, 92, 0]
    let row = try connection.first(
      "select $1::text, $2::bytea, $3::text, $4::int8, $5::int8, $6::float8, $7::text, $8::bytea,"
        + " $9::bool, $10::uuid, $11::jsonb",
      .text(text), .bytes(bytes), .null, .integer(.max), .integer(.min), .double(0.1),
      .text(""), .bytes([]), .text("true"), .text("6C8E2F3B-0000-4000-8000-00000000000A"),
      .text(#"{"b": [1, "two"], "a": null}"#)
    ) { row throws(AccountStoreError) in
      (
        try row.text(0), try row.bytes(1), try row.optionalText(2), try row.int64(3),
        try row.int64(4), try row.double(5), try row.text(6), try row.bytes(7), try row.bool(8),
        try row.uuid(9), try row.json(10)
      )
    }
    let values = try #require(row)
    #expect(values.0 == text)
    #expect(values.1 == bytes)
    #expect(values.2 == nil)
    #expect(values.3 == .max)
    #expect(values.4 == .min)
    #expect(values.5 == 0.1)
    #expect(values.6 == "")
    #expect(values.7 == [])
    #expect(values.8 == true)
    #expect(values.9 == "6c8e2f3b-0000-4000-8000-00000000000a")
    #expect(values.10 == #"{"a": null, "b": [1, "two"]}"#)
  }

  @Test func valuesKeepTheirTypesInATable() throws {
    let connection = try connectToNewDatabase()
    try connection.execute(
      """
      create table t (id int8 primary key, name text, secret bytea, seen timestamptz,
        ok bool, ratio float8);
      """)
    let rows: [PostgresValue] = [
      .integer(1), .text("ada"), .bytes([0, 0, 7]), .timestamp(milliseconds: 1_735_689_600_123),
      .text("f"), .double(-1e300),
    ]
    let inserted = try connection.query("insert into t values ($1, $2, $3, $4, $5, $6)", rows)
    #expect(inserted.changes == 1)
    try connection.query(
      "insert into t values ($1, $2, $3, $4, $5, $6)", .integer(2), .null, .null, .null, .null,
      .double(.infinity))
    let read = try connection.rows("select * from t order by id") { row throws(AccountStoreError) in
      let name: String = try row.optionalText(1) ?? "-"
      let secret: String = try row.optionalBytes(2).map { "\($0)" } ?? "-"
      let seen: String = try row.optionalMilliseconds(3).map { "\($0)" } ?? "-"
      let ok: String = try row.optionalBool(4).map { "\($0)" } ?? "-"
      let ratio: String = "\(try row.double(5))"
      return [name, secret, seen, ok, ratio]
    }
    #expect(
      read == [
        ["ada", "[0, 0, 7]", "1735689600123", "false", "-1e+300"],
        ["-", "-", "-", "-", "inf"],
      ])
  }

  @Test func timestampsAgreeWithTheServerBothWays() throws {
    let connection = try connectToNewDatabase()
    // Before 1970, at its start, with and without fractions, a leap day, year 1, and 1 BC.
    for milliseconds: Int64 in [
      0, 1, -1, 1_735_689_600_123, 951_782_400_000, -62_135_596_800_000, -62_167_219_200_000,
      253_402_300_799_999,
    ] {
      let row = try connection.first(
        "select $1::timestamptz, (extract(epoch from $1::timestamptz) * 1000)::int8",
        .timestamp(milliseconds: milliseconds)
      ) { row throws(AccountStoreError) in (try row.milliseconds(0), try row.int64(1)) }
      #expect(row?.0 == milliseconds, "read back \(milliseconds)")
      #expect(row?.1 == milliseconds, "the server's reading of \(milliseconds)")
    }
    let special = try connection.first(
      "select 'infinity'::timestamptz, '-infinity'::timestamptz, null::timestamptz,"
        + " '2025-01-01 00:00:00.0009+00'::timestamptz"
    ) { row throws(AccountStoreError) in
      [
        try row.milliseconds(0), try row.milliseconds(1), try row.optionalMilliseconds(2) ?? 7,
        try row.milliseconds(3),
      ]
    }
    #expect(special == [.max, .min, 7, 1_735_689_600_000])
  }

  @Test func aTextParameterWithANulIsRefusedWithoutItsValue() throws {
    let connection = try connectToNewDatabase()
    let error = storeError { try connection.query("select $1::text", .text("sec\u{0}ret")) }
    #expect(error?.kind == .failed)
    #expect(error?.message == "parameter $1 holds a NUL, which text cannot")
  }

  @Test func aUniqueViolationKeepsItsSQLStateAndNotTheValue() throws {
    let connection = try connectToNewDatabase()
    try connection.execute("create table t (email text unique)")
    try connection.query("insert into t values ($1)", .text("ada-secret@example.com"))
    let error = storeError {
      try connection.query("insert into t values ($1)", .text("ada-secret@example.com"))
    }
    #expect(error?.kind == .failed)
    #expect(error?.sqlState == "23505")
    #expect(
      error?.message
        == #"PostgreSQL: duplicate key value violates unique constraint "t_email_key" (SQLSTATE 23505)"#
    )
  }

  @Test func aRefusedValueIsNotQuotedInTheError() throws {
    let connection = try connectToNewDatabase()
    let error = storeError { try connection.query("select $1::uuid", .text("hunter2-secret")) }
    #expect(error?.sqlState == "22P02")
    #expect(error?.message == "PostgreSQL: a parameter's value was refused (SQLSTATE 22P02)")
    try connection.execute(
      "create function boom(t text) returns void language plpgsql"
        + " as $$ begin raise exception 'got %', t; end $$")
    let raised = storeError { try connection.query("select boom($1)", .text("hunter2-secret")) }
    #expect(raised?.sqlState == "P0001")
    #expect(raised?.message == "PostgreSQL: a function refused (SQLSTATE P0001)")
  }

  @Test func aReadOnlyTransactionIsReadOnly() throws {
    let connection = try connectToNewDatabase()
    try connection.execute("begin; set transaction read only")
    let error = storeError { try connection.execute("create table t (x int)") }
    #expect(error?.kind == .readOnly)
    #expect(error?.sqlState == "25006")
    try connection.rollback()
    #expect(!connection.isInTransaction)
  }

  @Test func twoSerializableWritersOfOneRowConflict() throws {
    let url = try makePostgresDatabase()
    let first = try PostgresConnection(url: url)
    let second = try PostgresConnection(url: url)
    try first.execute("create table counter (n int8); insert into counter values (0)")
    try first.begin(.serializable)
    try second.begin(.serializable)
    // Both take their snapshot, then the second writes and commits before the first writes.
    #expect(try first.column("select n from counter") == ["0"])
    #expect(try second.column("select n from counter") == ["0"])
    try second.execute("update counter set n = n + 1")
    try second.commit()
    let error = storeError { try first.execute("update counter set n = n + 1") }
    #expect(error?.kind == .conflict)
    #expect(error?.sqlState == "40001")
    #expect(error?.message.hasSuffix("(SQLSTATE 40001): try again") == true)
    try first.rollback()
    #expect(try first.column("select n from counter") == ["1"])
  }

  @Test func aTransactionCommitsWhatItsBodyDidAndUndoesAFailedOne() throws {
    let connection = try connectToNewDatabase()
    try connection.execute("create table t (x int8 primary key)")
    try connection.transaction(.readCommitted) { connection throws(AccountStoreError) in
      try connection.query("insert into t values ($1)", .integer(1))
    }
    let error = storeError {
      try connection.transaction(.serializable) { connection throws(AccountStoreError) in
        try connection.query("insert into t values ($1)", .integer(2))
        try connection.query("insert into t values ($1)", .integer(1))
      }
    }
    #expect(error?.sqlState == "23505")
    #expect(!connection.isInTransaction)
    #expect(try connection.column("select x from t") == ["1"])
  }

  @Test func aCommitOfAFailedTransactionIsAnError() throws {
    let connection = try connectToNewDatabase()
    try connection.begin(.readCommitted)
    _ = storeError { try connection.execute("select nonsense") }
    let error = storeError { try connection.commit() }
    #expect(error?.kind == .failed)
    #expect(!connection.isInTransaction)
  }

  @Test func aConnectionTheServerEndsIsBrokenAndUnavailable() throws {
    let url = try makePostgresDatabase()
    let victim = try PostgresConnection(url: url)
    let other = try PostgresConnection(url: url)
    #expect(
      try other.column("select pg_terminate_backend(\(victim.backendPID), 5000)") == ["t"])
    let error = storeError { try victim.execute("select 1") }
    #expect(error?.kind == .unavailable)
    #expect(victim.isBroken)
    #expect(victim.hasEnded())
  }

  @Test func aServerThatIsDownIsUnavailable() throws {
    let url = try PostgresURL(
      "postgresql://postgres@127.0.0.1:\(PostgresTestServer.unusedPort())/x")
    let error = storeError { try PostgresConnection(url: url, timeout: 2) }
    #expect(error?.kind == .unavailable)
    #expect(error?.message.hasPrefix("cannot connect to PostgreSQL: ") == true)
    #expect(error?.message.contains("\n") == false)
    #expect(PostgresPing(url) == .noResponse)
  }

  @Test func theTestServerAnswersPings() throws {
    #expect(try PostgresPing(PostgresTestServer.shared().url(database: "postgres")) == .accepting)
  }

  @Test func aRequiredGSSAPIEncryptionFailsCleanly() throws {
    let server = try PostgresTestServer.shared()
    let url = try PostgresURL(
      "postgresql://postgres@127.0.0.1:\(server.port)/postgres?gssencmode=require")
    let error = storeError { try PostgresConnection(url: url) }
    #expect(error?.kind == .unavailable)
  }

  // MARK: Prepared statements

  /// This session's prepared statements, by their text.
  private func preparedStatements(_ connection: PostgresConnection) throws -> [String] {
    try connection.column("select statement from pg_prepared_statements order by statement")
  }

  @Test func aStatementIsPreparedOnceAndRunAgainWithNewValues() throws {
    let connection = try connectToNewDatabase()
    for number in [1, 2, 41] as [Int64] {
      let sum = try connection.first("select $1::int8 + 1", .integer(number)) {
        row throws(AccountStoreError) in try row.int64(0)
      }
      #expect(sum == number + 1)
    }
    #expect(try preparedStatements(connection) == ["select $1::int8 + 1"])
    // The same text with values of other types is another statement, typed as they are.
    let text = try connection.first("select $1::text || 'x'", .text("a")) {
      row throws(AccountStoreError) in try row.text(0)
    }
    let bytes = try connection.first("select $1::text || 'x'", .bytes([0x62])) {
      row throws(AccountStoreError) in try row.text(0)
    }
    #expect(text == "ax")
    #expect(bytes == "\\x62x")
    #expect(try preparedStatements(connection).count == 3)
    #expect(connection.prepares)
  }

  @Test func aStatementTheServerForgotIsSentWholeFromThenOn() throws {
    let connection = try connectToNewDatabase()
    let first = try connection.first("select $1::int8 * 2", .integer(4)) {
      row throws(AccountStoreError) in try row.int64(0)
    }
    #expect(first == 8)
    // What a pooler handing the next transaction to another session looks like.
    try connection.execute("DEALLOCATE ALL")
    let again = try connection.first("select $1::int8 * 2", .integer(5)) {
      row throws(AccountStoreError) in try row.int64(0)
    }
    #expect(again == 10)
    #expect(!connection.prepares)
    _ = try connection.query("select $1::int8 * 3", .integer(1))
    #expect(try preparedStatements(connection).isEmpty)
  }

  @Test func aStatementOverATableThatChangedShapeIsPreparedAgain() throws {
    let connection = try connectToNewDatabase()
    try connection.execute("create table shaped (a int8); insert into shaped values (1)")
    let before = try connection.query("select * from shaped where a = $1", .integer(1))
    #expect(before.columnCount == 1)
    try connection.execute("alter table shaped add column b text default 'new'")
    let after = try connection.texts(
      "select * from shaped where a = $1", .integer(1))
    #expect(after == [["1", "new"]])
    #expect(connection.prepares)
  }

  @Test func aConnectionPreparesAtMostItsLimit() throws {
    let connection = try connectToNewDatabase()
    let count = PostgresConnection.preparedLimit + 10
    for index in 0..<count {
      let value = try connection.first("select $1::int8 + \(index)", .integer(1)) {
        row throws(AccountStoreError) in try row.int64(0)
      }
      #expect(value == Int64(index) + 1)
    }
    #expect(try preparedStatements(connection).count == PostgresConnection.preparedLimit)
  }
}

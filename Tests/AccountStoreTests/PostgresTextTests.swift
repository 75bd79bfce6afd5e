import Testing

@testable import AccountStore

/// What the PostgreSQL store reads and writes as text without a server: URLs, timestamps, the
/// kinds and messages of failures.
struct PostgresTextTests {
  @Test func onlyPostgreSQLURLsAreTaken() throws {
    #expect(try PostgresURL("postgresql://ada@db.example.com:5433/app").string.isEmpty == false)
    #expect(try PostgresURL("postgres:///app?host=/var/run/postgresql").string.isEmpty == false)
    let refusals = [
      ("mysql://root:hunter2@db/app", "mysql://… is not a PostgreSQL URL"),
      ("/var/lib/authflow/auth.db", "not a PostgreSQL URL"),
      ("host=db dbname=app", "not a PostgreSQL URL"),
      ("POSTGRESQL://db/app", "POSTGRESQL://… is not a PostgreSQL URL"),
      ("", "not a PostgreSQL URL"),
    ]
    for (text, what) in refusals {
      let error = storeError { try PostgresURL(text) }
      #expect(error?.kind == .failed)
      #expect(
        error?.message == "\(what); use postgresql://user@host:port/database (or postgres://)")
    }
  }

  @Test func aMalformedURLIsNamedWithoutItsPassword() throws {
    let host = storeError { try PostgresURL("postgresql://[::1/app") }
    #expect(host?.message.hasPrefix("the PostgreSQL URL is malformed: ") == true)
    let port = storeError { try PostgresURL("postgresql://db:port/app") }
    #expect(port?.message == "the PostgreSQL URL's port is not a number from 0 to 65535")
    #expect(try PostgresURL("postgresql://a:5432,b:5433/app").string.isEmpty == false)
    let option = storeError { try PostgresURL("postgresql://db/app?colour=blue") }
    #expect(option?.message.contains("colour") == true)
    let password = storeError { try PostgresURL("postgresql://ada:se%zzcret@db/app") }
    #expect(password?.message.hasPrefix("the PostgreSQL URL is malformed: ") == true)
    #expect(password?.message.contains("se%zz") == false)
  }

  @Test func aURLIsShownWithoutItsPassword() throws {
    #expect(
      try PostgresURL("postgresql://ada:p%40ss:word@db:5432/app").description
        == "postgresql://ada:…@db:5432/app")
    #expect(try PostgresURL("postgres://db/app").description == "postgres://db/app")
  }

  @Test func timestampsReadAsTheServerWritesThem() {
    let cases: [(String, Int64?)] = [
      ("1970-01-01 00:00:00+00", 0),
      ("2025-01-01 00:00:00.123456+00", 1_735_689_600_123),
      ("2025-01-01 01:30:00+01:30", 1_735_689_600_000),
      ("2024-12-31 19:00:00-05", 1_735_689_600_000),
      ("1969-12-31 23:59:59.9995+00", -1),
      ("0001-01-01 00:00:00+00 BC", -62_167_219_200_000),
      ("1901-12-13 20:45:52+00:09:21", -2_147_484_209_000),
      ("infinity", .max),
      ("-infinity", .min),
      ("2025-01-01", nil),
      ("2025-13-01 00:00:00+00", nil),
      ("2025-01-01 00:00:00", nil),
      ("2025-01-01 00:00:00.+00", nil),
    ]
    for (text, milliseconds) in cases {
      #expect(PostgresTimestamp.milliseconds(text) == milliseconds, "\(text)")
    }
    #expect(PostgresTimestamp.text(milliseconds: 0) == "1970-01-01 00:00:00.000+00")
    #expect(PostgresTimestamp.text(milliseconds: -1) == "1969-12-31 23:59:59.999+00")
    #expect(
      PostgresTimestamp.text(milliseconds: -62_167_219_200_000) == "0001-01-01 00:00:00.000+00 BC")
  }

  @Test func eachSQLStateHasTheKindTheRulesAnswer() {
    let kinds: [(String?, AccountStoreError.Kind)] = [
      ("40001", .conflict), ("40P01", .conflict), ("08006", .unavailable), ("08001", .unavailable),
      ("57P01", .unavailable), ("57P03", .unavailable), ("53300", .unavailable),
      ("57014", .unavailable), ("53100", .full), ("25006", .readOnly), ("XX001", .damaged),
      ("23505", .failed), ("42601", .failed), (nil, .failed),
    ]
    for (sqlState, kind) in kinds {
      #expect(PostgresFailure.kind(sqlState: sqlState, connectionLost: false) == kind)
    }
    #expect(PostgresFailure.kind(sqlState: "23505", connectionLost: true) == .unavailable)
    #expect(PostgresFailure.endsConnection(sqlState: "57P01"))
    #expect(PostgresFailure.endsConnection(sqlState: "08006"))
    #expect(!PostgresFailure.endsConnection(sqlState: "40001"))
  }

  @Test func aFailureMessageLeavesParametersOut() {
    let secret = PostgresValue.text("hunter2")
    #expect(
      PostgresFailure.message(
        "relation \"hunter2\" does not exist", sqlState: "42P01",
        parameters: [secret])
        == "PostgreSQL: relation \"…\" does not exist (SQLSTATE 42P01)")
    #expect(
      PostgresFailure.message(
        "invalid input syntax for type uuid: \"x\"", sqlState: "22P02",
        parameters: [.text("x")])
        == "PostgreSQL: a parameter's value was refused (SQLSTATE 22P02)")
    #expect(
      PostgresFailure.message(
        "invalid input syntax for type uuid: \"x\"", sqlState: "22P02",
        parameters: [])
        == "PostgreSQL: invalid input syntax for type uuid: \"x\" (SQLSTATE 22P02)")
    #expect(
      PostgresFailure.message("could not serialize access", sqlState: "40001", parameters: [])
        == "PostgreSQL: could not serialize access (SQLSTATE 40001): try again")
  }
}

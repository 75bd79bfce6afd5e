import TOML
import Testing

/// toml++ read from Swift: tables, dotted keys, every kind of value, the file's order, and its
/// errors with their lines.
struct TOMLReaderTests {
  @Test func tablesAndDottedKeysNestInTheFilesOrder() throws {
    let document = try TOMLReader.read(
      """
      project_id = "demo"

      [auth]
      site_url = "http://127.0.0.1:3000"
      additional_redirect_urls = ["https://127.0.0.1:3000", "myapp://callback"]
      jwt_expiry = 3600
      email.otp_length = 8

      [auth.rate_limit]
      email_sent = 2
      """)
    #expect(document.entries.map(\.key) == ["project_id", "auth"])
    guard case .table(let auth) = document["auth"] else {
      Issue.record("auth is not a table")
      return
    }
    #expect(
      auth.entries.map(\.key) == [
        "site_url", "additional_redirect_urls", "jwt_expiry", "email", "rate_limit",
      ])
    #expect(auth.entries.map(\.line) == [4, 5, 6, 7, 9])
    #expect(auth["site_url"] == .string("http://127.0.0.1:3000"))
    #expect(
      auth["additional_redirect_urls"]
        == .array([.string("https://127.0.0.1:3000"), .string("myapp://callback")]))
    #expect(auth["jwt_expiry"] == .integer(3_600))
    #expect(
      auth["email"]
        == .table(TOMLTable([TOMLEntry(key: "otp_length", value: .integer(8), line: 7)])))
    #expect(
      auth["rate_limit"]
        == .table(TOMLTable([TOMLEntry(key: "email_sent", value: .integer(2), line: 10)])))
  }

  @Test func everyKindOfValueIsRead() throws {
    let document = try TOMLReader.read(
      """
      text = 'literal \\n'
      escaped = "tab\\there"
      multi = \"\"\"
      two
      lines\"\"\"
      number = 0x1F
      ratio = 1.5e3
      flag = false
      when = 1979-05-27T07:32:00Z
      day = 1979-05-27
      inline = { a = 1, b = [true] }
      """)
    #expect(document["text"] == .string("literal \\n"))
    #expect(document["escaped"] == .string("tab\there"))
    #expect(document["multi"] == .string("two\nlines"))
    #expect(document["number"] == .integer(31))
    #expect(document["ratio"] == .float(1_500))
    #expect(document["flag"] == .boolean(false))
    #expect(document["when"] == .dateTime("1979-05-27T07:32:00Z"))
    #expect(document["day"] == .dateTime("1979-05-27"))
    #expect(
      document["inline"]
        == .table(
          TOMLTable([
            TOMLEntry(key: "a", value: .integer(1), line: 11),
            TOMLEntry(key: "b", value: .array([.boolean(true)]), line: 11),
          ])))
  }

  @Test func anEmptyDocumentIsAnEmptyTable() throws {
    #expect(try TOMLReader.read("") == TOMLTable())
    #expect(try TOMLReader.read("# only a comment\n") == TOMLTable())
  }

  @Test func whatIsNotTOMLIsRefusedWithItsLine() {
    for (text, line) in [
      ("a = 1\nb = \n", 2), ("[auth]\nx = 1\n[auth]\n", 3), ("a = 1\na = 2\n", 2),
      ("s = \"open\n", 1), ("x = [1, \"two\"\n", 1),
    ] {
      do {
        _ = try TOMLReader.read(text)
        Issue.record("read \(text)")
      } catch {
        #expect(error.line == line, "\(text)")
        #expect(!error.description.isEmpty)
      }
    }
  }

  @Test func valuesAreWrittenBackForMessages() {
    #expect(TOMLValue.string("x").written == "\"x\"")
    #expect(TOMLValue.array([.integer(1), .boolean(true)]).written == "[1, true]")
    #expect(TOMLValue.float(0.5).written == "0.5")
  }
}

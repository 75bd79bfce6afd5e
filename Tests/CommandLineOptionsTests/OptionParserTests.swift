import CommandLineOptions
import Testing

/// Command lines read against a table, with environment variables for what is not given.
struct OptionParserTests {
  struct Settings: Equatable {
    var port = 9999
    var verbose = false
    var name = ""
  }

  static let table: [OptionSpec<Settings>] = [
    OptionSpec(["--port"], "N", ["the port"], section: "server", environment: "APP_PORT") {
      settings, value throws(OptionValueError) in
      guard let port = Int(value), (0...65_535).contains(port) else {
        throw OptionValueError(expected: "a port from 0 to 65535")
      }
      settings.port = port
    },
    OptionSpec(
      ["-v", "--verbose"], nil, ["say more"], section: "output", environment: "APP_VERBOSE"
    ) {
      settings, _ in settings.verbose = true
    },
    OptionSpec(["--name"], "TEXT", ["a name", "on two lines"], section: "output") {
      settings, value in settings.name = value
    },
  ]

  private func parse(_ arguments: [String], environment: [String: String] = [:]) throws(OptionError)
    -> ParsedCommandLine<Settings>
  {
    try OptionParser.parse(arguments, table: Self.table, into: Settings(), environment: environment)
  }

  @Test func readsValuesFlagsAndOperands() throws {
    let parsed = try parse(["--port", "80", "-v", "file", "--name=a=b", "--", "--port"])
    #expect(parsed.options == Settings(port: 80, verbose: true, name: "a=b"))
    #expect(parsed.operands == ["file", "--port"])
    #expect(parsed.given.map(\.name) == ["--port", "--verbose", "--name"])
  }

  @Test func theEnvironmentFillsInWhatTheCommandLineLeavesOut() throws {
    let environment = ["APP_PORT": "81", "APP_VERBOSE": "true"]
    #expect(try parse([], environment: environment).options == Settings(port: 81, verbose: true))
    #expect(try parse(["--port", "82"], environment: environment).options.port == 82)
    #expect(try parse([], environment: ["APP_VERBOSE": "0"]).options.verbose == false)
    #expect(try parse([], environment: ["APP_PORT": ""]).options.port == 9999)
  }

  @Test func mistakesSayWhatWasWrongAndWhatWouldBeRight() {
    let cases: [([String], [String: String], String)] = [
      (["--nope"], [:], "unknown option '--nope'; see app --help"),
      (["--port"], [:], "--port needs a value; see app --help"),
      (["--verbose=yes"], [:], "--verbose takes no value"),
      (["--port", "http"], [:], "--port takes a port from 0 to 65535"),
      ([], ["APP_PORT": "x"], "APP_PORT takes a port from 0 to 65535"),
      ([], ["APP_VERBOSE": "maybe"], "APP_VERBOSE takes true or false, not 'maybe'"),
      (
        [String(repeating: "-", count: 40)], [:],
        "unknown option '------------------------…'; see app --help"
      ),
    ]
    for (arguments, environment, text) in cases {
      #expect(throws: OptionError.self) { try parse(arguments, environment: environment) }
      do {
        _ = try parse(arguments, environment: environment)
      } catch {
        #expect(error.text(program: "app") == text)
      }
    }
  }

  @Test func usageListsSectionsWithHelpAndVariables() {
    let lines = OptionParser.usage(Self.table, sections: ["server", "output"])
    #expect(
      lines == [
        "", "server:",
        "  --port N                      the port",
        "                                (env APP_PORT)",
        "", "output:",
        "  -v, --verbose                 say more",
        "                                (env APP_VERBOSE)",
        "  --name TEXT                   a name",
        "                                on two lines",
      ])
  }
}

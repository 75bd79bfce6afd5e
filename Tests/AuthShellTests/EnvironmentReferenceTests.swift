import Foundation
import Testing

@testable import AuthShell

/// `set <field> $NAME` reads the environment: what parses as a variable, what stays a value,
/// and what is shown and kept of each.
struct EnvironmentReferenceTests {
  @Test(arguments: [
    ("set password $PASS", FieldInput.variable(.password, name: "PASS")),
    ("set email ${EMAIL_1}", .variable(.email, name: "EMAIL_1")),
    ("set password $$PASS", .value(.password, "$PASS")),
    ("set email $$WHO", .value(.email, "$WHO")),
    ("set password $lower", .value(.password, "$lower")),
    ("set password $1X", .value(.password, "$1X")),
    ("set password ${OPEN", .value(.password, "${OPEN")),
  ])
  func aValueCanComeFromTheEnvironment(line: String, input: FieldInput) throws {
    let parsed = LineParser.parse(line[...])
    let invocation = try #require(try? parsed.commands.first?.result.get())
    #expect(invocation.input.value(as: FieldInput.self) == input)
    // What is shown and kept reads back the same: a variable by name, a value escaped.
    if case .value(let field, let value) = input, !field.isSecret {
      #expect(invocation.displayWords.last == EnvironmentReference.escaped(value))
    }
  }

  @MainActor
  @Test func aVariableFillsTheFieldAndAnEscapedDollarIsAValue() async throws {
    let run = try await runShell(
      [
        "signin", "set email $WHO", "expect field email test@example.com",
        "set email $$WHO", "expect field email $WHO",
      ], environment: ["WHO": "test@example.com"])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.history.contains("set email $WHO"), "the name is kept, not the value")
  }

  /// A value no output may show: a token, with a quote that JSON and a script line escape.
  private static let marker = "ghp_" + UUID().uuidString.replacing("-", with: "")
  private static let token = "\(marker)\"x"

  @MainActor
  @Test func aValueFromTheEnvironmentIsShownAsItsNameInTextErrorsAndChecks() async throws {
    var options = ShellRunner.Options()
    options.echo = true
    let run = try await runShell(
      [
        "signin", "set email $TOKEN", "show", "expect field email '\(Self.token)'",
        "expect field email nobody@example.com",
      ], options: options, environment: ["TOKEN": Self.token])
    #expect(run.status == 1)
    #expect(!run.output.contains(Self.marker) && !run.errors.contains(Self.marker))
    #expect(run.output.contains("$TOKEN"), "\(run.output)")
    // The check with the value holds; the one that fails quotes the name.
    #expect(
      run.errors == "line 5: expected field email \"nobody@example.com\", got \"$TOKEN\"\n")
    #expect(run.history.contains("set email $TOKEN"))
  }

  @MainActor
  @Test func aValueFromTheEnvironmentIsItsNameInJSON() async throws {
    var options = ShellRunner.Options()
    options.json = true
    // A control character too, which JSON escapes.
    let run = try await runShell(
      ["signin", "set email $TOKEN", "show", "expect field email x@example.com"],
      options: options, environment: ["TOKEN": Self.token + "\u{1B}"])
    #expect(run.status == 1)
    #expect(!run.output.contains(Self.marker) && !run.errors.contains(Self.marker))
    #expect(run.output.contains(#""email":"$TOKEN""#), "\(run.output)")
  }

  @Test func aFailingScriptInASuiteShowsTheNameInItsReport() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    try folder.write(
      "leak.authflow", "signin\nset email $TOKEN\nshow\nexpect field email nobody@example.com\n")
    let report = folder.path + "/junit.xml"
    let run = runSuite(
      [folder.path, "--junit", report], temporary: folder.path,
      environment: ["TOKEN": Self.token])
    #expect(run.status == 1)
    let junit = try String(contentsOfFile: report, encoding: .utf8)
    for text in [run.output, run.errors, junit] { #expect(!text.contains(Self.marker)) }
    #expect(
      run.output.contains(
        #"leak.authflow:4: expected field email "nobody@example.com", got "$TOKEN""#),
      "\(run.output)")
  }

  @Test func masksReplaceEachFormOfAValueLongestFirstAndLeaveShortOnesAlone() {
    let masks = EnvironmentMasks()
    #expect(masks.isEmpty)
    masks.add("Ada@Example.com", name: "WHO")
    masks.add("Ada@Example.com.au", name: "LONGER")
    masks.add("abc", name: "SHORT")
    #expect(
      masks.apply("Ada@Example.com ada@example.com Ada@Example.com.au abc")
        == "$WHO $WHO $LONGER abc")
    masks.add("a\"b\u{1B}", name: "ODD")
    #expect(masks.apply(#"{"v":"a\"b\u001b"} a"b\u{1B}"#) == #"{"v":"$ODD"} $ODD"#)
    #expect(masks.name(of: "ada@example.com") == "WHO")
  }
}

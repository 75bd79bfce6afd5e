import Testing

@testable import AuthShell

/// `set <field> $NAME` reads the environment: what parses as a variable, what stays a value,
/// and what is shown and kept of each.
struct EnvironmentReferenceTests {
  @Test(arguments: [
    ("set password $PASS", Arguments.fieldVariable(.password, name: "PASS")),
    ("set email ${EMAIL_1}", .fieldVariable(.email, name: "EMAIL_1")),
    ("set password $$PASS", .fieldValue(.password, "$PASS")),
    ("set email $$WHO", .fieldValue(.email, "$WHO")),
    ("set password $lower", .fieldValue(.password, "$lower")),
    ("set password $1X", .fieldValue(.password, "$1X")),
    ("set password ${OPEN", .fieldValue(.password, "${OPEN")),
  ])
  func aValueCanComeFromTheEnvironment(line: String, arguments: Arguments) throws {
    let parsed = LineParser.parse(line[...])
    let invocation = try #require(try? parsed.commands.first?.result.get())
    #expect(invocation.arguments == arguments)
    // What is shown and kept reads back the same: a variable by name, a value escaped.
    if case .fieldValue(let field, let value?) = arguments, !field.isSecret {
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
}

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
}

import Testing

@testable import AuthShell

/// What each script's process gets: the suite's own options apart from the shell's, which pass
/// through; the embedded defaults unless the `#!` line or the suite sets them; a skip for a
/// script of another backend.
struct SuitePlanTests {
  func options(_ arguments: [String]) throws -> SuiteOptions {
    try SuiteOptions.parse(arguments)
  }

  @Test func ownOptionsPathsAndShellOptionsAreToldApart() throws {
    let parsed = try options([
      "a", "--jobs=3", "--plain", "--tap", "b", "--hash-cost", "5", "--junit", "r.xml", "--",
      "--bail",
    ])
    #expect(parsed.paths == ["a", "b"])
    #expect(parsed.jobs == 3)
    #expect(parsed.tap)
    #expect(parsed.junit == "r.xml")
    #expect(parsed.passThrough == ["--plain", "--hash-cost", "5", "--bail"])
    #expect(parsed.shell.plain && parsed.shell.bail && parsed.shell.hashCost == 5)
    #expect(!parsed.backendGiven)
    #expect(try options([]).paths == ["examples"])
    #expect((1...SuiteOptions.jobLimit).contains(try options([]).jobs))
  }

  @Test func theEmbeddedDefaultsGiveWayToTheHeaderAndTheSuite() throws {
    let plain = try options([])
    #expect(
      SuitePlan(header: nil, options: plain)
        == .run(arguments: ["--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--echo"]))
    #expect(
      SuitePlan(header: ["--store", ":memory:", "--plain"], options: plain)
        == .run(arguments: [
          "--seed", "1", "--hash-cost", "4", "--store", ":memory:", "--plain", "--echo",
        ]))
    // A store of its own: no seed (it needs :memory:).
    #expect(
      SuitePlan(header: ["--store", "own.db"], options: plain)
        == .run(arguments: ["--hash-cost", "4", "--store", "own.db", "--echo"]))
    #expect(
      SuitePlan(header: ["--hash-cost=6"], options: try options(["--seed", "2"]))
        == .run(arguments: ["--store", ":memory:", "--hash-cost=6", "--seed", "2", "--echo"]))
  }

  @Test func aHeaderForAnotherBackendSkipsAndOtherBackendsOptionsAreSetAside() throws {
    let supabase = try options(["--backend", "supabase", "--supabase-url", "http://x"])
    #expect(supabase.backendGiven)
    #expect(
      SuitePlan(header: ["--backend", "embedded", "--store", ":memory:"], options: supabase)
        == .skip(reason: "its #! line asks for the embedded backend; the suite runs supabase"))
    #expect(
      SuitePlan(header: ["--store", ":memory:", "--plain"], options: supabase)
        == .run(arguments: [
          "--plain", "--backend", "supabase", "--supabase-url", "http://x", "--echo",
        ]))
    #expect(
      SuitePlan(header: ["--backend=supabase"], options: try options([]))
        == .skip(reason: "its #! line asks for the supabase backend; the suite runs embedded"))
    #expect(SuitePlan.backend(in: ["--supabase-key", "--backend", "--seed", "1"]) == nil)
    #expect(SuitePlan.backend(in: ["--backend", "a", "--backend=b"]) == "b")
  }

  @Test func aHeaderThatDoesNotParseIsLeftForTheScriptToReport() throws {
    #expect(
      SuitePlan(header: ["--bogus"], options: try options([]))
        == .run(arguments: ["--bogus", "--echo"]))
  }

  @Test func shellLinesAreLocatedInTheScript() {
    #expect(
      ScriptOutcome.located("line 12: expected x", in: "a/b.authflow")
        == "a/b.authflow:12: expected x")
    #expect(
      ScriptOutcome.located("line 3 (command 2): no", in: "s.authflow")
        == "s.authflow:3 (command 2): no")
    #expect(
      ScriptOutcome.located("authflow: unknown option", in: "s") == "authflow: unknown option")
    #expect(ScriptOutcome.located("line x: y", in: "s") == "line x: y")
    #expect(ScriptOutcome.format(0.125) == "0.13")
    #expect(ScriptOutcome.format(12.04) == "12.04")
  }
}

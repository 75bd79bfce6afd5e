import ScriptSuites
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
    #expect(parsed.shell.plain && parsed.shell.bail && parsed.shell.settings.engine.hashCost == 5)
    #expect(!parsed.backendGiven)
    #expect(try options([]).paths == ["examples"])
    #expect((1...SuiteOptions.jobLimit).contains(try options([]).jobs))
  }

  @Test func theEmbeddedDefaultsGiveWayToTheHeaderAndTheSuite() throws {
    let plain = try options([])
    #expect(
      SuitePlan(header: nil, options: plain, script: "s.authflow")
        == .run(arguments: ["--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--echo"]))
    #expect(
      SuitePlan(header: ["--store", ":memory:", "--plain"], options: plain, script: "s.authflow")
        == .run(arguments: [
          "--seed", "1", "--hash-cost", "4", "--store", ":memory:", "--plain", "--echo",
        ]))
    // A store of its own, from the suite: no seed (it needs :memory:).
    #expect(
      SuitePlan(header: nil, options: try options(["--store", "own.db"]), script: "s.authflow")
        == .run(arguments: ["--hash-cost", "4", "--store", "own.db", "--echo"]))
    #expect(
      SuitePlan(
        header: ["--hash-cost=6"], options: try options(["--seed", "2"]), script: "s.authflow")
        == .run(arguments: ["--store", ":memory:", "--hash-cost=6", "--seed", "2", "--echo"]))
  }

  @Test func aHeaderForAnotherBackendSkipsAndOtherBackendsOptionsAreSetAside() throws {
    let supabase = try options(["--backend", "supabase", "--supabase-url", "http://x"])
    #expect(supabase.backendGiven)
    #expect(
      SuitePlan(
        header: ["--backend", "embedded", "--store", ":memory:"], options: supabase,
        script: "s.authflow")
        == .skip(reason: "its #! line asks for the embedded backend; the suite runs supabase"))
    #expect(
      SuitePlan(
        header: ["--store", ":memory:", "--plain"], options: supabase, script: "s.authflow")
        == .run(arguments: [
          "--plain", "--backend", "supabase", "--supabase-url", "http://x", "--echo",
        ]))
    #expect(
      SuitePlan(header: ["--backend=supabase"], options: try options([]), script: "s.authflow")
        == .skip(reason: "its #! line asks for the supabase backend; the suite runs embedded"))
    #expect(SuitePlan.backend(in: ["--supabase-key", "--backend", "--seed", "1"]) == nil)
    #expect(SuitePlan.backend(in: ["--backend", "a", "--backend=firebase"]) == .firebase)
    #expect(SuitePlan.backend(in: ["--backend", "firebase", "--backend=b"]) == nil)
  }

  @Test func aHeaderThatDoesNotParseFailsTheScript() throws {
    #expect(
      SuitePlan(header: ["--bogus"], options: try options([]), script: "s.authflow")
        == .fail(reason: "authflow: unknown option '--bogus'; see authflow --help"))
    // Its last option does not take the suite's next word as its value.
    #expect(
      SuitePlan(header: ["--record"], options: try options(["--plain"]), script: "s.authflow")
        == .fail(reason: "authflow: --record needs a value; see authflow --help"))
  }

  @Test func aHeaderAskingForTheUsersStateFailsTheScriptUnlessTheSuiteGivesIt() throws {
    let plain = try options([])
    #expect(
      SuitePlan(header: ["--store", "own.db", "--keep-session"], options: plain, script: "s")
        == .fail(
          reason: "authflow: the #! line of s asks for --store own.db and --keep-session, which"
            + " only the command line may give: run authflow test --store own.db --keep-session s"
        ))
    #expect(
      SuitePlan(header: ["--record", "out.authflow"], options: plain, script: "s")
        == .fail(
          reason: "authflow: the #! line of s asks for --record out.authflow, which only the"
            + " command line may give: run authflow test --record out.authflow s"))
    // A file named on the line would run instead of the script.
    #expect(
      SuitePlan(header: ["other.authflow"], options: plain, script: "s")
        == .fail(
          reason: "authflow: the #! line of s asks for other.authflow, which only the command"
            + " line may give: run authflow test other.authflow s"))
    // The engine's settings only on the store the suite gives each script.
    #expect(
      SuitePlan(header: ["--seed", "7", "--autoconfirm"], options: plain, script: "s")
        == .run(arguments: [
          "--store", ":memory:", "--hash-cost", "4", "--seed", "7", "--autoconfirm", "--echo",
        ]))
    #expect(
      SuitePlan(header: ["--seed", "7"], options: try options(["--store", "x.db"]), script: "s")
        == .fail(
          reason: "authflow: the #! line of s asks for --seed 7 on a store other than :memory:,"
            + " which only the command line may give: run authflow test --seed 7 s"))
    // Given by the suite, the suite's value wins and the line's is set aside.
    #expect(
      SuitePlan(
        header: ["--keep-session", "--store", "own.db"],
        options: try options(["--keep-session", "--store", ":memory:"]), script: "s")
        == .run(arguments: [
          "--seed", "1", "--hash-cost", "4", "--keep-session", "--store", ":memory:", "--echo",
        ]))
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

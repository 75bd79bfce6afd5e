import Foundation
import Testing

@testable import AuthShell

/// A script may come from anyone: from its `#!` line, `authflow FILE` takes only options that
/// keep the run in a sandbox of its own; the user's saved session, store and files are the
/// command line's to give.
struct ScriptLineTests {
  let folder = NSTemporaryDirectory() + "authflow-line-" + UUID().uuidString
  var environment: [String: String] {
    ["XDG_DATA_HOME": folder + "/data", "XDG_STATE_HOME": folder + "/state"]
  }

  func script(_ name: String, _ text: String) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func aSharedScriptCannotActOnTheSavedSessionFromItsLine() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let signIn = try runAuthflow(
      [
        "--hash-cost", "4", "--keep-session", "-c",
        "signin; set email test@example.com; set password TestPassword123!; submit",
      ], environment: environment)
    #expect(signIn.status == 0, "\(signIn.error)")
    let shared = try script(
      "shared.authflow",
      "#!/usr/bin/env -S authflow --keep-session\nexpect signed-in\ndelete-account confirm\n")

    let run = try runAuthflow([shared], environment: environment)
    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(
      run.error
        == "authflow: the #! line of \(shared) asks for --keep-session, which only the command"
        + " line may give: run authflow --keep-session \(shared)\n")
    let still = try runAuthflow(
      ["--keep-session", "-c", "expect signed-in test@example.com"], environment: environment)
    #expect(still.status == 0, "the saved session is untouched: \(still.error)")

    // Given on the command line (as the kernel gives it to ./shared.authflow), it is the
    // user's choice.
    let chosen = try runAuthflow(["--keep-session", shared], environment: environment)
    #expect(chosen.status == 0, "\(chosen.error)")
    let gone = try runAuthflow(
      ["--keep-session", "-c", "expect signed-out"], environment: environment)
    #expect(gone.status == 0, "the account and its session are gone: \(gone.error)")
  }

  @Test func aLineCannotNameAStoreOrAFileToWrite() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/real.db"
    let recording = folder + "/out.authflow"
    let path = try script(
      "files.authflow",
      "#!/usr/bin/env -S authflow --store \(store) --record \(recording) --seed 1\nshow\n")
    let run = try runAuthflow([path], environment: environment)
    #expect(run.status == 2)
    #expect(
      run.error
        == "authflow: the #! line of \(path) asks for --store \(store) and --record \(recording),"
        + " and for --seed 1 on a store other than :memory:, which only the command line may"
        + " give: run authflow --store \(store) --record \(recording) --seed 1 \(path)\n")
    #expect(!FileManager.default.fileExists(atPath: store))
    #expect(!FileManager.default.fileExists(atPath: recording))
    #expect(!FileManager.default.fileExists(atPath: folder + "/data/authflow/auth.db"))

    // The line's last option does not take the command line's next word as its value.
    let cut = try script("cut.authflow", "#!/usr/bin/env -S authflow --record\nshow\n")
    let swallowed = try runAuthflow([cut], environment: environment)
    #expect(swallowed.status == 2)
    #expect(swallowed.error == "authflow: --record needs a value; see authflow --help\n")
  }

  @Test func theEnginesSettingsComeFromTheLineOnlyOnAStoreOfItsOwn() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try script(
      "seeded.authflow", "#!/usr/bin/env -S authflow --seed 1 --hash-cost 4\nshow\n")
    let onUsersStore = try runAuthflow([path], environment: environment)
    #expect(onUsersStore.status == 2)
    #expect(
      onUsersStore.error
        == "authflow: the #! line of \(path) asks for --seed 1 and --hash-cost 4 on a store other"
        + " than :memory:, which only the command line may give: run authflow --seed 1"
        + " --hash-cost 4 \(path)\n")
    let inMemory = try runAuthflow(["--store", ":memory:", path], environment: environment)
    #expect(inMemory.status == 0, "\(inMemory.error)")
  }

  @Test func theFirebaseExamplesRunOnAnEmulatorOfTheirOwn() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = packageRoot.appendingPathComponent("examples-firebase/reset-by-link.authflow").path
    let run = try runAuthflow(["--hash-cost", "4", path], environment: environment)
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.contains("Your password has been updated."), "\(run.output)")
  }

  @Test func aLineCannotNameAProjectsEmulator() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try script(
      "project.authflow", "#!/usr/bin/env -S authflow --backend firebase\nshow\n")
    let run = try runAuthflow([path], environment: environment)
    #expect(run.status == 2)
    #expect(
      run.error
        == "authflow: the #! line of \(path) asks for --backend firebase, which only the command"
        + " line may give: run authflow --backend firebase \(path)\n")
  }

  @Test func everyOptionSaysWhatAScriptLineMayAskOfIt() {
    let rules = Dictionary(
      uniqueKeysWithValues: ShellOptions.options.map { ($0.spec.name, $0.scriptLine) })
    #expect(
      rules == [
        "--backend": .backend, "--store": .onlyValue(":memory:"),
        "--users": .commandLineOnly, "--autoconfirm": .onMemoryStore, "--hash-cost": .onMemoryStore,
        "--password-min-length": .onMemoryStore, "--disable-signup": .onMemoryStore,
        "--password-required-characters": .onMemoryStore,
        "--seed": .onMemoryStore,
        "--supabase-url": .commandLineOnly, "--supabase-key": .commandLineOnly,
        "--mailbox": .commandLineOnly, "--app-scheme": .anyValue,
        "--firebase-project": .commandLineOnly,
        "--firebase-key": .commandLineOnly, "--firebase-emulator": .onlyValue("local"),
        "--timeout": .anyValue, "--command": .commandLineOnly, "--echo": .anyValue,
        "--bail": .anyValue, "--json": .anyValue, "--record": .commandLineOnly,
        "--present": .commandLineOnly,
        "--keep-session": .commandLineOnly, "--no-colour": .anyValue, "--plain": .anyValue,
        "--version": .anyValue, "--help": .anyValue, "--sessions-timebox": .onMemoryStore,
        "--sessions-inactivity-timeout": .onMemoryStore, "--secure-password-change": .onMemoryStore,
        "--redirect-urls": .onMemoryStore,
        "--generate-manual": .commandLineOnly, "--generate-completion-script": .commandLineOnly,
      ])
    #expect(ShellOptions.table.map(\.names) == ShellOptions.options.map(\.spec.names))
  }

  @Test(arguments: [
    // Output only, and a store of the run's own.
    (["--store", ":memory:", "--plain", "--echo", "--bail", "--json"], ["x"], true),
    (["--backend", "embedded", "--store=:memory:", "--seed", "1", "--autoconfirm"], ["x"], true),
    // A Firebase emulator of the run's own, started in its process.
    (["--backend", "firebase", "--firebase-emulator", "local", "--seed", "1"], ["x"], true),
    (["--backend", "firebase"], ["x"], false),
    (["--backend", "firebase", "--firebase-emulator", "127.0.0.1:9099"], ["x"], false),
    // The user's store, session, files and projects.
    (["--store", "a.db"], ["x"], false),
    (["--keep-session"], ["x"], false),
    (["--record", "r.authflow"], ["x"], false),
    (["--backend", "supabase"], ["x"], false),
    (["--seed", "1"], ["x"], false),
    (["--autoconfirm"], ["--store", "a.db", "x"], false),
    // Given (or overridden) on the command line: the user's choice.
    (["--keep-session", "--store", "a.db"], ["--keep-session", "--store", ":memory:", "x"], true),
    (["--autoconfirm"], ["--store", ":memory:", "x"], true),
    (["--autoconfirm"], ["--store", "a.db", "--autoconfirm", "x"], true),
  ])
  func theLineIsAdmittedOnlyInASandbox(line: [String], commandLine: [String], admitted: Bool) {
    let result = Result { () throws(ShellError) in
      try ScriptLineAdmission.admitted(line, commandLine: commandLine, script: "x")
    }
    if case .failure(let error) = result {
      #expect(!admitted, "\(error.text)")
      if case .scriptLineAsks = error {} else { Issue.record("\(error.text)") }
    } else {
      #expect(admitted, "\(line) with \(commandLine)")
    }
  }

  /// What the recorder writes on a `#!` line is taken when the file is replayed, or named in
  /// the command that runs it.
  @Test func aRecordingsLineIsAcceptedWhenReplayed() throws {
    var embedded = try ShellOptions.parse(["--autoconfirm", "--seed", "1"])
    embedded.plain = true
    let line = embedded.recordedOptions
    #expect(try ScriptLineAdmission.admitted(line, commandLine: ["x"], script: "x") == line)
    #expect(ScriptLineAdmission.command(toRun: "x", line: line) == "authflow x")

    var supabase = try ShellOptions.parse(["--backend", "supabase", "--supabase-url", "http://u"])
    supabase.timeout = 5
    let project = supabase.recordedOptions
    #expect(
      ScriptLineAdmission.command(toRun: "x", line: project)
        == "authflow --backend supabase --supabase-url http://u x")
    let given = ["--backend", "supabase", "--supabase-url", "http://u", "x"]
    #expect(
      try ScriptLineAdmission.admitted(
        ScriptHeader.keeping(project, for: .supabase), commandLine: given, script: "x")
        == ["--timeout", "5"])
  }
}

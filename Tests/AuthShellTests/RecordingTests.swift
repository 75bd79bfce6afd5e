import AuthCrypto
import AuthFlow
import Foundation
import GoTrueEngine
import Testing

@testable import AuthShell

/// `record FILE` turns what was typed into a script with its checks: the file reads as a
/// person would write it, holds no secret, leaves out what failed, makes what the exploration
/// relied on, and replays green on a fresh store.
@MainActor
final class RecordingTests {
  let folder = NSTemporaryDirectory() + "authflow-record-" + UUID().uuidString

  init() throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Lines read one at a time, each made when it is read, so a line can use what the session
  /// did before it (a code from the outbox).
  final class LazyLines: LineSource {
    private var lines: [() -> String]
    private(set) var remembered: [String] = []

    init(_ lines: [() -> String]) { self.lines = lines }

    func nextLine(prompt: String) -> LineInput? {
      guard !lines.isEmpty else { return nil }
      return LineInput(bytes: lines.removeFirst()().utf8)
    }

    var keepsHistory: Bool { true }
    func remember(_ line: String) { remembered.append(line) }
  }

  struct Run {
    var output: String
    var errors: String
    var status: Int32
    var history: [String]
    var session: ShellSession
  }

  /// A session on a throw-away store, recording with this test's authflow binary, fed `lines`.
  func run(_ lines: [String], environment: [String: String] = [:]) async throws -> Run {
    try await run(environment: environment) { _ in lines.map { line in { line } } }
  }

  /// The same, with lines made as they are read, from the session.
  func run(
    environment: [String: String] = [:], lines: (ShellSession) -> [() -> String]
  ) async throws -> Run {
    var configuration = EngineConfiguration()
    configuration.hashCost = Bcrypt.minimumCost
    let backend = try ShellBackend.embedded(
      store: .memory, configuration: configuration, seed: 1, stateDirectory: "/nonexistent")
    let session = ShellSession(backend: backend, style: .script)
    session.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    session.observers.recording.program = authflowBinary
    session.observers.recording.today = { "2026-11-22" }
    var output = Data()
    var errors = Data()
    let sink = ShellOutput { stream, bytes in
      if stream == .standardOutput {
        output.append(contentsOf: bytes)
      } else {
        errors.append(contentsOf: bytes)
      }
    }
    let source = LazyLines(lines(session))
    let status = await ShellRunner(
      session: session, source: source, output: sink, options: ShellRunner.Options()
    ).run()
    return Run(
      output: String(decoding: output, as: UTF8.self),
      errors: String(decoding: errors, as: UTF8.self), status: status,
      history: source.remembered, session: session)
  }

  func file(_ name: String) -> String {
    (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? ""
  }

  /// The newest code the session's outbox holds for `email`.
  static func newestCode(_ session: ShellSession, to email: String) -> String {
    guard let outbox = session.backend.mailbox as? OutboxMailbox else { return "" }
    return outbox.newest(to: email, type: nil)?.code ?? ""
  }

  @Test func aSignUpConfirmAndSignInReadsAsAPersonWouldWriteIt() async throws {
    let path = folder + "/signup.authflow"
    let run = try await run([
      "record \(path)",
      "create",
      "set email Ada@Example.com",
      "set password Analytical1",
      "set confirm Analytical1",
      "consent on",
      "submit",
      "mail open",
      "set password Analytical1",
      "submit",
      "expect signed-in",
      "whoami",
      "help",
      "signout",
      "record stop",
    ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(
      file("signup.authflow") == """
        #!/usr/bin/env -S authflow --backend embedded --store :memory:
        # Recorded with authflow \(AuthflowMain.version) on 2026-11-22, on the embedded backend.
        # Secrets are not kept here: give them in the environment to run it.
        #   ADA_PASSWORD  the password of ada@example.com
        create
        expect state signup
        set email Ada@Example.com
        set password $ADA_PASSWORD
        set confirm $ADA_PASSWORD
        consent on
        expect can-submit yes
        submit
        expect banner "Check your email to confirm your account, then sign in."
        mail open
        expect state login
        expect banner "Your email is confirmed. Sign in to continue."
        set password $ADA_PASSWORD
        expect can-submit yes
        submit
        expect signed-in ada@example.com
        whoami
        signout
        expect state choice
        expect signed-out

        """)
    let told = run.output.split(separator: "\n").suffix(3).map(String.init)
    #expect(
      told == [
        "Recorded 11 commands and 9 checks to \(path).",
        "It reads ADA_PASSWORD from the environment: ADA_PASSWORD=… authflow \(path)",
        "✓ Replayed on a fresh store: it passes.",
      ])

    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode.map { $0 & 0o111 } == 0o111, "a script with a #! line runs as ./signup.authflow")
    let replay = try runAuthflow([path], environment: ["ADA_PASSWORD": "Different1"])
    #expect(replay.status == 0, "any password the sign-up takes replays it: \(replay.error)")
    let unset = try runAuthflow([path])
    #expect(unset.status == 1)
    #expect(
      unset.error
        == "line 8: $ADA_PASSWORD is not set; give the secret for the password field in the "
        + "environment: ADA_PASSWORD=… authflow FILE\n",
      "the script stops at the first secret it lacks")
  }

  @Test func failedStepsAreLeftOut() async throws {
    let path = folder + "/mistakes.authflow"
    let run = try await run([
      "record \(path)",
      "sigin",
      "submit",
      "signin",
      "set colour blue",
      "expect state signup",
      "expect state login",
      "set email test@example.com",
      "set password TestPassword123!",
      "submit",
      "whoami",
      "record stop",
    ])
    #expect(run.status == 1, "the mistakes still count in the exit status")
    let recorded = file("mistakes.authflow")
    let body = recorded.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(
      body == [
        "signin",
        "expect state login",
        "set email test@example.com",
        "set password TestPassword123!",
        "expect can-submit yes",
        "submit",
        "expect signed-in test@example.com",
        "whoami",
      ], "the demo account's published password is written; the typed check is not repeated")
    #expect(!recorded.contains("Secrets are not kept"), "no secret to give")
    #expect(run.output.contains("Replayed on a fresh store: it passes."))
  }

  @Test func aRecordingBegunSignedInMakesItsAccountAndSignsIn() async throws {
    let path = folder + "/signed-in.authflow"
    let run = try await run([
      "create", "set email grace@example.com", "set password Compiler42",
      "set confirm Compiler42", "consent on", "submit", "mail open",
      "set password Compiler42", "submit",
      "record \(path)", "whoami", "signout", "record stop",
    ])
    #expect(run.status == 0, "\(run.errors)")
    let recorded = file("signed-in.authflow")
    #expect(
      recorded == """
        #!/usr/bin/env -S authflow --backend embedded --store :memory:
        # Recorded with authflow \(AuthflowMain.version) on 2026-11-22, on the embedded backend.
        # Secrets are not kept here: give them in the environment to run it.
        #   GRACE_PASSWORD  a password for grace@example.com (any the sign-up accepts: the replay makes the account)

        # grace@example.com was made before the recording began (confirmed):
        create
        set email grace@example.com
        set password $GRACE_PASSWORD
        set confirm $GRACE_PASSWORD
        consent on
        submit
        mail open
        back
        # Where the recording began:
        signin
        set email grace@example.com
        set password $GRACE_PASSWORD
        submit

        # The exploration.
        whoami
        signout
        expect state choice
        expect signed-out

        """)
    #expect(run.output.contains("It relied on grace@example.com, made before the recording began"))
    #expect(run.output.contains("Replayed on a fresh store: it passes."), "\(run.output)")
  }

  @Test func aRateLimitedEmailToAnEarlierAccountMakesItFirst() async throws {
    let path = folder + "/limited.authflow"
    // The account's confirmation email went out moments before (the clock stands still), so
    // the reset email waits: the exploration relied on the account and its email.
    let run = try await run([
      "create", "set email ada@example.com", "set password Analytical1",
      "set confirm Analytical1", "consent on", "submit", "back",
      "record \(path)", "signin", "set email ada@example.com", "forgot", "send", "record stop",
    ])
    #expect(run.status == 0, "\(run.errors)")
    let recorded = file("limited.authflow")
    #expect(
      recorded == """
        #!/usr/bin/env -S authflow --backend embedded --store :memory:
        # Recorded with authflow \(AuthflowMain.version) on 2026-11-22, on the embedded backend.
        # Secrets are not kept here: give them in the environment to run it.
        #   ADA_PASSWORD  a password for ada@example.com (any the sign-up accepts: the replay makes the account)

        # ada@example.com was made before the recording began (confirmed):
        create
        set email ada@example.com
        set password $ADA_PASSWORD
        set confirm $ADA_PASSWORD
        consent on
        submit
        mail open
        back

        # The exploration.
        signin
        expect state login
        set email ada@example.com
        forgot
        expect state reset-request
        send
        expect error "For security purposes, you can only request this after 60 seconds."

        """)
    #expect(run.output.contains("Replayed on a fresh store: it passes."), "\(run.output)")
  }

  @Test func recordTellsWhatItIsDoingAndRefusesWhatItCannotDo() async throws {
    let handWritten = folder + "/mine.authflow"
    try "signin\n".write(toFile: handWritten, atomically: true, encoding: .utf8)
    let path = folder + "/a.authflow"
    let run = try await run([
      "record",
      "record stop",
      "record \(handWritten)",
      "record \(folder)/missing/b.authflow",
      "record \(path)",
      "record \(folder)/c.authflow",
      "record",
      "record stop",
      "record \(path)",
      "record stop",
    ])
    #expect(
      run.errors.split(separator: "\n").map(String.init) == [
        "line 2: not recording; record FILE starts",
        "line 3: \(handWritten) is there and no recording made it; record to another file, "
          + "or move it aside",
        "line 4: cannot record to \(folder)/missing/b.authflow: there is no folder "
          + "\(folder)/missing",
        "line 6: already recording to \(path); record stop ends it first",
      ])
    #expect(file("mine.authflow") == "signin\n", "a hand-written script is never replaced")
    #expect(run.output.contains("Not recording; record FILE starts"))
    #expect(run.output.contains("Recording to \(path): 0 commands and 0 checks so far"))
    #expect(run.output.contains("Recorded 0 commands and 0 checks to \(path)."))
  }

  @Test func theEndOfTheInputStopsTheRecording() async throws {
    let path = folder + "/ended.authflow"
    let run = try await run(["record \(path)", "signin", "quit"])
    #expect(run.status == 0)
    #expect(file("ended.authflow").hasSuffix("signin\nexpect state login\n"))
    #expect(run.output.contains("Recorded 1 command and 1 check to \(path)."))
  }

  @Test func theRecordOptionRecordsFromTheStart() throws {
    let path = folder + "/option.authflow"
    let run = try runAuthflow(
      ["--store", ":memory:", "--autoconfirm", "--hash-cost", "4", "--record", path],
      input: Data(
        "create\nset email lin@example.com\nset password Abcdefg12\nset confirm Abcdefg12\nconsent on\nsubmit\n"
          .utf8),
      environment: [:])
    #expect(run.status == 0, "\(run.error)")
    let recorded = file("option.authflow")
    #expect(
      recorded.hasPrefix(
        "#!/usr/bin/env -S authflow --backend embedded --store :memory: --autoconfirm\n"))
    #expect(recorded.hasSuffix("submit\nexpect signed-in lin@example.com\n"), "\(recorded)")
    #expect(run.output.contains("Replayed on a fresh store: it passes."), "\(run.output)")

    let json = try runAuthflow(
      ["--store", ":memory:", "--json", "--record", folder + "/json.authflow", "-c", "signin"])
    let objects = json.output.split(separator: "\n")
    #expect(objects.count == 3, "the recording's start, one object per command, and its report")
    #expect(objects.first?.contains(#""command":"record \#(folder)/json.authflow""#) == true)
    #expect(objects.last?.contains(#""command":"record stop""#) == true)
    #expect(objects.last?.contains("Replayed on a fresh store: it passes.") == true)

    let refused = try runAuthflow(["--store", ":memory:", "--record", folder + "/no/x.authflow"])
    #expect(refused.status == 2)
    #expect(refused.error.hasPrefix("authflow: cannot record to \(folder)/no/x.authflow:"))
  }

  @Test func timeThatPassedAtThePromptBecomesClockAdvance() throws {
    let setup = ScriptRecorder.Setup(
      path: "x.authflow", transcript: false, options: ["--store", ":memory:"],
      backendName: "embedded", freshStore: true, autoconfirm: false, day: "2026-11-22",
      version: "0")
    let start = Date(timeIntervalSince1970: 1_000)
    let recorder = ScriptRecorder(setup: setup, start: AuthFlowState(), now: start)
    func step(_ line: String, at seconds: Double) throws -> ScriptRecorder.Step {
      let invocation = try LineParser.parse(words: line.split(separator: " ").map(String.init))
        .get()
      let state = AuthFlowState()
      return ScriptRecorder.Step(
        record: StepRecord(
          invocation: invocation, result: .done, before: state, after: state, events: [],
          startedAt: start + seconds, endedAt: start + seconds), hasOutbox: true)
    }
    recorder.record(try step("show", at: 5))
    recorder.record(try step("events", at: 130))
    recorder.record(try step("show", at: 130 + 25 * 3_600 + 61))
    #expect(
      recorder.text.split(separator: "\n").dropFirst(2).map(String.init) == [
        "show", "clock advance 2m5s", "events", "clock advance 25h1m1s", "show",
      ])
    #expect(ScriptRecorder.duration(3_600) == "1h")
  }
}

import AuthFlowFirebase
import CommandLineOptions
import GoTrueEngine
import HTTPClient
import PrivateFiles
import SupabaseREST

#if canImport(Glibc)
  import Glibc
#endif

/// The `authflow` program: options, backend, input and output wired together.
public enum AuthflowMain {
  /// The program's version.
  public static let version = ProgramVersion.number

  /// Runs the shell with `arguments` (after the program name); `serveCommand` describes
  /// `authflow serve` for the manual and completion scripts. The exit status.
  @MainActor
  public static func run(
    arguments: [String], environment: [String: String],
    serveCommand: @escaping @Sendable () -> CommandDescription,
    startLocalServer: LocalServerStarter? = nil
  ) async -> Int32 {
    await run(
      arguments: arguments, environment: environment, playback: nil,
      serveCommand: serveCommand, startLocalServer: startLocalServer)
  }

  /// `authflow play FILE [--pace MS] [--step] [options]`: a presenter's playback of a script.
  @MainActor
  public static func play(
    arguments: [String], environment: [String: String],
    startLocalServer: LocalServerStarter? = nil
  ) async -> Int32 {
    switch Playback.parse(arguments) {
    case .failure(let error): return usageError(error)
    case .success(let (playback, rest)):
      if playback.help {
        print(Playback.usage)
        return 0
      }
      guard rest.contains(where: { !$0.hasPrefix("-") }) else {
        return usageError(.playNeedsScript)
      }
      return await run(
        arguments: rest, environment: environment, playback: playback, serveCommand: nil,
        startLocalServer: startLocalServer)
    }
  }

  @MainActor
  private static func run(
    arguments: [String], environment: [String: String], playback: Playback?,
    serveCommand: (@Sendable () -> CommandDescription)?, startLocalServer: LocalServerStarter?
  ) async -> Int32 {
    var options: ShellOptions
    // A script on standard input is read as it comes; its first line is looked at first.
    var standardInput: DescriptorLineSource?
    do {
      // NB: the backend's options are checked once the script's #! line is read: it may be
      // the one naming the backend they are for.
      options = try ShellOptions.parse(arguments, checkingBackends: false)
      // A script's `#!…authflow OPTIONS` line applies when it is run as `authflow FILE` or
      // piped in (`cat FILE | authflow`), as it does when the kernel runs it; options on the
      // command line come after, so they win, and when the command line picks another backend
      // the line's options of other backends are set aside (its --store means nothing to
      // Supabase; its --plain still applies). The script may come from anyone: of the rest, the
      // run takes only what keeps it in a sandbox (ScriptLineAdmission).
      let script: String?
      let firstLine: String?
      let answersAtOnce =
        options.help || options.version || options.generateManual
        || options.completionScript != nil
      if let file = options.file, file != "-" {
        (script, firstLine) = (file, ScriptHeader.firstLine(of: file))
      } else if options.commands.isEmpty, !answersAtOnce,
        options.file == "-" || isatty(0) != 1
      {
        let source = DescriptorLineSource(descriptor: 0)
        standardInput = source
        (script, firstLine) = ("-", source.peekFirstLine())
      } else {
        (script, firstLine) = (nil, nil)
      }
      if let script, let line = firstLine,
        var scriptOptions = ScriptHeader.options(inShebang: line), !scriptOptions.isEmpty
      {
        if arguments.contains(where: { $0 == "--backend" || $0.hasPrefix("--backend=") }) {
          scriptOptions = ScriptHeader.keeping(scriptOptions, for: options.backend)
        }
        scriptOptions = try ScriptLineAdmission.admitted(
          scriptOptions, commandLine: arguments, script: script)
        options = try ShellOptions.parse(scriptOptions + arguments)
      } else {
        options = try ShellOptions.parse(arguments)
      }
    } catch {
      return usageError(error)
    }
    if options.help {
      print(ShellOptions.usage)
      return 0
    }
    if options.version {
      print("authflow \(version)")
      return 0
    }
    if options.generateManual || options.completionScript != nil {
      guard let serveCommand else { return usageError(.option(.unknown("--generate-manual"))) }
      let program = AuthflowProgram.description(serve: serveCommand())
      if let shell = options.completionScript {
        print(shell.script(for: program), terminator: "")
      } else {
        print(AuthflowManual.page(serve: serveCommand(), version: version).roff, terminator: "")
      }
      return 0
    }

    var descriptor: Int32 = 0
    if let file = options.file, file != "-", standardInput == nil {
      descriptor = open(file, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        return usageError(.cannotRead(path: file, reason: String(cString: strerror(errno))))
      }
    }
    let interactive = options.file == nil && options.commands.isEmpty && isatty(0) == 1

    let directories = XDGDirectories(environment: environment)
    let backend: ShellBackend
    // A script's outcome must not hang on the last run's: it starts signed out and keeps its
    // session to itself, unless it asks (--keep-session).
    let savesSession = interactive || options.keepSession
    do {
      backend = try ShellBackend.make(
        options, savesSession: savesSession, directories: directories, environment: environment,
        startLocalServer: startLocalServer)
    } catch {
      return usageError(error)
    }
    for warning in backend.warnings { warn(warning) }

    let colourAllowed =
      interactive && isatty(1) == 1 && !options.noColor && !options.plain
      && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    let session = ShellSession(
      backend: backend, style: RenderStyle(colour: colourAllowed, plain: options.plain))
    session.environment = environment
    session.observers.recording.options = options.recordedOptions
    session.observers.recording.autoconfirm = options.settings.engine.autoconfirm
    if let path = environment["AUTHFLOW_COVERAGE"], !path.isEmpty {
      session.observers.coverage.start(writingTo: path)
    }
    // The page's address goes out before the first command runs, so a presenter can open it.
    if let port = options.present, case .mistake(let error) = session.present(port).result {
      var text = "authflow: \(error.text)\n"
      _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
      return 1
    }
    if options.present != nil, let waitForEnter = playback?.waitForEnter {
      // The audience's page is opened before the tour starts.
      var text = "present: open the page, then press Enter to start\n"
      _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
      waitForEnter()
    }
    let output = ShellOutput.standardStreams()

    var runnerOptions = ShellRunner.Options()
    runnerOptions.echo = options.echo
    runnerOptions.bail = options.bail
    runnerOptions.json = options.json
    runnerOptions.playback = playback
    runnerOptions.record = options.record
    let source: any LineSource
    var editor: LineEditor?
    if !options.commands.isEmpty {
      source = StringLineSource(options.commands)
    } else if interactive {
      let stateDirectory = directories.stateHome + "/authflow"
      let historyPath: String? = (try? PrivateFile.ensureDirectory(stateDirectory)).map {
        stateDirectory + "/history"
      }
      editor = LineEditor(historyPath: historyPath, colour: colourAllowed) { [session] text in
        Completion.candidates(for: text, in: session.context)
      }
      source = editor ?? DescriptorLineSource(descriptor: 0)
      runnerOptions.interactive = editor != nil
      session.observers.recording.savesEachStep = editor != nil
    } else {
      let lines = standardInput ?? DescriptorLineSource(descriptor: descriptor)
      lines.beforeWaiting = { [output] in output.flush() }
      source = lines
    }
    session.io.terminal = editor
    if let file = options.file, file != "-", editor == nil, isatty(0) == 1, isatty(2) == 1 {
      // A script run at a terminal asks there for a secret its environment lacks.
      session.io.asksForSecrets = { prompt in
        // Ctrl-C cancels the entry; elsewhere in a script it ends the process, as it did.
        Interrupts.install()
        defer { signal(SIGINT, SIG_DFL) }
        return TerminalSecret.read(prompt: prompt, to: 2)
      }
    }
    if runnerOptions.interactive {
      output.line("authflow \(version) · \(backend.name) backend · \(backend.location)")
      for line in backend.greeting { output.line(line) }
      output.line("Type help for the commands of each screen; quit or Ctrl-D leaves.")
      output.flush()
    }
    let status = await ShellRunner(
      session: session, source: source, output: output, options: runnerOptions
    ).run()
    withExtendedLifetime(editor) {}
    return status
  }

  private static func warn(_ text: String) {
    var line = "authflow: warning: \(text)\n"
    _ = line.withUTF8 { write(2, $0.baseAddress, $0.count) }
  }

  private static func usageError(_ error: ShellError) -> Int32 {
    var text = "authflow: \(error.text)\n"
    _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
    return 2
  }
}

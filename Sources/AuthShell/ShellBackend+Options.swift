import AccountStore
import AuthFlowFirebase
import AuthFlowGoTrue
import EngineSettings
import GoTrueEngine
import HTTPClient
import PrivateFiles
import SupabaseREST

/// The backend a command line asks for.
extension ShellBackend {
  /// The backend `options` names, from its options and their environment variables, with its
  /// session saved (when `savesSession`) under the state directory.
  static func make(
    _ options: ShellOptions, savesSession: Bool, directories: XDGDirectories,
    environment: [String: String], startLocalServer: LocalServerStarter? = nil
  ) throws(ShellError) -> ShellBackend {
    let stateDirectory = directories.stateHome + "/authflow"
    switch options.backend {
    case .embedded:
      let store =
        try options.settings.store.map { value throws(ShellError) in
          do throws(StoreLocationError) {
            return try StoreLocation(argument: value)
          } catch {
            throw .backendUnavailable(error.message)
          }
        } ?? StoreLocation.defaultStore(environment: environment)
      return try embedded(
        store: store, configuration: options.settings.engine, seed: options.settings.seed,
        stateDirectory: stateDirectory, savesSession: savesSession, users: options.settings.users,
        appScheme: options.appScheme)
    case .supabase:
      return try supabase(
        options, savesSession: savesSession, stateDirectory: stateDirectory,
        environment: environment)
    case .firebase:
      return try firebase(
        options, savesSession: savesSession, stateDirectory: stateDirectory,
        environment: environment, startLocalServer: startLocalServer)
    }
  }

  /// The Supabase backend: a project from the options or `SUPABASE_*`, and the mail catcher
  /// of `--mailbox`.
  private static func supabase(
    _ options: ShellOptions, savesSession: Bool, stateDirectory: String,
    environment: [String: String]
  ) throws(ShellError) -> ShellBackend {
    guard let url = options.supabaseURL ?? environment["SUPABASE_URL"], !url.isEmpty else {
      throw .supabaseNeedsURL
    }
    let project: SupabaseProject
    do {
      project = try SupabaseProject(
        url: url, key: options.supabaseKey ?? environment["SUPABASE_ANON_KEY"] ?? "",
        timeout: options.timeout ?? 10)
    } catch {
      throw .backendUnavailable(error.description)
    }
    let transport = HelperProcessTransport.besideThisProgram()
    var mailbox: MailpitMailbox?
    if let url = options.mailbox {
      do {
        mailbox = try MailpitMailbox(url: url, transport: transport, timeout: project.timeout)
      } catch {
        throw .backendUnavailable(error.description)
      }
    }
    return try supabase(
      project: project, transport: transport, stateDirectory: stateDirectory,
      savesSession: savesSession, mailbox: mailbox, seed: options.settings.seed,
      redirects: options.appScheme.map(EmailRedirects.app(scheme:)) ?? EmailRedirects())
  }

  /// The Firebase backend: a project from the options or `FIREBASE_*`; with an emulator the
  /// key may be left out (the emulator takes any).
  private static func firebase(
    _ options: ShellOptions, savesSession: Bool, stateDirectory: String,
    environment: [String: String], startLocalServer: LocalServerStarter?
  ) throws(ShellError) -> ShellBackend {
    var emulator = options.firebaseEmulator ?? environment["FIREBASE_AUTH_EMULATOR_HOST"]
    var projectID = options.firebaseProject ?? environment["FIREBASE_PROJECT_ID"] ?? ""
    var savesSession = savesSession
    if emulator == ShellOptions.localEmulator {
      if projectID.isEmpty { projectID = ShellOptions.localEmulatorProject }
      emulator = try startLocalEmulator(
        project: projectID, options: options, startLocalServer: startLocalServer)
      // Its accounts end with the process: a session saved for the next run would be stale.
      savesSession = false
    }
    var key = options.firebaseKey ?? environment["FIREBASE_API_KEY"] ?? ""
    if key.isEmpty, let emulator, !emulator.isEmpty { key = "fake-api-key" }
    let project: FirebaseProject
    do {
      project = try FirebaseProject(
        apiKey: key, projectID: projectID, emulatorHost: emulator, timeout: options.timeout ?? 10)
    } catch {
      throw .backendUnavailable(error.description)
    }
    return try firebase(
      project: project, transport: HelperProcessTransport.besideThisProgram(),
      stateDirectory: stateDirectory, savesSession: savesSession, seed: options.settings.seed)
  }

  /// Starts the Firebase Auth emulator of `authflow serve` in this process, on a free loopback
  /// port, with a store of its own in memory, the shell's seed and hash cost; its `host:port`.
  private static func startLocalEmulator(
    project: String, options: ShellOptions, startLocalServer: LocalServerStarter?
  ) throws(ShellError) -> String {
    guard let startLocalServer else {
      throw .backendUnavailable(
        "--firebase-emulator local runs authflow serve inside the authflow program; this one "
          + "cannot: start authflow serve --firebase-project ID and pass its HOST:PORT")
    }
    var arguments = [
      "--store", ":memory:", "--host", "127.0.0.1", "--port", "0", "--firebase-project", project,
    ]
    if let cost = options.settings.given[EngineSetting.hashCost.name] {
      arguments += ["--hash-cost", cost]
    }
    if let seed = options.settings.seed { arguments += ["--seed", String(seed)] }
    guard let host = startLocalServer(arguments) else {
      throw .backendUnavailable("the local Firebase Auth emulator could not start")
    }
    return host
  }
}

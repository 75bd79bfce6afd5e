import AccountStore
import CommandLineOptions
import EngineSettings
import GoTrueEngine

/// What `authflow serve` runs with once its options are checked together: the options, the
/// store they name and where its hooks send.
struct ServePlan: Sendable {
  /// The options, as read.
  let options: ServeOptions
  /// The store the options (or `DATABASE_URL`, or the default) name.
  let store: StoreLocation
  /// Where each HTTP hook that is on sends.
  let hookTargets: [AuthHook: HTTPHookDispatcher.Target]
}

extension ServeOptions {
  /// The checks across options, in one place (as argument-parser's `validate()`): each option's
  /// own check is its row's; these are the ones no single option can make.
  func validate(environment: [String: String]) throws(ServeOptionsError) -> ServePlan {
    if let config = projectConfig, config.kind == .firebase, firebaseProject == nil {
      throw .config(
        "\(config.file): no project: .firebaserc beside it names none (projects.default); "
          + "add one or give --firebase-project")
    }
    // GoTrue reads its database from GOTRUE_DB_DATABASE_URL (the option's variable), else
    // DATABASE_URL.
    let store: StoreLocation
    if let named = settings.store {
      store = try Self.location(named, from: "--store")
    } else if let named = environment["DATABASE_URL"], !named.isEmpty {
      store = try Self.location(named, from: "DATABASE_URL")
    } else {
      store = StoreLocation.defaultStore(environment: environment)
    }
    if settings.seed != nil, store != .memory {
      throw .invalid(
        "--seed makes every secret, code and token predictable, so it only runs on a throw-away "
          + "store; add --store :memory:")
    }
    let exposed = http.hosts.first { !ServeMain.isLoopbackHost($0) }
    if !settings.engine.testCodes.isEmpty, let exposed {
      throw .invalid(
        "--test-otp makes the codes emailed or texted to its addresses known to whoever reads the "
          + "command line, so it only runs on loopback; --host \(exposed) listens beyond it")
    }
    if settings.seed != nil, let exposed {
      throw .invalid(
        "--seed makes every emailed code predictable to whoever knows the seed, so it only runs "
          + "on loopback; --host \(exposed) listens beyond it")
    }
    do {
      return ServePlan(options: self, store: store, hookTargets: try hooks.targets())
    } catch {
      throw .invalid(error.text)
    }
  }

  private static func location(_ value: String, from origin: String) throws(ServeOptionsError)
    -> StoreLocation
  {
    do {
      return try EngineSetting.storeLocation(value)
    } catch {
      throw .invalid("\(origin) takes \(error.expected)")
    }
  }
}

import AccountStore
import AuthCrypto
import Clocks
import GoTrue
import GoTrueEngine

#if canImport(Glibc)
  import Glibc
#endif

/// `--name value` options of the lab commands.
struct LabOptions {
  private var values: [String: String] = [:]

  init(_ arguments: ArraySlice<String>) {
    var iterator = arguments.makeIterator()
    while let name = iterator.next() {
      guard name.hasPrefix("--") else { fail("unexpected argument \(name)") }
      let key = String(name.dropFirst(2))
      if key == "autoconfirm" {
        values[key] = "1"
      } else if let value = iterator.next() {
        values[key] = value
      } else {
        fail("\(name) needs a value")
      }
    }
  }

  func string(_ name: String, default fallback: String? = nil) -> String {
    guard let value = values[name] ?? fallback else { fail("--\(name) is required") }
    return value
  }

  func int(_ name: String, default fallback: Int) -> Int {
    guard let text = values[name] else { return fallback }
    guard let value = Int(text) else { fail("--\(name) takes a number, not \(text)") }
    return value
  }

  func flag(_ name: String) -> Bool { values[name] != nil }

  /// An engine on `store` (else `--store`) with `--hash-cost` and `--autoconfirm`, limits wide
  /// open.
  func engine(
    store: String? = nil, clock: any AuthClock = SystemClock(),
    configure: (inout EngineConfiguration) -> Void = { _ in }
  ) -> EmbeddedGoTrue {
    var configuration = EngineConfiguration()
    configuration.hashCost = int("hash-cost", default: Bcrypt.minimumCost)
    configuration.autoconfirm = flag("autoconfirm")
    configuration.rateLimits = .unlimited
    configure(&configuration)
    do {
      return try EmbeddedGoTrue(
        location: StoreLocation(argument: store ?? string("store")), configuration: configuration,
        clock: clock)
    } catch {
      fail("\(error)")
    }
  }

  /// Sleeps until `--start-at` (Unix milliseconds), if given.
  func waitForStart() {
    guard let start = values["start-at"].flatMap(Int64.init) else { return }
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let nowMillis = Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    if start > nowMillis { usleep(UInt32((start - nowMillis) * 1_000)) }
  }
}

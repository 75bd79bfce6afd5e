import AuthCrypto
import GoTrue
import GoTrueEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Sign-in wall time minus one bcrypt verify at the same cost, with N accounts in the store.
///
/// Each iteration times one sign-in and then one bare `Bcrypt.verify` of the same password
/// against a hash of the same cost, back to back, so both see the same machine; the overhead
/// is the median of the differences. Every store size is timed in the same loop.
struct SignInBenchmark {
  let options: LabOptions

  func run() async {
    let sizes = options.string("accounts", default: "1000,1000000").split(separator: ",")
      .compactMap { Int($0) }
    let costs = options.string("costs", default: "4,10").split(separator: ",").compactMap {
      Int($0)
    }
    let iterations = options.string("iterations", default: "1000,60").split(separator: ",")
      .compactMap { Int($0) }
    guard costs.count == iterations.count, !costs.isEmpty, !sizes.isEmpty else {
      fail("--costs and --iterations need the same number of values")
    }
    let folder = "/tmp/authflow-bench-\(getpid())"
    mkdir(folder, 0o700)
    defer {
      for size in sizes {
        for suffix in ["", "-wal", "-shm"] { unlink("\(folder)/auth-\(size).db\(suffix)") }
      }
      rmdir(folder)
    }
    let password = "BenchPassword123"
    let engines = sizes.map { size in
      makeStore(path: "\(folder)/auth-\(size).db", accounts: size, costs: costs, password: password)
    }
    for (cost, count) in zip(costs, iterations) {
      await measure(
        engines, email: "cost\(cost)@bench.example", password: password, cost: cost,
        iterations: count)
    }
  }

  /// A store of `accounts` accounts: one per cost, hashed at that cost, and the rest sharing one
  /// pre-hashed password (hashing a million would take a day, and the lookup does not care).
  private func makeStore(path: String, accounts: Int, costs: [Int], password: String)
    -> EmbeddedGoTrue
  {
    var configuration = EngineConfiguration()
    configuration.hashCost = Bcrypt.minimumCost
    configuration.seedsDemoAccounts = false
    configuration.rateLimits.token = .init(capacity: 1e12, period: 1)
    do {
      let engine = try EmbeddedGoTrue(location: .file(path), configuration: configuration)
      for cost in costs {
        let hash = try Bcrypt.hash(password, cost: cost, random: SystemRandom())
        try engine.importAccounts(
          emails: ["cost\(cost)@bench.example"], passwordHash: hash, confirmed: true)
      }
      let filler = try Bcrypt.hash("Imported123", cost: Bcrypt.minimumCost, random: SystemRandom())
      var next = try engine.accountCount()
      while next < accounts {
        let batch = min(50_000, accounts - next)
        try engine.importAccounts(
          emails: (next..<next + batch).map { "user\($0)@bench.example" }, passwordHash: filler,
          confirmed: true)
        next += batch
      }
      return engine
    } catch {
      fail("\(error)")
    }
  }

  /// Times the stores in turn within each iteration, so drift on a shared machine hits all alike.
  private func measure(
    _ engines: [EmbeddedGoTrue], email: String, password: String, cost: Int, iterations: Int
  ) async {
    let reference: String
    do {
      for engine in engines {
        for _ in 0..<3 { _ = try await engine.signIn(email: email, password: password) }
      }
      reference = try Bcrypt.hash(password, cost: cost, random: SystemRandom())
    } catch {
      fail("warm-up failed: \(error)")
    }
    var signIns = [[Double]](repeating: [], count: engines.count)
    var verifies = signIns
    var overheads = signIns
    for _ in 0..<iterations {
      for (index, engine) in engines.enumerated() {
        let start = monotonicSeconds()
        do {
          _ = try await engine.signIn(email: email, password: password)
        } catch {
          fail("sign-in failed: \(error)")
        }
        let middle = monotonicSeconds()
        guard Bcrypt.verify(password, against: reference) else { fail("bcrypt verify failed") }
        let end = monotonicSeconds()
        signIns[index].append(middle - start)
        verifies[index].append(end - middle)
        overheads[index].append((middle - start) - (end - middle))
      }
    }
    for (index, engine) in engines.enumerated() {
      let accounts = (try? engine.accountCount()) ?? 0
      emit(
        "accounts=\(accounts) cost=\(cost) iterations=\(iterations)"
          + " signin_ms=\(format(percentile(signIns[index], 0.5)))"
          + " bcrypt_ms=\(format(percentile(verifies[index], 0.5)))"
          + " overhead_ms=\(format(percentile(overheads[index], 0.5)))"
          + " overhead_p90_ms=\(format(percentile(overheads[index], 0.9)))")
    }
  }

  private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  private func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
  }

  /// Seconds as milliseconds with three decimals.
  private func format(_ seconds: Double) -> String {
    let micros = Int((seconds * 1_000_000).rounded())
    let sign = micros < 0 ? "-" : ""
    let magnitude = abs(micros)
    let fraction = String(magnitude % 1_000)
    return
      "\(sign)\(magnitude / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }
}

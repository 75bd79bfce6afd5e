import AuthCrypto
import GoTrue
import GoTrueEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Whether an answer's timing tells who has an account: sign-in with an unknown email against a
/// wrong password for a known one, signup of a new email against one that is taken, and a
/// password reset (`/recover`) for an unknown email against a known one.
///
/// The store is made at one bcrypt cost (`--made-at`, default 4) and then run at another
/// (`--cost`, default 10), the case where a decoy kept from the store's creation answered
/// unknown emails three times faster. Each iteration times the six requests back to back, so
/// the ratios compare like with like on a shared machine.
struct TimingBenchmark {
  let options: LabOptions

  func run() async {
    let madeAt = options.int("made-at", default: Bcrypt.minimumCost)
    let cost = options.int("cost", default: Bcrypt.defaultCost)
    let iterations = options.int("iterations", default: 40)
    let folder = "/tmp/authflow-bench-timing-\(getpid())"
    mkdir(folder, 0o700)
    defer {
      for suffix in ["", "-wal", "-shm"] { unlink("\(folder)/auth.db\(suffix)") }
      rmdir(folder)
    }
    func engine(cost: Int, hooks: (any AuthHookDispatcher)? = nil) -> EmbeddedGoTrue {
      var configuration = EngineConfiguration()
      configuration.hashCost = cost
      configuration.rateLimits = .unlimited
      do {
        return try EmbeddedGoTrue(
          location: .file("\(folder)/auth.db"), configuration: configuration, hooks: hooks)
      } catch {
        fail("\(error)")
      }
    }
    _ = engine(cost: madeAt)
    let running = engine(cost: cost)
    // The same store with a send-email hook that takes 3 ms to answer, as one across a network
    // would: an address with an account must not answer later for it.
    let hooked = engine(cost: cost, hooks: SlowSendEmailHook())
    do {
      let hash = try Bcrypt.hash("Known123", cost: cost, random: SystemRandom())
      try running.importAccounts(
        emails: ["known@bench.example"], passwordHash: hash, confirmed: true)
    } catch {
      fail("\(error)")
    }
    var unknown: [Double] = []
    var wrong: [Double] = []
    var new: [Double] = []
    var taken: [Double] = []
    var recoverKnown: [Double] = []
    var recoverUnknown: [Double] = []
    var hookedKnown: [Double] = []
    var hookedUnknown: [Double] = []
    for index in 0..<iterations {
      unknown.append(
        await time { try await running.signIn(email: "nobody@bench.example", password: "Guess123") }
      )
      wrong.append(
        await time { try await running.signIn(email: "known@bench.example", password: "Guess123") })
      new.append(
        await time {
          try await running.signUp(
            email: "new\(index)@bench.example", password: "Password123", data: [:])
        })
      taken.append(
        await time {
          try await running.signUp(email: "known@bench.example", password: "Password123", data: [:])
        })
      // Each iteration's own addresses: the per-address interval would refuse a repeat at once.
      _ = try? running.importAccounts(
        emails: ["reset\(index)@bench.example"], passwordHash: "x", confirmed: true)
      recoverKnown.append(
        await time { try await running.recover(email: "reset\(index)@bench.example") })
      recoverUnknown.append(
        await time { try await running.recover(email: "nobody\(index)@bench.example") })
      _ = try? running.importAccounts(
        emails: ["hooked\(index)@bench.example"], passwordHash: "x", confirmed: true)
      hookedKnown.append(
        await time { try await hooked.recover(email: "hooked\(index)@bench.example") })
      hookedUnknown.append(
        await time { try await hooked.recover(email: "nobody-hooked\(index)@bench.example") })
    }
    await hooked.waitForUnansweredSends()
    let (u, w, n, t) = (median(unknown), median(wrong), median(new), median(taken))
    let (rk, ru) = (median(recoverKnown), median(recoverUnknown))
    let (hk, hu) = (median(hookedKnown), median(hookedUnknown))
    emit(
      "made_at=\(madeAt) cost=\(cost) iterations=\(iterations)"
        + " signin_unknown_ms=\(format(u)) signin_wrong_password_ms=\(format(w))"
        + " signup_new_ms=\(format(n)) signup_taken_ms=\(format(t))"
        + " recover_known_ms=\(format(rk)) recover_unknown_ms=\(format(ru))"
        + " signin_ratio=\(format(u / w / 1_000)) signup_ratio=\(format(t / n / 1_000))"
        + " recover_ratio=\(format(ru / rk / 1_000))"
        + " recover_hook_known_ms=\(format(hk)) recover_hook_unknown_ms=\(format(hu))"
        + " recover_hook_ratio=\(format(hu / hk / 1_000))")
  }

  /// Seconds one call takes; failures (wrong passwords) are the point, so they are ignored.
  private func time(_ body: () async throws -> some Sendable) async -> Double {
    let start = monotonicSeconds()
    _ = try? await body()
    return monotonicSeconds() - start
  }

  private func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
  }

  private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Seconds as milliseconds with three decimals.
  private func format(_ seconds: Double) -> String {
    let micros = Int((seconds * 1_000_000).rounded())
    let fraction = String(micros % 1_000)
    return "\(micros / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }
}

/// A send-email hook that answers after 3 ms and sends nothing.
private struct SlowSendEmailHook: AuthHookDispatcher {
  func isEnabled(_ hook: AuthHook) -> Bool { hook == .sendEmail }

  func dispatch(_ hook: AuthHook, payload: [String: JSONValue]) async throws(GoTrueAPIError)
    -> [String: JSONValue]
  {
    try? await Task.sleep(for: .milliseconds(3))
    return [:]
  }
}

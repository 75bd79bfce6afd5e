#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// What one script's process did.
struct ChildRun: Equatable, Sendable {
  /// How it ended.
  enum Ending: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)
    /// It ran past the time limit and was stopped.
    case timedOut(seconds: Double)
    /// It could not start; the reason says why.
    case notStarted(String)
  }

  /// How it ended.
  var ending: Ending
  /// Its standard output: the transcript.
  var output: [UInt8]
  /// Its standard error.
  var errors: [UInt8]
  /// How long it ran, in seconds.
  var seconds: Double
}

/// Runs processes, at most `jobs` at once, each on a fresh `XDG_DATA_HOME` and
/// `XDG_STATE_HOME` that are removed after it, reading their pipes in one `poll` loop.
struct SuitePool {
  /// One process to run.
  struct Job {
    /// Its arguments, after the program.
    var arguments: [String]
    /// The file on its standard input.
    var input: String
  }

  /// The program every job runs.
  var program: String
  /// The environment every job starts from.
  var environment: [String: String]
  /// How many run at once.
  var jobs: Int
  /// How long one may run, in seconds.
  var timeLimit: Double

  private struct Running {
    var index: Int
    var child: ChildProcess
    var started: ContinuousClock.Instant
    var home: String
  }

  /// Runs `work`, telling `started` each index as its process starts and `finished` each index
  /// with what its process did, in the order they end.
  func run(
    _ work: [Job], started: (Int) -> Void, finished: (Int, ChildRun) -> Void
  ) {
    let clock = ContinuousClock()
    var waiting = work.indices[...]
    var running: [Running] = []
    while !waiting.isEmpty || !running.isEmpty {
      while running.count < jobs, let index = waiting.popFirst() {
        started(index)
        let home = Self.temporaryHome(environment)
        var environment = environment
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["XDG_STATE_HOME"] = home + "/state"
        do {
          let child = try ChildProcess.spawn(
            program: program, arguments: work[index].arguments,
            environment: environment.map { "\($0.key)=\($0.value)" }, input: work[index].input)
          running.append(Running(index: index, child: child, started: clock.now, home: home))
        } catch {
          Self.remove(home)
          finished(
            index, ChildRun(ending: .notStarted(error.reason), output: [], errors: [], seconds: 0))
        }
      }
      Self.wait(for: running.map(\.child), until: running.map { $0.started + limit }.min())
      var still: [Running] = []
      for var job in running {
        job.child.drain()
        let elapsed = clock.now - job.started
        var timedOut = false
        if job.child.reap(blocking: false) {
          job.child.drain()
          job.child.output.close()
          job.child.errors.close()
        } else if elapsed >= limit {
          job.child.kill()
          timedOut = true
        } else {
          still.append(job)
          continue
        }
        Self.remove(job.home)
        let ending: ChildRun.Ending =
          switch job.child.ending {
          case _ where timedOut: .timedOut(seconds: timeLimit)
          case .exited(let status): .exited(status)
          case .signalled(let signal): .signalled(signal)
          case nil: .signalled(SIGKILL)
          }
        finished(
          job.index,
          ChildRun(
            ending: ending, output: job.child.output.bytes, errors: job.child.errors.bytes,
            seconds: Self.seconds(elapsed)))
      }
      running = still
    }
  }

  private var limit: Duration { .milliseconds(Int64(timeLimit * 1_000)) }

  /// Waits until a pipe has something to read, the nearest deadline, or 50 ms at most (a
  /// process that ended while a child of its own holds its pipes is noticed by then).
  private static func wait(for children: [ChildProcess], until deadline: ContinuousClock.Instant?) {
    guard !children.isEmpty else { return }
    var descriptors = children.flatMap { [$0.output.descriptor, $0.errors.descriptor] }
      .filter { $0 >= 0 }
      .map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    // A process whose pipes have closed is about to end: look again soon.
    var milliseconds: Int32 = children.contains { $0.pipesClosed } ? 1 : 50
    if let deadline {
      let left = deadline - ContinuousClock().now
      milliseconds = min(milliseconds, max(0, Int32(left / .milliseconds(1))))
    }
    _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
  }

  /// A new private folder for one process's XDG homes.
  private static func temporaryHome(_ environment: [String: String]) -> String {
    var folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    if !folder.hasPrefix("/") { folder = FileManager.default.currentDirectoryPath + "/" + folder }
    var template = Array((folder + "/authflow-test-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
      guard let base = buffer.baseAddress else { return false }
      return mkdtemp(base) != nil
    }
    // NB: when no folder can be made, the process gets paths that do not exist; its store is
    // in memory by default, and a store it asks for says itself why it cannot be opened.
    return made
      ? String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
      : folder + "/authflow-test-unavailable"
  }

  private static func remove(_ folder: String) {
    try? FileManager.default.removeItem(atPath: folder)
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

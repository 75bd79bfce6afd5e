import CProcess

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// What one script's process did.
package struct ChildRun: Equatable, Sendable {
  /// How it ended.
  package enum Ending: Equatable, Sendable {
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
  package var ending: Ending
  /// Its standard output: the transcript.
  package var output: [UInt8]
  /// Its standard error.
  package var errors: [UInt8]
  /// How long it ran, in seconds.
  package var seconds: Double
}

/// Runs processes, at most `jobs` at once, each with `XDG_DATA_HOME` and `XDG_STATE_HOME`
/// of its own inside one private folder, reading their pipes in one `poll` loop.
///
/// The homes are paths, not folders: a process makes what it writes (most scripts run on
/// `:memory:` and write nothing), and the folder goes when the run ends. A job's next process
/// starts as soon as one ends, before the ended one's output is judged.
///
/// When the jobs fill every CPU the suite may use, each job runs its processes on a CPU of its
/// own (``cpus(forJobs:allowed:)``).
package struct SuitePool {
  /// One process to run.
  package struct Job {
    /// Its arguments, after the program.
    package var arguments: [String]
    /// The file on its standard input.
    package var input: String

    /// A job running the program with `arguments`, `input` on its standard input.
    package init(arguments: [String], input: String) {
      self.arguments = arguments
      self.input = input
    }
  }

  /// The program every job runs.
  package var program: String
  /// The environment every job starts from.
  package var environment: [String: String]
  /// How many run at once.
  package var jobs: Int
  /// How long one may run, in seconds.
  package var timeLimit: Double
  /// The CPU each job runs its processes on, by job; empty when they run where the system puts
  /// them.
  package var cpus: [Int32] = []

  /// A pool running `program` with `environment`, `jobs` at once, each for at most
  /// `timeLimit` seconds, pinned to `cpus` when given.
  package init(
    program: String, environment: [String: String], jobs: Int, timeLimit: Double,
    cpus: [Int32] = []
  ) {
    self.program = program
    self.environment = environment
    self.jobs = jobs
    self.timeLimit = timeLimit
    self.cpus = cpus
  }

  /// The CPUs `jobs` jobs run on, one each, given the CPUs the suite may use (`allowed`): when
  /// there are as many jobs as CPUs, each job gets its own. A script's process hands work
  /// between its threads (the main actor, the engine, timers); pinned, the thread it wakes runs
  /// on the same CPU at once instead of waiting for a CPU another job is using, which made two
  /// scripts at once 9 % slower each than one alone. With fewer jobs than CPUs, a woken thread
  /// finds a spare CPU, which pinning would take from it; with more, only the system can
  /// balance them; one job has nothing to keep apart.
  package static func cpus(forJobs jobs: Int, allowed: [Int32]) -> [Int32] {
    jobs > 1 && jobs == allowed.count ? allowed : []
  }

  /// The most scripts that run at once.
  package static let jobLimit = 64

  /// The CPUs this process may run on, lowest first; empty when the system does not say.
  package static func allowedCPUs() -> [Int32] {
    var cpus = [Int32](repeating: 0, count: jobLimit + 1)
    let count = Int(authflow_allowed_cpus(&cpus, Int32(cpus.count)))
    // More CPUs than jobs can be asked for: no job count matches, so none is needed by name.
    guard count > 0, count <= cpus.count else { return [] }
    return Array(cpus[..<count])
  }

  private struct Running {
    var index: Int
    var slot: Int
    var child: ChildProcess
    var started: ContinuousClock.Instant
    var home: String
  }

  /// Runs `work`, telling `started` each index as its process starts and `finished` each index
  /// with what its process did, in the order they end.
  package func run(
    _ work: [Job], started: (Int) -> Void, finished: (Int, ChildRun) -> Void
  ) {
    let clock = ContinuousClock()
    // NB: when no folder can be made, the processes get paths that do not exist; a store is
    // in memory by default, and a store a script asks for says itself why it cannot be opened.
    let made = Self.temporaryFolder(environment)
    let folder = made ?? "/nonexistent/authflow-test"
    defer { if let made { Self.remove(made) } }
    var waiting = work.indices[...]
    var running: [Running] = []
    var ended: [(index: Int, home: String, run: ChildRun)] = []
    // The environment as `KEY=value` once; each process adds its own homes.
    let shared = environment.filter { $0.key != "XDG_DATA_HOME" && $0.key != "XDG_STATE_HOME" }
      .map { "\($0.key)=\($0.value)" }

    func startWaiting() {
      while running.count < jobs, let index = waiting.popFirst() {
        started(index)
        let home = folder + "/\(index)"
        let slot = (0..<jobs).first { slot in !running.contains { $0.slot == slot } } ?? 0
        do {
          let child = try ChildProcess.spawn(
            program: program, arguments: work[index].arguments,
            environment: shared + ["XDG_DATA_HOME=\(home)/data", "XDG_STATE_HOME=\(home)/state"],
            input: work[index].input, cpu: slot < cpus.count ? cpus[slot] : nil)
          running.append(
            Running(index: index, slot: slot, child: child, started: clock.now, home: home))
        } catch {
          let run = ChildRun(ending: .notStarted(error.reason), output: [], errors: [], seconds: 0)
          ended.append((index, home, run))
        }
      }
    }

    startWaiting()
    while !running.isEmpty || !ended.isEmpty {
      if !running.isEmpty {
        Self.wait(for: running.map(\.child), until: running.map { $0.started + limit }.min())
      }
      var still: [Running] = []
      for var job in running {
        if let run = reap(&job, elapsed: clock.now - job.started) {
          ended.append((job.index, job.home, run))
        } else {
          still.append(job)
        }
      }
      running = still
      // The next scripts start before the ended ones are judged and their homes removed.
      startWaiting()
      for (index, home, run) in ended {
        if made != nil { Self.remove(home) }
        finished(index, run)
      }
      ended = []
    }
  }

  /// What `job`'s process did, once it has ended or run out of time; nil while it runs.
  private func reap(_ job: inout Running, elapsed: Duration) -> ChildRun? {
    job.child.drain()
    var timedOut = false
    if job.child.reap(blocking: false) {
      job.child.drain()
      job.child.output.close()
      job.child.errors.close()
    } else if elapsed >= limit {
      job.child.kill()
      timedOut = true
    } else {
      return nil
    }
    let ending: ChildRun.Ending =
      switch job.child.ending {
      case _ where timedOut: .timedOut(seconds: timeLimit)
      case .exited(let status): .exited(status)
      case .signalled(let signal): .signalled(signal)
      case nil: .signalled(SIGKILL)
      }
    return ChildRun(
      ending: ending, output: job.child.output.bytes, errors: job.child.errors.bytes,
      seconds: Self.seconds(elapsed))
  }

  private var limit: Duration { .milliseconds(Int64(timeLimit * 1_000)) }

  /// Waits until a pipe has something to read, a process has ended, the nearest deadline, or
  /// 50 ms at most (a process that ended while a child of its own holds its pipes is noticed by
  /// then).
  private static func wait(for children: [ChildProcess], until deadline: ContinuousClock.Instant?) {
    guard !children.isEmpty else { return }
    var descriptors = children.flatMap { [$0.output.descriptor, $0.errors.descriptor, $0.exit] }
      .filter { $0 >= 0 }
      .map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    // A process whose pipes have closed is about to end: without a descriptor telling when,
    // look again soon.
    var milliseconds: Int32 = children.contains { $0.pipesClosed && $0.exit < 0 } ? 1 : 50
    if let deadline {
      let left = deadline - ContinuousClock().now
      milliseconds = min(milliseconds, max(0, Int32(left / .milliseconds(1))))
    }
    _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
  }

  /// A new private folder for the processes' XDG homes, if one can be made.
  private static func temporaryFolder(_ environment: [String: String]) -> String? {
    var folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    if !folder.hasPrefix("/") { folder = FileManager.default.currentDirectoryPath + "/" + folder }
    var template = Array((folder + "/authflow-test-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
      guard let base = buffer.baseAddress else { return false }
      return mkdtemp(base) != nil
    }
    guard made else { return nil }
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Removes `path` and what it holds, if it is there (a look costs no disk write).
  private static func remove(_ path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    try? FileManager.default.removeItem(atPath: path)
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

import CProcess

#if canImport(Glibc)
  import Glibc
#endif

/// A script's `authflow` process: started with `posix_spawn`, a file on standard input, and
/// standard output and standard error each on a socket that the suite reads without blocking.
package struct ChildProcess {
  /// How a process ended.
  package enum Ending: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)
  }

  /// The process id.
  package let pid: pid_t
  /// What it wrote to standard output.
  package var output = CapturedStream()
  /// What it wrote to standard error.
  package var errors = CapturedStream()
  /// How it ended, once it has.
  package var ending: Ending?
  /// A descriptor that becomes readable when the process ends (`pidfd_open`), or -1 where the
  /// kernel has none: the suite then looks again a millisecond after the pipes close.
  package var exit: Int32 = -1

  /// Why a process could not start.
  package struct SpawnFailure: Error, Equatable {
    /// What went wrong, in a few words.
    var reason: String
  }

  /// Starts `program` with `arguments` (after its name) and `environment` (`KEY=value`), reading
  /// the file at `input`; on `cpu` alone when one is given (where the system allows it).
  package static func spawn(
    program: String, arguments: [String], environment: [String], input: String,
    cpu: Int32? = nil
  ) throws(SpawnFailure) -> ChildProcess {
    guard access(input, R_OK) == 0 else {
      throw SpawnFailure(reason: "cannot read \(input): \(String(cString: strerror(errno)))")
    }
    // NB: socket pairs, because Glibc's pipe2 is not imported and a pipe made without
    // O_CLOEXEC could leak into a process another thread starts meanwhile (whose holding it
    // open would keep the suite from seeing this one's end).
    var outputPipe: [Int32] = [-1, -1]
    var errorPipe: [Int32] = [-1, -1]
    guard socketPair(&outputPipe) else { throw failure("socketpair") }
    guard socketPair(&errorPipe) else {
      close(outputPipe[0])
      close(outputPipe[1])
      throw failure("socketpair")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The child starts with no signal blocked and SIGPIPE as a program expects it.
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigaddset(&signals, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &signals)

    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
    close(outputPipe[1])
    close(errorPipe[1])
    guard status == 0 else {
      close(outputPipe[0])
      close(errorPipe[0])
      throw SpawnFailure(reason: "cannot start \(program): \(String(cString: strerror(status)))")
    }
    // NB: posix_spawn returns once the program is exec'd; its first thread of its own comes
    // milliseconds later (after start-up), so its threads are made on `cpu`. A refusal (a
    // container's policy) leaves it unpinned.
    if let cpu { _ = authflow_run_on_cpu(pid, cpu) }
    var child = ChildProcess(pid: pid)
    child.exit = pidfd_open(pid, UInt32(PIDFD_NONBLOCK))
    child.output.descriptor = outputPipe[0]
    child.errors.descriptor = errorPipe[0]
    for descriptor in [outputPipe[0], errorPipe[0]] {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
    return child
  }

  /// A connected pair of sockets, both ends closed on exec; whether it was made.
  private static func socketPair(_ ends: inout [Int32]) -> Bool {
    socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0
  }

  private static func failure(_ call: String) -> SpawnFailure {
    SpawnFailure(reason: "\(call): \(String(cString: strerror(errno)))")
  }

  /// Whether both pipes have reached their end.
  package var pipesClosed: Bool { output.descriptor < 0 && errors.descriptor < 0 }

  /// Reads what both pipes hold now.
  package mutating func drain() {
    output.drain()
    errors.drain()
  }

  /// Notes the process's ending, waiting for it when `blocking`; whether it has ended.
  package mutating func reap(blocking: Bool) -> Bool {
    if ending != nil { return true }
    var status: Int32 = 0
    var result: pid_t
    repeat {
      result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
    } while result < 0 && errno == EINTR
    guard result == pid else { return false }
    // NB: WIFEXITED and friends are C macros that Swift does not import.
    ending = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    if exit >= 0 {
      close(exit)
      exit = -1
    }
    return true
  }

  /// Ends the process at once, reads what it left and waits for it.
  package mutating func kill() {
    _ = Glibc.kill(pid, SIGKILL)
    _ = reap(blocking: true)
    drain()
    output.close()
    errors.close()
  }
}

/// The bytes a process wrote to one pipe, read as they come.
package struct CapturedStream {
  /// The pipe's read end, non-blocking; -1 once it is closed.
  package var descriptor: Int32 = -1
  /// Everything read so far.
  package var bytes: [UInt8] = []

  /// Reads until the pipe is empty for now, closing it at its end.
  package mutating func drain() {
    guard descriptor >= 0 else { return }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes += chunk[..<count]
      } else if count < 0 && errno == EINTR {
        continue
      } else {
        if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { close() }
        return
      }
    }
  }

  /// Stops reading.
  package mutating func close() {
    guard descriptor >= 0 else { return }
    _ = Glibc.close(descriptor)
    descriptor = -1
  }
}

import CProcess
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A shell that waits for this process to end, then stops the tests' PostgreSQL server
/// (`pg_ctl stop -m immediate`) and removes its folder.
///
/// It reads a pipe whose other end only this process holds (close-on-exec, so no other child
/// inherits it): the end of file comes when this process exits, whether it returns, calls
/// `exit` or is killed (the shell ignores the signals that a Ctrl-C or a hang-up sends to the
/// whole process group). On a normal exit an `atexit` handler closes the pipe itself and waits
/// for the shell, so the folder is gone before the test run is over.
struct Watchdog {
  private let writeEnd: Int32
  private let pid: pid_t

  /// The watchdog of this process, for the `atexit` handler.
  private static let current = Mutex<Watchdog?>(nil)

  private static let script = """
    trap '' HUP INT TERM
    cat > /dev/null
    folder="$1"; shift
    if [ -f "$folder/data/postmaster.pid" ]; then
      "$@" stop -D "$folder/data" -m immediate -w -t 30 > /dev/null 2>&1
    fi
    rm -rf "$folder"
    """

  /// Starts the watchdog of `folder`.
  static func start(
    folder: String, programs: PostgresPrograms
  ) throws(PostgresTestServerError) {
    var ends: [Int32] = [0, 0]
    guard pipe2(&ends, O_CLOEXEC) == 0 else {
      throw PostgresTestServerError(description: "no pipe for the PostgreSQL watchdog")
    }
    let arguments =
      ["/bin/sh", "-c", script, "authflow-postgres-watchdog", folder]
      + programs.commandLine("pg_ctl", [])
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
    close(ends[0])
    guard status == 0 else {
      close(ends[1])
      throw PostgresTestServerError(
        description: "the PostgreSQL watchdog could not start: \(String(cString: strerror(status)))"
      )
    }
    current.withLock { $0 = Watchdog(writeEnd: ends[1], pid: pid) }
    atexit { Watchdog.finish() }
  }

  /// Lets the watchdog (if one runs) stop the server and remove its folder, and waits until
  /// it has.
  static func finish() {
    guard let watchdog = current.withLock({ $0.take() }) else { return }
    close(watchdog.writeEnd)
    var status: Int32 = 0
    while waitpid(watchdog.pid, &status, 0) == -1 && errno == EINTR {}
  }
}

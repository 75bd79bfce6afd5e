import HTTPServer
import LocalPages

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The screen presented in a browser (`--present`, `present`): a server on 127.0.0.1 whose
/// page draws the screen the shell is on, and the observer that shows it a new screen after
/// every command. The server runs on a thread of its own, so a browser never waits for the
/// shell (reading a line, typing out a playback) and the shell never waits for a browser.
@MainActor
final class ScreenPresenter {
  /// The page's address, `http://127.0.0.1:PORT/`.
  let url: String
  /// The screen the page's event stream hands out.
  let board: PresentBoard
  private let server: HTTPServer
  private let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  private init(server: HTTPServer, board: PresentBoard) {
    self.server = server
    self.board = board
    url = "http://127.0.0.1:\(server.port)/"
  }

  /// Starts the page's server on `port` of 127.0.0.1 (0: a free one).
  static func start(port: UInt16) throws(ShellError) -> ScreenPresenter {
    var configuration = HTTPServerConfiguration()
    configuration.hosts = ["127.0.0.1"]
    configuration.port = port
    configuration.maxConnections = 64
    configuration.maxBodyBytes = 0
    // NB: Ctrl-C is the shell's: libevent takes SIGINT for one event base only.
    configuration.handlesSignals = false
    let board = PresentBoard()
    let server: HTTPServer
    do {
      server = try HTTPServer(
        configuration: configuration, responder: PresentResponder(board: board, key: PageKey()),
        log: { _ in })
    } catch {
      throw .cannotPresent(port: port, reason: error.description)
    }
    LoopThread.start { server.run() }
    return ScreenPresenter(server: server, board: board)
  }

  /// Shows the page the screen `session` is on, its secrets masked (and the values read from
  /// the environment as their `$NAME`, as everything the shell writes).
  func show(_ session: ShellSession) {
    let screen = PresentedScreen(
      session.viewModel.state, backend: session.backend.name, now: session.now)
    guard let data = try? encoder.encode(screen) else { return }
    board.show(session.io.masks.apply(String(decoding: data, as: UTF8.self)))
  }

  /// `present: URL` on standard error, where a presenter finds it.
  func announce() {
    var line = "present: \(url)\n"
    _ = line.withUTF8 { write(2, $0.baseAddress, $0.count) }
  }

  /// Stops the server (tests; a shell's ends with its process).
  func stop() {
    server.stop()
  }
}

extension ScreenPresenter: StepObserver {
  /// Shows the screen the command left.
  func observe(_ step: StepRecord, in session: ShellSession) async -> [String] {
    show(session)
    return []
  }
}

import AuthFlow
import Foundation
import HTTPServer
import LocalPages
import Testing

@testable import AuthShell

/// `--present [PORT]` and `present [PORT]`: how they are read, and the page's server: what it
/// answers, to whom, and when its event stream hands out a new screen.
@MainActor
struct PresentTests {
  @Test(arguments: [
    (["--present"], UInt16?.some(0), String?.none, ""),
    (["--present", "0"], 0, nil, "0"),
    (["--present", "8080"], 8080, nil, "8080"),
    (["--present=9000"], 9000, nil, "9000"),
    (["--present", "demo.authflow"], 0, "demo.authflow", ""),
    (["--present", "8080", "demo.authflow"], 8080, "demo.authflow", "8080"),
    (["demo.authflow", "--present"], 0, "demo.authflow", ""),
  ])
  func theOptionsPortMayBeLeftOut(arguments: [String], port: UInt16?, file: String?, word: String)
    throws
  {
    let options = try ShellOptions.parse(arguments)
    #expect(options.present == port)
    #expect(options.file == file)
    // The words group as the parser reads them (what a `#!` line's admission checks).
    let groups = OptionWords.split(arguments)
    #expect(groups.compactMap { $0.option == nil ? nil : $0.value } == [word])
    #expect(groups.filter { $0.option == nil }.map(\.words) == (file.map { [[$0]] } ?? []))
    #expect(!groups.contains { $0.lacksValue })
  }

  @Test(arguments: ["65536", "99999"])
  func aPortOutOfRangeIsRefused(port: String) {
    #expect(throws: ShellError.self) { try ShellOptions.parse(["--present", port]) }
  }

  @Test func theOptionIsTheCommandLinesOnlyAndNotForTestRuns() throws {
    #expect(ShellOptions.option(named: "--present")?.scriptLine == .commandLineOnly)
    #expect(ShellOptions.usage.contains("--present [PORT]"))
    #expect(throws: SuiteError.self) { try SuiteOptions.parse(["--present", "examples"]) }
  }

  @Test(arguments: [
    (["present"], UInt16?.none), (["present", "0"], UInt16?.some(0)),
    (["present", "8080"], UInt16?.some(8080)),
  ])
  func theCommandTakesAPortOrNothing(words: [String], port: UInt16?) throws {
    let invocation = try LineParser.parse(words: words).get()
    #expect(invocation.spec == CommandTable.present.spec)
    #expect(invocation.input == CommandTable.present.invocation(port).input)
  }

  @Test(arguments: [["present", "x"], ["present", "70000"], ["present", "1", "2"]])
  func theCommandRefusesAnythingElse(words: [String]) {
    switch LineParser.parse(words: words) {
    case .success: Issue.record("\(words) should not parse")
    case .failure(let error):
      #expect(
        error.text
          == "present takes a port from 0 to 65535 (0: a free one), or nothing; usage: present [PORT]"
      )
    }
  }

  // MARK: The server

  private let key = PageKey()

  private func get(
    _ path: String, headers: [(name: String, value: String)] = [], board: PresentBoard,
    peer: String = "127.0.0.1:5000"
  ) async -> HTTPResponse {
    let (path, query) = split(path)
    let request = HTTPRequest(
      method: .get, path: path, query: query,
      headers: headers.contains { $0.name == "Host" }
        ? headers : [("Host", "127.0.0.1:8080")] + headers,
      peer: peer)
    switch PresentResponder(board: board, key: key).route(request) {
    case .answer(let response): return response
    case .work(let work): return await work()
    }
  }

  private func split(_ target: String) -> (String, [(name: String, value: String)]) {
    guard let mark = target.firstIndex(of: "?") else { return (target, []) }
    let pairs = target[target.index(after: mark)...].split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      return (name: parts[0], value: parts.count > 1 ? parts[1] : "")
    }
    return (String(target[..<mark]), pairs)
  }

  private func text(_ response: HTTPResponse) -> String {
    String(decoding: response.body, as: UTF8.self)
  }

  @Test func thePageCarriesItsTokenAndThePoliciesOfServesPage() async throws {
    let board = PresentBoard()
    let page = await get("/", board: board)
    #expect(page.status == 200)
    #expect(
      page.headers.contains { $0 == ("Content-Security-Policy", PageGuard.contentSecurityPolicy) })
    let token = try #require(text(page).firstMatch(of: /name="authflow-page" content="([^"]+)"/))
    #expect(key.accepts(String(token.1)))
    #expect(await get("/app.js", board: board).status == 200)
    let style = text(await get("/app.css", board: board))
    #expect(style.hasPrefix(PageStyle.css) && style.contains("prefers-color-scheme: dark"))
    #expect(await get("/nothing", board: board).status == 404)
    #expect(await get("/events", board: board).status == 403, "no token")
  }

  @Test func noOtherPageOrHostOrMachineGetsAnything() async {
    let board = PresentBoard()
    let token = key.issue()
    for (headers, peer) in [
      ([("Origin", "https://evil.example")], "127.0.0.1:5000"),
      ([("Origin", "http://127.0.0.1:8081")], "127.0.0.1:5000"),
      ([("Sec-Fetch-Site", "cross-site")], "127.0.0.1:5000"),
      ([("Host", "evil.example:8080")], "127.0.0.1:5000"),
      ([], "192.168.1.20:5000"),
    ] as [([(name: String, value: String)], String)] {
      let answer = await get("/events?token=\(token)", headers: headers, board: board, peer: peer)
      #expect(answer.status == 403, "\(headers) from \(peer)")
      #expect(!text(answer).contains("event:"))
    }
  }

  @Test func theEventStreamHandsOutEachNewScreenOnce() async throws {
    let board = PresentBoard()
    board.show(#"{"title":"Welcome"}"#)
    let token = key.issue()
    let first = text(await get("/events?token=\(token)", board: board))
    #expect(first == "retry: 40\nid: 1\nevent: screen\ndata: {\"title\":\"Welcome\"}\n\n")
    // The same screen again is no new version.
    board.show(#"{"title":"Welcome"}"#)
    #expect(board.shown.version == 1)
    // A page that has seen version 1 is held until the next screen.
    async let held = get(
      "/events?token=\(token)", headers: [("Last-Event-ID", "1")], board: board)
    try await Task.sleep(for: .milliseconds(50))
    board.show(#"{"title":"Sign In"}"#)
    let next = text(await held)
    #expect(next == "retry: 40\nid: 2\nevent: screen\ndata: {\"title\":\"Sign In\"}\n\n")
  }

  @Test func theSessionsPresenterShowsTheScreenAfterEachCommand() async throws {
    let backend = try ShellBackend.embedded(
      store: .memory, configuration: .init(), seed: 1, stateDirectory: "/nonexistent")
    let session = ShellSession(backend: backend, style: .script)
    #expect(session.present(nil).result == .done)
    let presenter = try #require(session.observers.presenter)
    defer { presenter.stop() }
    #expect(presenter.url.hasPrefix("http://127.0.0.1:"))
    #expect(presenter.board.shown.json.contains(#""title":"Welcome""#))
    #expect(session.present(0).result == .done, "tells where again")
    #expect(session.present(1).result == .mistake(.alreadyPresenting(url: presenter.url)))
    #expect(session.observers.watching && session.observers.active.contains { $0 === presenter })
    for words in [["signin"], ["set", "email", "a@b.co"], ["set", "password", "Secret123"]] {
      let invocation = try LineParser.parse(words: words).get()
      let before = session.viewModel.state
      guard case .finished(let output) = session.prepare(invocation) else {
        Issue.record("\(words[0]) waited")
        continue
      }
      let step = StepRecord(
        invocation: invocation, result: output.result, before: before,
        after: session.viewModel.state, events: [], startedAt: session.now,
        endedAt: session.now)
      #expect(await presenter.observe(step, in: session).isEmpty)
    }
    let shown = presenter.board.shown.json
    #expect(shown.contains(#""title":"Sign In""#))
    #expect(shown.contains("a@b.co"))
    #expect(!shown.contains("Secret123"))
  }
}

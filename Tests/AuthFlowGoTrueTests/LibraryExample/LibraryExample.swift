import AuthFlow
import AuthFlowGoTrue
import GoTrueEngine
import SavedSessions

// docs/library.md's first example, between the markers as it stands there after these imports;
// LibraryExampleTests checks the two are the same text, and runs it.

// page begin
@MainActor
func demo() async throws {
  let engine = try EmbeddedGoTrue(location: .memory)
  let flow = AuthViewModel(
    service: GoTrueAuthService(api: engine, sessions: MemorySessionStore()),
    events: AuthEventSink { print($0.name) })
  flow.navigateToLogin()  // choice → login
  flow.email = "test@example.com"
  flow.password = "TestPassword123!"
  await flow.submit()  // validates, then calls the service
  if let session = flow.session {
    print("signed in as", session.user.email)
  } else {
    print(flow.errorMessage ?? "")  // "That email or password looks incorrect"
  }
}
// page end

/// What the example printed, line by line.
@MainActor var printedLines: [String] = []

/// The example's `print`: each line is kept for the test instead of written out.
@MainActor fileprivate func print(
  _ items: Any..., separator: String = " ", terminator: String = "\n"
) {
  printedLines.append(items.map { "\($0)" }.joined(separator: separator))
}

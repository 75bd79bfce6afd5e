import AuthFlow
import AuthFlowGoTrue
import GoTrueEngine
import SavedSessions
import Testing

/// The library page's example (docs/library.md), as written there, so it cannot drift from the
/// API.
@MainActor
struct ReadmeExampleTests {
  @Test func theLibraryExampleSignsIn() async throws {
    let engine = try EmbeddedGoTrue(location: .memory)
    var names: [String] = []
    let flow = AuthViewModel(
      service: GoTrueAuthService(api: engine, sessions: MemorySessionStore()),
      events: AuthEventSink { names.append($0.name) })
    flow.navigateToLogin()  // choice → login
    flow.email = "test@example.com"
    flow.password = "TestPassword123!"
    await flow.submit()  // validates, then calls the service
    #expect(flow.session?.user.email == "test@example.com")
    #expect(
      names == [
        "auth_screen_viewed", "auth_screen_viewed", "auth_submitted", "auth_succeeded",
        "auth_session_changed",
      ])
  }
}

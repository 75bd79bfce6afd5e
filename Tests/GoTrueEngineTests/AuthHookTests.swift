import GoTrue
import Synchronization
import TestSupport
import Testing

@testable import AccountStore
@testable import GoTrueEngine

/// A hook that answers what the test scripts and records every payload; a hook it was not
/// scripted for fails the test.
final class ScriptedHooks: AuthHookDispatcher {
  let answers:
    [AuthHook: @Sendable ([String: JSONValue]) throws(GoTrueAPIError) -> [String: JSONValue]]
  private let recorded = Mutex<[(AuthHook, [String: JSONValue])]>([])

  init(
    _ answers: [AuthHook:
      @Sendable ([String: JSONValue]) throws(GoTrueAPIError) -> [String: JSONValue]]
  ) {
    self.answers = answers
  }

  var calls: [(hook: AuthHook, payload: [String: JSONValue])] { recorded.withLock { $0 } }

  /// The failures reported where no answer could carry them.
  var reports: [(hook: AuthHook, failure: GoTrueAPIError)] { reported.withLock { $0 } }
  private let reported = Mutex<[(AuthHook, GoTrueAPIError)]>([])

  func report(_ failure: GoTrueAPIError, of hook: AuthHook) {
    reported.withLock { $0.append((hook, failure)) }
  }

  func isEnabled(_ hook: AuthHook) -> Bool { answers[hook] != nil }

  func dispatch(_ hook: AuthHook, payload: [String: JSONValue]) async throws(GoTrueAPIError)
    -> [String: JSONValue]
  {
    recorded.withLock { $0.append((hook, payload)) }
    guard let answer = answers[hook] else {
      Issue.record("the \(hook.rawValue) hook was called but not scripted")
      return [:]
    }
    return try answer(payload)
  }
}

/// GoTrue's custom access token and send-email hooks, as the engine calls them.
struct AuthHookTests {
  static let addPlan:
    @Sendable ([String: JSONValue]) throws(GoTrueAPIError) -> [String: JSONValue] = {
      payload in
      var claims = payload["claims"]?.objectValue ?? [:]
      claims["plan"] = .string("pro")
      return ["claims": .object(claims)]
    }

  @Test func theClaimsTheHookAnswersAreTheOnesSigned() async throws {
    let hooks = ScriptedHooks([.customizeAccessToken: Self.addPlan])
    let engine = try makeEngine(hooks: hooks)
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let claims = try JSONWebToken.verify(session.accessToken, keys: engine.tokenKeys, now: nil)
    #expect(claims["plan"] == .string("pro"))
    #expect(claims["email"] == .string("test@example.com"))
    let payload = try #require(hooks.calls.first?.payload)
    #expect(payload["authentication_method"] == .string("password"))
    #expect(payload["user_id"] == .string(session.user.id))
    #expect(payload["claims"]?.objectValue?["plan"] == nil)
    #expect(payload["metadata"]?.objectValue?["name"] == .string("customize-access-token"))
    // The token the hook shaped is taken back.
    #expect(try await engine.user(accessToken: session.accessToken).id == session.user.id)
  }

  @Test func aRefreshIsCalledTokenRefreshAndKeepsTheHooksClaims() async throws {
    let hooks = ScriptedHooks([.customizeAccessToken: Self.addPlan])
    let engine = try makeEngine(hooks: hooks)
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let refreshed = try await engine.refresh(refreshToken: session.refreshToken)
    let claims = try JSONWebToken.verify(refreshed.accessToken, keys: engine.tokenKeys, now: nil)
    #expect(claims["plan"] == .string("pro"))
    #expect(hooks.calls.last?.payload["authentication_method"] == .string("token_refresh"))
  }

  @Test(.readsSQLiteTables) func aRefusalIsTheAnswerAndTheNewSessionIsRemoved() async throws {
    let refusal = GoTrueAPIError(status: 403, code: nil, message: "no entry for you")
    let hooks = ScriptedHooks([.customizeAccessToken: { _ throws(GoTrueAPIError) in throw refusal }]
    )
    let engine = try makeEngine(hooks: hooks)
    let failure = await failure {
      try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    }
    #expect(failure?.apiError == refusal)
    let sessions = try engine.withDatabase { accounts throws(GoTrueAPIError) in
      try accounts.first("SELECT count(*) FROM sessions", row: { $0.int(0) })
    }
    #expect(sessions == 0)
  }

  @Test func claimsWithoutTheRequiredOnesAreGoTruesSchemaError() async throws {
    let hooks = ScriptedHooks([
      .customizeAccessToken: { _ in ["claims": .object(["sub": .string("x")])] }
    ])
    let engine = try makeEngine(hooks: hooks)
    let failure = await failure {
      try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    }
    let missing = [
      "aud", "exp", "iat", "email", "phone", "role", "aal", "session_id", "is_anonymous",
    ]
    #expect(
      failure?.apiError
        == GoTrueAPIError(
          status: 500, code: nil,
          message: "output claims do not conform to the expected schema: \n"
            + missing.map { "- (root): \($0) is required\n" }.joined()))
  }

  @Test(arguments: [
    (["other": JSONValue.null], "output claims field is missing"),
    (["claims": JSONValue.string("x")], "Error unmarshaling JSON output."),
  ])
  func anAnswerWithoutAClaimsObjectIsA500(answer: [String: JSONValue], message: String) async throws
  {
    let hooks = ScriptedHooks([.customizeAccessToken: { _ in answer }])
    let engine = try makeEngine(hooks: hooks)
    let failure = await failure {
      try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    }
    #expect(failure?.apiError == GoTrueAPIError(status: 500, code: nil, message: message))
  }

  @Test func aClaimOfTheWrongTypeIsNamed() throws {
    var claims: [String: JSONValue] = [:]
    for name in HookClaims.required { claims[name] = .string("x") }
    claims["exp"] = .number(1.5)
    claims["aud"] = .bool(true)
    #expect(
      throws: GoTrueAPIError(
        status: 500, code: nil,
        message:
          "output claims do not conform to the expected schema: \n"
          + "- aud: Invalid type. Expected: [string,array], given: boolean\n"
          + "- exp: Invalid type. Expected: integer, given: number\n"
          + "- iat: Invalid type. Expected: integer, given: string\n")
    ) {
      try HookClaims.read(["claims": .object(claims)])
    }
  }

  @Test func theSendEmailHookGetsTheCodeAndTheOutboxKeepsAMarkedCopy() async throws {
    let hooks = ScriptedHooks([.sendEmail: { _ in [:] }])
    let engine = try makeEngine(hooks: hooks)
    _ = try await engine.signUp(email: "new@example.com", password: "a long password", data: [:])
    await engine.waitForUnansweredSends()
    let payload = try #require(hooks.calls.first?.payload)
    let data = try #require(payload["email_data"]?.objectValue)
    let copy = try #require(engine.outbox.newest(to: "new@example.com"))
    #expect(data["token"] == .string(copy.code))
    #expect(data["email_action_type"] == .string("signup"))
    #expect(data["token_new"] == .string(""))
    #expect(payload["user"]?.objectValue?["email"] == .string("new@example.com"))
    #expect(payload["metadata"]?.objectValue?["name"] == .string("send-email"))
    #expect(copy.handedToHook)
  }

  @Test func anEmailChangeIsOneCallWithBothCodesCrossedAsGoTrueCrossesThem() async throws {
    let hooks = ScriptedHooks([.sendEmail: { _ in [:] }])
    let engine = try makeEngine(hooks: hooks)
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    _ = try await engine.updateUser(
      GoTrueUserAttributes(email: "moved@example.com"), accessToken: session.accessToken)
    #expect(hooks.calls.count == 1)
    let data = try #require(hooks.calls.first?.payload["email_data"]?.objectValue)
    let new = try #require(engine.outbox.newest(to: "moved@example.com"))
    let current = try #require(engine.outbox.newest(to: "test@example.com"))
    #expect(data["email_action_type"] == .string("email_change"))
    #expect(data["token"] == .string(current.code))
    #expect(data["token_new"] == .string(new.code))
    #expect(new.handedToHook && current.handedToHook)
  }

  @Test func aSendEmailHookThatFailsIsTheAnswerAndNothingIsKept() async throws {
    let refusal = GoTrueAPIError(status: 422, code: .hookTimeout, message: "late")
    let hooks = ScriptedHooks([.sendEmail: { _ throws(GoTrueAPIError) in throw refusal }])
    let engine = try makeEngine(hooks: hooks)
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let failure = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(email: "moved@example.com"), accessToken: session.accessToken)
    }
    #expect(failure?.apiError == refusal)
    #expect(engine.outbox.messages.isEmpty)
    #expect(hooks.reports.isEmpty, "an answer told of it")
  }

  @Test func withNoHooksOnTheEngineSignsAndSendsItself() async throws {
    let hooks = ScriptedHooks([:])
    let engine = try makeEngine(hooks: hooks)
    _ = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    try await engine.recover(email: "test@example.com")
    #expect(hooks.calls.isEmpty)
    #expect(engine.outbox.messages.first?.handedToHook == false)
  }
}

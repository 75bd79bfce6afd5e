import Clocks
import Foundation
import GoTrueEngine
import HTTPServer
import Testing

@testable import AuthServer

/// `GET`/`POST /authflow/v1/clock`: time travel over HTTP, and everything that follows it.
struct ClockRouteTests {
  private let path = "/authflow/v1/clock"

  private func move(_ server: TestServer, _ body: String) async -> Reply {
    await server.send(.post, path, json: body)
  }

  @Test func getReadsTheServersTimeAndThatItMayMove() async throws {
    let server = try TestServer()
    let reply = await server.send(.get, path)
    #expect(reply.status == 200)
    let reading = try #require(reply.object)
    #expect(reading["now"] as? String == "2025-01-01T00:00:00Z")
    #expect(reading["offset_seconds"] as? Double == 0)
    #expect(reading["movable"] as? Bool == true)
  }

  @Test func advanceMovesTheEngineClockAndTellsTheLog() async throws {
    let log = ClockLog()
    let server = try TestServer(clockLog: log)
    let reply = await move(server, #"{"advance":"25h"}"#)
    #expect(reply.status == 200)
    #expect(reply.object?["now"] as? String == "2025-01-02T01:00:00Z")
    #expect(reply.object?["offset_seconds"] as? Double == 90_000)
    #expect(server.engine.clock.now == Date(timeIntervalSince1970: 1_735_689_600 + 90_000))
    #expect(log.lines == ["clock moved forward 25h to 2025-01-02T01:00:00Z"])
    // Also under the /auth/v1 a project URL puts in front.
    let again = await server.send(.post, "/auth/v1" + path, json: #"{"advance":"1h30m"}"#)
    #expect(again.object?["now"] as? String == "2025-01-02T02:30:00Z")
  }

  @Test func setMovesForwardToALaterTime() async throws {
    let log = ClockLog()
    let server = try TestServer(clockLog: log)
    let reply = await move(server, #"{"set":"2025-01-03T00:00:00Z"}"#)
    #expect(reply.status == 200)
    #expect(reply.object?["now"] as? String == "2025-01-03T00:00:00Z")
    #expect(reply.object?["offset_seconds"] as? Double == 172_800)
    #expect(log.lines == ["clock moved forward 48h to 2025-01-03T00:00:00Z"])
  }

  @Test func setToAnEarlierTimeIsRefusedNamingTheServersTime() async throws {
    let server = try TestServer()
    let reply = await move(server, #"{"set":"2024-12-31T00:00:00Z"}"#)
    #expect(reply.status == 400)
    #expect(reply.errorCode == "validation_failed")
    #expect(
      reply.object?["msg"] as? String
        == "the clock only moves forward: the server's time is 2025-01-01T00:00:00Z; set a "
        + "later time, or advance a duration")
    #expect(server.clock.offset == 0)
  }

  @Test func badBodiesAreRefusedSayingWhatIsRight() async throws {
    let server = try TestServer()
    let oneOf = #"give one of advance or set: {"advance":"25h"} or {"set":"2030-01-01T00:00:00Z"}"#
    let cases: [(String, String, String)] = [
      ("{}", "validation_failed", oneOf),
      (#"{"advance":"1h","set":"2030-01-01T00:00:00Z"}"#, "validation_failed", oneOf),
      (
        #"{"advance":"soon"}"#, "validation_failed",
        "advance takes a duration such as 90s, 15m, 25h or 1h30m, up to 3650d"
      ),
      (
        #"{"set":"tomorrow"}"#, "validation_failed",
        "set takes a time in RFC 3339 form, such as 2030-01-01T00:00:00Z"
      ),
    ]
    for (body, code, message) in cases {
      let reply = await move(server, body)
      #expect(reply.status == 400, "\(body)")
      #expect(reply.errorCode == code, "\(body)")
      #expect(reply.object?["msg"] as? String == message, "\(body)")
    }
    for body in ["", "not json", #"{"advance":90}"#] {
      let reply = await move(server, body)
      #expect(reply.status == 400, "\(body)")
      #expect(reply.errorCode == "bad_json", "\(body)")
    }
    #expect(server.clock.offset == 0)
  }

  @Test func aClockThatMayNotMoveRefusesNamingBothWays() async throws {
    let server = try TestServer(movableClock: false)
    let reply = await move(server, #"{"advance":"1h"}"#)
    #expect(reply.status == 403)
    #expect(reply.text == ClockRoutes.notMovable)
    #expect(reply.text.contains("--store :memory:") && reply.text.contains("--allow-clock"))
    #expect(server.clock.offset == 0)
    let reading = await server.send(.get, path)
    #expect(reading.status == 200)
    #expect(reading.object?["movable"] as? Bool == false)
  }

  @Test func onlyThisMachineMovesTheClock() async throws {
    let server = try TestServer()
    let remote = await server.send(.post, path, json: #"{"advance":"1h"}"#, peer: "10.0.0.2:5000")
    #expect(remote.status == 403)
    #expect(remote.text == "the clock answers only this machine (a loopback connection)")
    let page = await server.send(
      .post, path, json: #"{"advance":"1h"}"#, headers: [("Origin", "https://evil.example")])
    #expect(page.status == 403)
    #expect(page.header("Access-Control-Allow-Origin") == nil)
    #expect(await server.send(.get, path, peer: "10.0.0.2:5000").status == 403)
    #expect(server.clock.offset == 0)
  }

  @Test func accessTokensExpireWhenTheClockPassesTheirExpiry() async throws {
    let server = try TestServer()
    let session = try await server.signIn()
    let access = try #require(session["access_token"] as? String)
    let refresh = try #require(session["refresh_token"] as? String)
    let bearer = [("Authorization", "Bearer " + access)]
    #expect(await server.send(.get, "/user", headers: bearer).status == 200)
    _ = await move(server, #"{"advance":"2h"}"#)
    let expired = await server.send(.get, "/user", headers: bearer)
    #expect(expired.status == 403)
    #expect(expired.errorCode == "bad_jwt")
    #expect((expired.object?["msg"] as? String)?.hasSuffix("token is expired") == true)
    let renewed = await server.send(
      .post, "/token", json: #"{"refresh_token":"\#(refresh)"}"#,
      query: [("grant_type", "refresh_token")])
    #expect(renewed.status == 200)
    let fresh = try #require(renewed.object?["access_token"] as? String)
    #expect(
      await server.send(.get, "/user", headers: [("Authorization", "Bearer " + fresh)]).status
        == 200)
  }

  @Test func aRotatedRefreshTokenStopsWorkingWhenTheClockPassesTheReuseInterval() async throws {
    let server = try TestServer()
    let refresh = try #require(try await server.signIn()["refresh_token"] as? String)
    let body = #"{"refresh_token":"\#(refresh)"}"#
    let query = [("grant_type", "refresh_token")]
    #expect(await server.send(.post, "/token", json: body, query: query).status == 200)
    // Within GoTrue's 10 s reuse interval the old token still works…
    #expect(await server.send(.post, "/token", json: body, query: query).status == 200)
    _ = await move(server, #"{"advance":"11s"}"#)
    // …and past it, it is refused.
    let reused = await server.send(.post, "/token", json: body, query: query)
    #expect(reused.status == 400)
    #expect(reused.errorCode == "refresh_token_already_used")
  }

  @Test func theRequestLimitsRefillAsTheClockMoves() async throws {
    var limits = RequestLimits()
    limits.byPeerAddress = true
    let server = try TestServer(limitsFollowingClock: limits)
    let limiter = server.responder.limiter
    for _ in 0..<30 { #expect(limiter.spend(.verify, key: "127.0.0.1")) }
    #expect(!limiter.spend(.verify, key: "127.0.0.1"))
    _ = await move(server, #"{"advance":"5m"}"#)
    #expect(limiter.remaining(.verify, key: "127.0.0.1") >= 29)
    #expect(limiter.spend(.verify, key: "127.0.0.1"))
  }
}

/// The Firebase surface reads the same clock.
struct FirebaseClockTests {
  @Test func anIDTokenExpiresWhenTheClockPassesItsExpiry() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("ada@example.com")
    let token = try #require(signedUp["idToken"] as? String)
    let lookup = #"{"idToken":"\#(token)"}"#
    #expect(await server.call("lookup", lookup).status == 200)
    let moved = await server.send(.post, "/authflow/v1/clock", body: #"{"advance":"2h"}"#)
    #expect(moved.status == 200)
    let expired = await server.call("lookup", lookup)
    #expect(expired.status == 400)
    #expect(expired.googleMessage == "TOKEN_EXPIRED")
  }
}

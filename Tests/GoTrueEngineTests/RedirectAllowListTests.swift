import Clocks
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// Where links may lead with an allow list: GoTrue's `IsRedirectURLValid`, behind the browser's
/// reading of the URL. GoTrue's own cases (`TestGetReferrer`) guide these, told our way.
struct RedirectAllowListTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  private func engine(site: String = "https://example.com", _ patterns: [String]) throws
    -> EmbeddedGoTrue
  {
    let compiled = try patterns.map { try RedirectPattern($0) }
    return try makeEngine(clock: clock) {
      $0.emailLinks = .server(externalURL: "http://127.0.0.1:9999")
      $0.siteURL = site
      $0.redirectAllowList = compiled
    }
  }

  @Test func theListAddsWhatItsPatternsMatchAndNothingElse() throws {
    let engine = try engine([
      "http://localhost:8000/*", "http://*.localhost:8000/*", "http://*:12345/*",
      "http://**:12345/*", "myapp://auth/callback", "volvoxsober://auth/**",
    ])
    let allowed = [
      "http://localhost:8000/path", "http://localhost:8000/path?param=1",
      "http://app.localhost:8000/x", "http://a.b.c:12345/x", "myapp://auth/callback",
      "volvoxsober://auth/verify", "volvoxsober://auth/forgot-password",
      // The fragment is not matched: only what comes before it.
      "myapp://auth/callback#section",
      // The site, whatever the list says; loopback addresses on any port.
      "https://example.com/dashboard", "http://127.0.0.1:12345/path",
      "http://[0:0:0:0:0:0:0:1]:12345/path",
    ]
    for url in allowed { #expect(engine.isRedirectAllowed(url), "\(url)") }
    let refused = [
      "http://localhost:3000", "http://localhost:8000", "http://localhost:8000/path/to/page",
      "myapp://auth/callback/more", "myapp://auth/other", "otherapp://auth/callback",
      // The site's host under another scheme or port.
      "http://example.com/dashboard", "https://example.com:8443/dashboard",
      // Hosts of digits, and IP addresses the list would match: only loopback ones.
      "http://123:12345/path", "http://123.123.123.123:12345/path",
      "http://[65e7:9410:d8b6:e227:58cd:e55b:8fc0:206d]:12345/path",
      // What a browser could read otherwise never reaches the list.
      "http://evil.example@localhost:8000/x", "http://123?.localhost:8000/path",
      "http://localhost:8000/\r\nx", "", "myapp:auth/callback",
    ]
    for url in refused { #expect(!engine.isRedirectAllowed(url), "\(url)") }
  }

  @Test func anIPAddressIsNeverTakenFromTheListEvenForAnAppsScheme() throws {
    let engine = try engine(["http://192.168.1.5:3000/**", "exp://10.0.0.2:8081/**", "exp://*/**"])
    #expect(!engine.isRedirectAllowed("http://192.168.1.5:3000/callback"))
    #expect(!engine.isRedirectAllowed("exp://10.0.0.2:8081/--/auth"))
    #expect(engine.isRedirectAllowed("exp://devbox/--/auth"))
  }

  @Test func anHTTPHostMustStartAndEndWithALetterOrDigit() throws {
    let engine = try engine(["https://**/"])
    #expect(engine.isRedirectAllowed("https://app.example/"))
    #expect(!engine.isRedirectAllowed("https://-app.example/"))
    #expect(!engine.isRedirectAllowed("https://app.example-/"))
    // An app's scheme is not held to it, as in GoTrue.
    let app = try self.engine(["myapp://**"])
    #expect(app.isRedirectAllowed("myapp://-callback/"))
  }

  @Test func withoutAListOnlyTheSiteAndLoopbackAreAllowed() throws {
    let engine = try engine([])
    #expect(engine.allowedRedirect("myapp://auth/callback") == "https://example.com")
    #expect(engine.allowedRedirect("https://example.com/x") == "https://example.com/x")
  }

  @Test func aConfirmationLinkLeadsBackIntoTheAppsScheme() async throws {
    let engine = try engine(site: "http://127.0.0.1:3000", ["volvoxsober://auth/verify"])
    _ = try await engine.signUp(
      email: "ada@example.com", password: "Analytical1", data: [:],
      redirectTo: "volvoxsober://auth/verify")
    let message = try #require(engine.outbox.newest(to: "ada@example.com"))
    #expect(message.link.hasSuffix("&type=signup&redirect_to=volvoxsober://auth/verify"))
    clock.advance(by: 61)
    _ = try await engine.resend(
      type: .signup, email: "ada@example.com", redirectTo: "volvoxsober://auth/other")
    let resent = try #require(engine.outbox.newest(to: "ada@example.com"))
    #expect(resent.link.hasSuffix("&type=signup&redirect_to=http://127.0.0.1:3000"))
  }
}

import AuthFlow
import GoTrue
import GoTrueEngine
import HTTPClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a phone's browser does with a link from an email that leads to the server: opens it,
/// and goes where the server redirects. A GoTrue server verifies the link itself and sends the
/// browser on to the `redirect_to` the app asked for (seed 004's `emailRedirectTo:
/// 'volvoxsober://auth/verify'`), with the session or the error in the fragment: the link the
/// app then receives.
protocol LinkBrowser: Sendable {
  /// Opens `link` and follows its redirect: where it led; `nil` when `link` is not one of this
  /// backend's server links.
  func open(_ link: String) async throws(ShellError) -> LinkLanding?
}

/// Where an opened link led.
struct LinkLanding: Equatable, Sendable {
  /// The URL the server redirected to, without its fragment (which carries the session).
  var target: String
  /// What the app receives there; `nil` when the target is no link into an app (a website:
  /// the server fell back to its site URL).
  var link: AuthDeepLink?

  /// Where a server redirected a browser: `location`, read as the app would receive it.
  init(location: String) {
    target = String(location.prefix { $0 != "#" })
    link = Self.leadsIntoApp(location) ? try? AuthDeepLink(parsing: location) : nil
  }

  /// Whether a link's `redirect_to` (or a redirect's target) leads into an app: a URL whose
  /// scheme is an app's own, not the web's.
  static func leadsIntoApp(_ url: String) -> Bool {
    guard let scheme = URLComponents(string: url)?.scheme?.lowercased(), !scheme.isEmpty else {
      return false
    }
    return !["http", "https"].contains(scheme)
  }

  /// Whether `link`, from an email, goes to a server (`http`, `https`) rather than into the app.
  static func goesToServer(_ link: String) -> Bool {
    guard let scheme = URLComponents(string: link)?.scheme?.lowercased() else { return false }
    return ["http", "https"].contains(scheme)
  }
}

/// The browser of a phone beside a Supabase project or `authflow serve`: a `GET` of the link,
/// its redirect read and never followed further.
struct RemoteLinkBrowser: LinkBrowser {
  let transport: any HTTPTransport
  let timeout: Double

  func open(_ link: String) async throws(ShellError) -> LinkLanding? {
    let response: HTTPClient.HTTPResponse
    do {
      response = try await transport.send(
        HTTPRequest(method: "GET", url: link, headers: [], body: nil), timeout: timeout)
    } catch {
      throw .linkNotOpened(error.description)
    }
    guard (300..<400).contains(response.status), let location = response.headers["location"]
    else {
      throw .linkNotOpened("it answered HTTP \(response.status) instead of sending the browser on")
    }
    return LinkLanding(location: location)
  }
}

/// The embedded engine's own server links (`<externalURL>/verify?token=…`), opened in process
/// as its `GET /verify` would answer them: verified, then sent on to the allowed `redirect_to`.
struct EngineLinkBrowser: LinkBrowser {
  let engine: EmbeddedGoTrue

  func open(_ link: String) async throws(ShellError) -> LinkLanding? {
    guard case .server(let base) = engine.configuration.emailLinks,
      link.hasPrefix(base + "/verify?"), let components = URLComponents(string: link)
    else { return nil }
    var query: [String: String] = [:]
    for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
    let target = engine.allowedRedirect(query["redirect_to"])
    guard let typeText = query["type"], let type = GoTrueOTPType(rawValue: typeText),
      let token = query["token"], !token.isEmpty
    else { return LinkLanding(location: target + "#error_code=otp_expired") }
    do {
      guard
        case .session(let session) = try await engine.verifyLink(
          type: type, tokenHash: token, inBrowser: true)
      else { return LinkLanding(location: target + "#error_code=otp_expired") }
      var landing = LinkLanding(location: target)
      if LinkLanding.leadsIntoApp(target) {
        landing.link = .signedIn(
          LinkTokens(
            accessToken: session.accessToken, refreshToken: session.refreshToken,
            expiresIn: session.expiresIn, expiresAt: session.expiresAt, type: typeText))
      }
      return landing
    } catch {
      // GoTrue's GET /verify says "invalid or has expired" of any link it cannot spend.
      return LinkLanding(location: target + "#error_code=otp_expired")
    }
  }
}

import Foundation
import Testing

@testable import AuthShell

/// `--app-scheme`: the app asks for its confirmation links back into it, and the shell opens
/// the email's link as a phone's browser would (the server verifies it and sends it on).
struct AppSchemeShellTests {
  private let signUp =
    "create; set email grace@example.com; set password Hopper1906; set confirm Hopper1906;"
    + " consent on; submit"

  @Test func aServerThatDoesNotAllowTheAppsRedirectSendsTheLinkToItsWebsite() throws {
    let result = try runAuthflow([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--app-scheme", "volvoxsober",
      "-c",
      signUp + "; mail open; expect signed-out;"
        + " back; signin; set email grace@example.com; set password Hopper1906; submit;"
        + " expect signed-in grace@example.com",
    ])
    #expect(
      result.error.contains(
        "the server sent the link on to http://127.0.0.1:3000, not into the app: its redirect "
          + "URLs do not allow the app's (authflow serve: --redirect-urls 'SCHEME://auth/*')"),
      "\(result.error)")
    // The server confirmed the address all the same: signing in works.
    #expect(result.output.contains("✓ Signed in as grace@example.com"), "\(result.output)")
    #expect(result.status == 1)
  }

  @Test func withoutAnAppSchemeTheLinkOpensTheAppAsATemplateLinkWould() throws {
    let result = try runAuthflow([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--redirect-urls",
      "volvoxsober://auth/*", "-c",
      signUp + "; mail; mail open; expect banner \"Your email is confirmed. Sign in to continue.\"",
    ])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("authflow://auth/verify?token="))
    #expect(!result.output.contains("The server sent the link on"))
  }

  @Test func theSchemeTravelsWithARecordingAndTheLinksNeverShowTheirTokens() throws {
    let options = try ShellOptions.parse(["--store", ":memory:", "--app-scheme", "VolvoxSober"])
    #expect(options.appScheme == "volvoxsober")
    #expect(options.recordedOptions.suffix(2) == ["--app-scheme", "volvoxsober"])
    let result = try runAuthflow([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--redirect-urls",
      "volvoxsober://auth/*", "--app-scheme", "volvoxsober", "--json", "-c", signUp + "; mail open",
    ])
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output.contains("The server sent the link on into the app: volvoxsober://auth/verify"))
    #expect(!result.output.contains("access_token"))
    #expect(!result.output.contains("refresh_token"))
  }

  /// `open` with the email's server link does what `mail open` does (a seeded run mails this
  /// very link); a link into the app typed by hand with GoTrue's error is the app's to show.
  @Test func openFollowsTheServersLinkAndTakesTheAppsLanding() throws {
    let link =
      "http://localhost:9999/verify?token=80c525770e3036874aa26028197a57fdef35576eb8d798e8f8dbfb5a"
      + "&type=signup&redirect_to=volvoxsober://auth/verify"
    let result = try runAuthflow([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--redirect-urls",
      "volvoxsober://auth/*", "--app-scheme", "volvoxsober", "-c",
      signUp + "; back; open \(link); expect signed-in grace@example.com; signout;"
        + " open volvoxsober://auth/verify#error=access_denied&error_code=otp_expired;"
        + " expect error \"This link is invalid or has expired. Open the link from your latest email.\"",
    ])
    #expect(result.status == 0, "\(result.output)\n\(result.error)")
    #expect(
      result.output.contains("The server sent the link on into the app: volvoxsober://auth/verify"))
  }
}

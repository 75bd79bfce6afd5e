import GoTrueEngine
import HTTPServer

/// What the settings view lists: what the server runs with, never a key or a secret (only
/// how long the keys are).
enum PageSettings {
  /// `GET /_/api/settings`.
  static func answer(_ page: ServePage) -> HTTPResponse {
    Answer.json(["settings": page.settings])
  }

  /// The settings of a server on `engine`, with the Firebase surface for `firebaseProject`
  /// when it is on, and its clock movable or not.
  static func of(
    engine: EmbeddedGoTrue, version: String, firebaseProject: String?, externalURL: String?,
    clockMoves: Bool
  ) -> [PageSetting] {
    let configuration = engine.configuration
    var settings = [
      PageSetting(name: "Version", value: version),
      PageSetting(
        name: "Surfaces",
        value: "GoTrue (Supabase Auth)"
          + (firebaseProject.map { ", Firebase Auth emulator (project \($0))" } ?? "")),
      PageSetting(name: "Store", value: engine.location.description),
      PageSetting(name: "Site URL", value: configuration.siteURL),
    ]
    if let externalURL { settings.append(PageSetting(name: "External URL", value: externalURL)) }
    let signing =
      configuration.jwtKeys.map { "\($0.signing.algorithm.rawValue) key" }
      ?? "HS256 secret of \(engine.secrets.jwt.count) bytes"
    settings += [
      PageSetting(name: "Tokens signed with", value: signing),
      PageSetting(
        name: "anon key", value: "\(engine.apiKey(role: "anon").utf8.count) characters"),
      PageSetting(
        name: "service_role key",
        value: "\(engine.apiKey(role: "service_role").utf8.count) characters"),
      PageSetting(name: "Access tokens last", value: "\(Int(configuration.accessTokenLifetime)) s"),
      PageSetting(name: "Sign-ups", value: configuration.disableSignup ? "off" : "on"),
      PageSetting(
        name: "Email confirmation", value: configuration.autoconfirm ? "automatic" : "by email"),
      PageSetting(
        name: "Anonymous sign-ins", value: configuration.anonymousSignIns ? "on" : "off"),
      PageSetting(name: "Minimum password length", value: "\(configuration.minimumPasswordLength)"),
      PageSetting(name: "Outbox keeps", value: "\(engine.outbox.capacity) messages"),
      PageSetting(
        name: "Clock", value: clockMoves ? "moves (POST /authflow/v1/clock)" : "real time only"),
    ]
    return settings
  }
}

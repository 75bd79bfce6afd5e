import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A Firebase project's `firebase.json` (`emulators.auth.host` and `port`) and `.firebaserc`
/// (`projects.default`), as `authflow serve` options: the Auth emulator's address and project.
enum FirebaseConfigFile {
  /// The Auth emulator's port when `firebase.json` names none (firebase-tools' default).
  static let defaultPort = 9_099

  /// The options of `firebase.json`'s `text`, and of `.firebaserc` (its path and text) if the
  /// project has one.
  static func read(_ text: String, file: String, firebaserc: (path: String, text: String)?)
    throws(ProjectConfigError) -> ProjectConfig
  {
    var config = ProjectConfig(kind: .firebase, file: file)
    guard case .object(let root) = try object(text, file: file) else {
      throw ProjectConfigError("\(file): is not a JSON object")
    }
    var port = String(defaultPort)
    var portOrigin = "\(file): the Auth emulator's default port"
    if case .object(let emulators)? = root["emulators"] {
      if case .bool(false)? = emulators["singleProjectMode"] {
        config.unsupported.append("emulators.singleProjectMode = false")
      }
      if case .object(let auth)? = emulators["auth"] {
        for key in auth.keys.sorted() where !["host", "port"].contains(key) {
          config.unsupported.append("emulators.auth.\(key)")
        }
        switch auth["port"] {
        case .number(let number)?: port = String(Int(exactly: number) ?? -1)
        case .string(let text)?: port = text
        case nil: break
        default: port = "?"
        }
        if auth["port"] != nil { portOrigin = "\(file): emulators.auth.port" }
        switch auth["host"] {
        // serve listens on both loopback addresses by default: what localhost means.
        case .string("localhost")?, nil: break
        case .string(let host)?:
          config.settings.append(
            ProjectSetting(
              option: ServeOptions.hostOption, value: host, origin: "\(file): emulators.auth.host"))
        default:
          throw ProjectConfigError(
            "\(file): emulators.auth.host takes an address such as 127.0.0.1")
        }
      }
    }
    config.settings.append(
      ProjectSetting(option: ServeOptions.portOption, value: port, origin: portOrigin))
    if let firebaserc {
      guard case .object(let rc) = try object(firebaserc.text, file: firebaserc.path) else {
        throw ProjectConfigError("\(firebaserc.path): is not a JSON object")
      }
      if case .object(let projects)? = rc["projects"],
        case .string(let project)? =
          projects["default"]
      {
        config.settings.append(
          ProjectSetting(
            option: ServeOptions.firebaseProjectOption, value: project,
            origin: "\(firebaserc.path): projects.default"))
      }
    }
    return config
  }

  private static func object(_ text: String, file: String) throws(ProjectConfigError) -> JSONValue {
    do {
      return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    } catch {
      throw ProjectConfigError("\(file): is not valid JSON")
    }
  }
}

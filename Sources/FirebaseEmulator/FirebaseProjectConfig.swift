import GoTrue
import IdentityToolkit

/// A project's configuration as the Auth emulator keeps it (`state.ts`, `AgentProjectState`):
/// `{signIn:{allowDuplicateEmails}, blockingFunctions, emailPrivacyConfig:
/// {enableImprovedEmailPrivacy}}`, both flags off at first, plus whatever a masked update
/// copied in (the emulator keeps any path it is sent, and answers it back).
package struct FirebaseProjectConfig: Equatable, Sendable {
  /// The stored object, keys in camel case.
  package private(set) var members: [String: JSONValue] = [
    "signIn": .object(["allowDuplicateEmails": .bool(false)]),
    "blockingFunctions": .object([:]),
    "emailPrivacyConfig": .object(["enableImprovedEmailPrivacy": .bool(false)]),
  ]

  /// The configuration a new project has.
  package init() {}

  /// Whether several accounts may share an email (`signIn.allowDuplicateEmails`).
  package var allowDuplicateEmails: Bool {
    Self.isTruthy(members["signIn"]?.objectValue?["allowDuplicateEmails"])
  }

  /// Whether answers hide which emails have accounts
  /// (`emailPrivacyConfig.enableImprovedEmailPrivacy`).
  package var improvedEmailPrivacy: Bool {
    get { Self.isTruthy(members["emailPrivacyConfig"]?.objectValue?["enableImprovedEmailPrivacy"]) }
    set { set("emailPrivacyConfig", "enableImprovedEmailPrivacy", to: .bool(newValue)) }
  }

  /// The configuration after `update`: with a `mask` (the comma-separated paths of
  /// `?updateMask=`) only those paths are copied; without one every field the emulator keeps is
  /// set from `update`, so a field left out goes back to its default.
  package func updated(with update: [String: JSONValue], mask: String?) -> Self {
    var config = self
    guard let mask, !mask.isEmpty else {
      let duplicates = update["signIn"]?.objectValue?["allowDuplicateEmails"]
      config.set("signIn", "allowDuplicateEmails", to: .bool(Self.isTruthy(duplicates)))
      config.members["blockingFunctions"] =
        Self.present(update["blockingFunctions"]) ?? .object([:])
      let privacy = update["emailPrivacyConfig"]?.objectValue?["enableImprovedEmailPrivacy"]
      config.set(
        "emailPrivacyConfig", "enableImprovedEmailPrivacy",
        to: Self.present(privacy) ?? .bool(false))
      return config
    }
    for path in mask.split(separator: ",", omittingEmptySubsequences: false) {
      let fields = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      Self.copy(fields[...], from: update, into: &config.members)
    }
    return config
  }

  /// Copies the path `fields` of `update` into `target` as the emulator's `applyMask` does: an
  /// object on the way that `target` lacks (or holds as `false`, `0`, `""`) is made empty even
  /// when nothing ends up copied into it; where `update` has no object on the way, the last
  /// field is copied from that level instead; a value that is absent or `null` is skipped.
  static func copy(
    _ fields: ArraySlice<String>, from update: [String: JSONValue],
    into target: inout [String: JSONValue]
  ) {
    guard let last = fields.last, let field = fields.first else { return }
    if fields.count > 1, case .object(let nested)? = update[field] {
      var inner: [String: JSONValue]
      switch target[field] {
      case .object(let object)?: inner = object
      case let value? where isTruthy(value):
        // NB: the emulator would assign into a primitive here and fail; nothing is copied.
        return
      default: inner = [:]
      }
      copy(fields.dropFirst(), from: nested, into: &inner)
      target[field] = .object(inner)
      return
    }
    guard let value = present(update[last]) else { return }
    target[last] = value
  }

  private mutating func set(_ section: String, _ name: String, to value: JSONValue) {
    var object = members[section]?.objectValue ?? [:]
    object[name] = value
    members[section] = .object(object)
  }

  /// `value` unless it is absent or `null` (JavaScript's `?? fallback`).
  static func present(_ value: JSONValue?) -> JSONValue? {
    guard let value, value != .null else { return nil }
    return value
  }

  /// JavaScript's truthiness, as `!!value` reads a flag.
  static func isTruthy(_ value: JSONValue?) -> Bool {
    switch value {
    case nil, .null?: false
    case .bool(let flag)?: flag
    case .number(let number)?: number != 0 && !number.isNaN
    case .string(let text)?: !text.isEmpty
    case .array?, .object?: true
    }
  }
}

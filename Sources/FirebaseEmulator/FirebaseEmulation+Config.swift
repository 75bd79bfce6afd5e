import GoTrue
import IdentityToolkit

/// The project's configuration: Identity Toolkit's v2 `config` and the emulator's own view of
/// it. It lives in this process only, as the emulator keeps it in memory.
extension FirebaseEmulation {
  /// The configuration as it stands.
  package var config: FirebaseProjectConfig { state.config.withLock { $0 } }

  /// Whether several accounts may share an email (`signIn.allowDuplicateEmails`). The store
  /// keeps one account per email whatever it says (as the emulator's email index does): the
  /// flag only changes what the emulator's operations without identity providers report.
  package var allowDuplicateEmails: Bool { config.allowDuplicateEmails }

  /// `PATCH …/v2/projects/{id}/config`: `update` copied in by `mask` (every kept field when
  /// there is none), after the emulator's checks of `blockingFunctions.triggers`. Answers the
  /// whole configuration.
  ///
  /// Blocking functions are kept only while they name none: this server calls no function, so
  /// a trigger is refused (`501`) rather than stored and never run.
  package func updateConfig(_ update: [String: JSONValue], mask: String?)
    throws(IdentityToolkitError) -> FirebaseProjectConfig
  {
    let triggers = update["blockingFunctions"]?.objectValue?["triggers"]?.objectValue ?? [:]
    for (event, trigger) in triggers.sorted(by: { $0.key < $1.key }) {
      guard ["beforeCreate", "beforeSignIn"].contains(event) else {
        throw .badRequest("INVALID_BLOCKING_FUNCTION", "((Event type is invalid.))")
      }
      guard let uri = trigger.objectValue?["functionUri"]?.stringValue,
        FirebaseRules.isAbsoluteURI(uri)
      else {
        throw .badRequest(
          "INVALID_BLOCKING_FUNCTION", "((Expected an absolute URI with valid scheme and host.))")
      }
    }
    return try state.config.withLock { config throws(IdentityToolkitError) in
      let updated = config.updated(with: update, mask: mask)
      let kept = updated.members["blockingFunctions"]?.objectValue?["triggers"]?.objectValue
      if let kept, !kept.isEmpty {
        throw IdentityToolkitError(
          status: 501,
          message: "Blocking functions are not implemented in authflow serve: it calls none.",
          statusName: "NOT_IMPLEMENTED")
      }
      guard updated.json != nil else {
        throw IdentityToolkitError(
          status: 501,
          message: "authflow serve keeps only whole numbers in a project's configuration.",
          statusName: "NOT_IMPLEMENTED")
      }
      config = updated
      return updated
    }
  }

  /// `PATCH /emulator/v1/projects/{id}/config`: ``updateConfig(_:mask:)`` with the mask made
  /// of the two flags `update` sets, so a body that sets neither resets everything.
  package func updateEmulatorConfig(_ update: [String: JSONValue])
    throws(IdentityToolkitError) -> FirebaseProjectConfig
  {
    var paths: [String] = []
    for (section, flag) in [
      ("signIn", "allowDuplicateEmails"), ("emailPrivacyConfig", "enableImprovedEmailPrivacy"),
    ] where FirebaseProjectConfig.present(update[section]?.objectValue?[flag]) != nil {
      paths.append("\(section).\(flag)")
    }
    return try updateConfig(update, mask: paths.joined(separator: ","))
  }
}

extension FirebaseProjectConfig {
  /// The configuration as `…/v2/projects/{id}/config` answers it: `signIn`,
  /// `blockingFunctions`, `emailPrivacyConfig`, then any other kept field by name; `nil` if it
  /// holds a number that is not a whole one (never kept).
  package var json: EmulatorJSON? {
    let first = ["signIn", "blockingFunctions", "emailPrivacyConfig"]
    let names =
      first.filter { members[$0] != nil } + members.keys.filter { !first.contains($0) }.sorted()
    var object: [EmulatorJSON.Member] = []
    for name in names {
      guard let value = members[name].flatMap(Self.json) else { return nil }
      object.append(EmulatorJSON.Member(name, value))
    }
    return .object(object)
  }

  /// The emulator's own view (`/emulator/v1/projects/{id}/config`): the two flags.
  package var emulatorJSON: EmulatorJSON {
    .members([
      "signIn": .members(["allowDuplicateEmails": .bool(allowDuplicateEmails)]),
      "emailPrivacyConfig": .members(["enableImprovedEmailPrivacy": .bool(improvedEmailPrivacy)]),
    ])
  }

  private static func json(_ value: JSONValue) -> EmulatorJSON? {
    switch value {
    case .null: return .null
    case .bool(let flag): return .bool(flag)
    case .string(let text): return .string(text)
    case .number(let number):
      guard number.rounded() == number, abs(number) < 9_007_199_254_740_992 else { return nil }
      return .int(Int64(number))
    case .array(let elements):
      var converted: [EmulatorJSON] = []
      for element in elements {
        guard let element = json(element) else { return nil }
        converted.append(element)
      }
      return .array(converted)
    case .object(let object):
      var members: [EmulatorJSON.Member] = []
      for name in object.keys.sorted() {
        guard let member = object[name].flatMap(json) else { return nil }
        members.append(EmulatorJSON.Member(name, member))
      }
      return .object(members)
    }
  }
}

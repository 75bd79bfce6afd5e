import FirebaseEmulator
import GoTrue
import HTTPServer
import IdentityToolkit

/// The project's configuration: Identity Toolkit's `…/v2/projects/{id}/config` (an admin's)
/// and the emulator's own `/emulator/v1/projects/{id}/config` (this machine's).
extension FirebaseRoutes {
  /// `GET …/v2/projects/{id}/config`: the whole configuration.
  @Sendable static func config(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    FirebaseAnswer.json(call.emulation.config.json ?? .object([]))
  }

  /// `PATCH …/v2/projects/{id}/config?updateMask=`: the masked paths of the body, or without a
  /// mask every field the emulator keeps; answers the whole configuration.
  @Sendable static func updateConfig(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let updated = try call.emulation.updateConfig(
      try configUpdate(call), mask: call.request.queryValue("updateMask"))
    return FirebaseAnswer.json(updated.json ?? .object([]))
  }

  /// `GET /emulator/v1/projects/{id}/config`: the two flags.
  @Sendable static func emulatorConfig(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    FirebaseAnswer.json(call.emulation.config.emulatorJSON)
  }

  /// `PATCH /emulator/v1/projects/{id}/config`: the flags sent; a body that sends neither
  /// resets the configuration.
  @Sendable static func updateEmulatorConfig(_ call: FirebaseCall)
    async throws(IdentityToolkitError) -> HTTPResponse
  {
    FirebaseAnswer.json(
      try call.emulation.updateEmulatorConfig(try configUpdate(call)).emulatorJSON)
  }

  /// The body of a configuration change, its keys in camel case at every depth (as the
  /// emulator reads REST bodies), the fields the emulator acts on checked against its schema.
  private static func configUpdate(_ call: FirebaseCall) throws(IdentityToolkitError)
    -> [String: JSONValue]
  {
    let update = camelCased(try call.body().members)
    let fields: [(path: [String], type: String)] = [
      (["signIn"], "object"), (["signIn", "allowDuplicateEmails"], "boolean"),
      (["emailPrivacyConfig"], "object"),
      (["emailPrivacyConfig", "enableImprovedEmailPrivacy"], "boolean"),
      (["blockingFunctions"], "object"), (["blockingFunctions", "triggers"], "object"),
      (["blockingFunctions", "forwardInboundCredentials"], "object"),
    ]
    for (path, type) in fields {
      var value: JSONValue? = .object(update)
      for name in path { value = value?.objectValue?[name] }
      switch (type, value) {
      case (_, nil), (_, .null?), ("object", .object?), ("boolean", .bool?): continue
      default:
        throw .invalidPayload("/\(path.joined(separator: "/")) should be \(type)")
      }
    }
    return update
  }

  /// `members` with the keys of every object inside in camel case too.
  private static func camelCased(_ members: [String: JSONValue]) -> [String: JSONValue] {
    func converted(_ value: JSONValue) -> JSONValue {
      switch value {
      case .object(let object): .object(camelCased(object))
      case .array(let elements): .array(elements.map(converted))
      default: value
      }
    }
    var result: [String: JSONValue] = [:]
    for (key, value) in members { result[FirebaseBody.camelCased(key)] = converted(value) }
    return result
  }
}

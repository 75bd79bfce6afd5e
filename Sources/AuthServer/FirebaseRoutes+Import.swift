import FirebaseEmulator
import HTTPServer
import IdentityToolkit

/// An admin's import of users: `accounts:batchCreate`, and its legacy v3 `uploadAccount`.
extension FirebaseRoutes {
  /// `POST /v1/projects/{project}/accounts:batchCreate`: the users imported, those refused
  /// answered by index (``FirebaseEmulation/importAccounts(_:)``).
  @Sendable static func batchCreate(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let request = try call.decode(IdentityToolkitRequest.BatchCreate.self)
    let refused = try await call.emulation.importAccounts(request)
    return call.json(
      IdentityToolkitUploadAccount(
        error: refused.map {
          IdentityToolkitUploadAccount.Failure(index: $0.index, message: $0.message)
        }))
  }

  /// `POST /www.googleapis.com/identitytoolkit/v3/relyingparty/uploadAccount`: as the
  /// emulator rewrites it, without a `targetProjectId` `INSUFFICIENT_PERMISSION` before the
  /// caller is even looked at; otherwise `batchCreate` of that project, for an admin.
  @Sendable static func uploadAccount(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    guard let target = try call.body().nonEmpty("targetProjectId") else {
      throw .badRequest(.insufficientPermission)
    }
    _ = try authorize(call.request, access: .owner, trust: call.trust, call.emulation)
    guard target == call.emulation.projectID else {
      throw mismatch(target, call.emulation.projectID)
    }
    return try await batchCreate(call)
  }
}

import GoTrue
import HTTPServer
import IdentityToolkit

/// The operations of the Auth emulator's API (firebase-tools' `apiSpec.ts`) that this server
/// does not serve, each answered `501 NOT_IMPLEMENTED` in the emulator's shape, so an SDK
/// raises the error it raises against Google's emulator rather than a 404's. Those the emulator
/// itself leaves out answer in its words (`… is not implemented in the Auth Emulator.`, its
/// stub for every operation of the spec without a handler); those it serves and this server
/// does not (tenants, passkeys) say so of authflow serve.
enum FirebaseUnserved {
  /// One operation: method, the path as served (host first), the spec's `operationId`, and
  /// whether Google's emulator serves it.
  struct Operation {
    let method: String
    let path: String
    let id: String
    let emulatorServes: Bool

    /// What a call of it is told.
    var message: String {
      emulatorServes
        ? "\(id) is not implemented in authflow serve."
        : "\(id) is not implemented in the Auth Emulator."
    }
  }

  static let operations: [Operation] = rows.map {
    Operation(method: $0.0, path: $0.1, id: $0.2, emulatorServes: $0.3)
  }

  // Made from `apiSpec.ts` (firebase-tools a786bda): every `paths` entry whose method and path
  // the operation table (``IdentityToolkitOperation``) does not serve.
  private static let rows: [(String, String, String, Bool)] = [
    (
      "POST", "/identitytoolkit.googleapis.com/v1/accounts:issueSamlResponse",
      "identitytoolkit.accounts.issueSamlResponse", false
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithGameCenter",
      "identitytoolkit.accounts.signInWithGameCenter", false
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v1/accounts:verifyIosClient",
      "identitytoolkit.accounts.verifyIosClient", false
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}/accounts",
      "identitytoolkit.projects.tenants.accounts", true
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}:createSessionCookie",
      "identitytoolkit.projects.tenants.createSessionCookie", true
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}/accounts:batchCreate",
      "identitytoolkit.projects.tenants.accounts.batchCreate", true
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}/accounts:batchDelete",
      "identitytoolkit.projects.tenants.accounts.batchDelete", true
    ),
    (
      "GET",
      "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}/accounts:batchGet",
      "identitytoolkit.projects.tenants.accounts.batchGet", true
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}/accounts:delete",
      "identitytoolkit.projects.tenants.accounts.delete", true
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}/accounts:lookup",
      "identitytoolkit.projects.tenants.accounts.lookup", true
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}/accounts:query",
      "identitytoolkit.projects.tenants.accounts.query", true
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}/accounts:sendOobCode",
      "identitytoolkit.projects.tenants.accounts.sendOobCode", true
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}/accounts:update",
      "identitytoolkit.projects.tenants.accounts.update", true
    ),
    (
      "GET", "/identitytoolkit.googleapis.com/v1/sessionCookiePublicKeys",
      "identitytoolkit.getSessionCookiePublicKeys", false
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/accounts:revokeToken",
      "identitytoolkit.accounts.revokeToken", false
    ),
    (
      "GET", "/identitytoolkit.googleapis.com/v2/defaultSupportedIdps",
      "identitytoolkit.defaultSupportedIdps.list", false
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/projects/{project}/defaultSupportedIdpConfigs",
      "identitytoolkit.projects.defaultSupportedIdpConfigs.create", false
    ),
    (
      "GET", "/identitytoolkit.googleapis.com/v2/projects/{project}/defaultSupportedIdpConfigs",
      "identitytoolkit.projects.defaultSupportedIdpConfigs.list", false
    ),
    (
      "DELETE",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/defaultSupportedIdpConfigs/{defaultSupportedIdpConfig}",
      "identitytoolkit.projects.defaultSupportedIdpConfigs.delete", false
    ),
    (
      "GET",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/defaultSupportedIdpConfigs/{defaultSupportedIdpConfig}",
      "identitytoolkit.projects.defaultSupportedIdpConfigs.get", false
    ),
    (
      "PATCH",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/defaultSupportedIdpConfigs/{defaultSupportedIdpConfig}",
      "identitytoolkit.projects.defaultSupportedIdpConfigs.patch", false
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/identityPlatform:initializeAuth",
      "identitytoolkit.projects.identityPlatform.initializeAuth", false
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/projects/{project}/inboundSamlConfigs",
      "identitytoolkit.projects.inboundSamlConfigs.create", false
    ),
    (
      "GET", "/identitytoolkit.googleapis.com/v2/projects/{project}/inboundSamlConfigs",
      "identitytoolkit.projects.inboundSamlConfigs.list", false
    ),
    (
      "DELETE",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/inboundSamlConfigs/{inboundSamlConfig}",
      "identitytoolkit.projects.inboundSamlConfigs.delete", false
    ),
    (
      "GET",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/inboundSamlConfigs/{inboundSamlConfig}",
      "identitytoolkit.projects.inboundSamlConfigs.get", false
    ),
    (
      "PATCH",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/inboundSamlConfigs/{inboundSamlConfig}",
      "identitytoolkit.projects.inboundSamlConfigs.patch", false
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/projects/{project}/oauthIdpConfigs",
      "identitytoolkit.projects.oauthIdpConfigs.create", false
    ),
    (
      "GET", "/identitytoolkit.googleapis.com/v2/projects/{project}/oauthIdpConfigs",
      "identitytoolkit.projects.oauthIdpConfigs.list", false
    ),
    (
      "DELETE",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/oauthIdpConfigs/{oauthIdpConfig}",
      "identitytoolkit.projects.oauthIdpConfigs.delete", false
    ),
    (
      "GET",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/oauthIdpConfigs/{oauthIdpConfig}",
      "identitytoolkit.projects.oauthIdpConfigs.get", false
    ),
    (
      "PATCH",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/oauthIdpConfigs/{oauthIdpConfig}",
      "identitytoolkit.projects.oauthIdpConfigs.patch", false
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants",
      "identitytoolkit.projects.tenants.create", true
    ),
    (
      "GET", "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants",
      "identitytoolkit.projects.tenants.list", true
    ),
    (
      "DELETE", "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}",
      "identitytoolkit.projects.tenants.delete", true
    ),
    (
      "GET", "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}",
      "identitytoolkit.projects.tenants.get", true
    ),
    (
      "PATCH", "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}",
      "identitytoolkit.projects.tenants.patch", true
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}:getIamPolicy",
      "identitytoolkit.projects.tenants.getIamPolicy", false
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}:setIamPolicy",
      "identitytoolkit.projects.tenants.setIamPolicy", false
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}:testIamPermissions",
      "identitytoolkit.projects.tenants.testIamPermissions", false
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/defaultSupportedIdpConfigs",
      "identitytoolkit.projects.tenants.defaultSupportedIdpConfigs.create", false
    ),
    (
      "GET",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/defaultSupportedIdpConfigs",
      "identitytoolkit.projects.tenants.defaultSupportedIdpConfigs.list", false
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/inboundSamlConfigs",
      "identitytoolkit.projects.tenants.inboundSamlConfigs.create", false
    ),
    (
      "GET",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/inboundSamlConfigs",
      "identitytoolkit.projects.tenants.inboundSamlConfigs.list", false
    ),
    (
      "DELETE",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/inboundSamlConfigs/{inboundSamlConfig}",
      "identitytoolkit.projects.tenants.inboundSamlConfigs.delete", false
    ),
    (
      "GET",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/inboundSamlConfigs/{inboundSamlConfig}",
      "identitytoolkit.projects.tenants.inboundSamlConfigs.get", false
    ),
    (
      "PATCH",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/inboundSamlConfigs/{inboundSamlConfig}",
      "identitytoolkit.projects.tenants.inboundSamlConfigs.patch", false
    ),
    (
      "POST",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/oauthIdpConfigs",
      "identitytoolkit.projects.tenants.oauthIdpConfigs.create", false
    ),
    (
      "GET",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/oauthIdpConfigs",
      "identitytoolkit.projects.tenants.oauthIdpConfigs.list", false
    ),
    (
      "DELETE",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/oauthIdpConfigs/{oauthIdpConfig}",
      "identitytoolkit.projects.tenants.oauthIdpConfigs.delete", false
    ),
    (
      "GET",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/oauthIdpConfigs/{oauthIdpConfig}",
      "identitytoolkit.projects.tenants.oauthIdpConfigs.get", false
    ),
    (
      "PATCH",
      "/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}/oauthIdpConfigs/{oauthIdpConfig}",
      "identitytoolkit.projects.tenants.oauthIdpConfigs.patch", false
    ),
    (
      "GET", "/identitytoolkit.googleapis.com/v2/passwordPolicy",
      "identitytoolkit.getPasswordPolicy", false
    ),
    (
      "GET", "/identitytoolkit.googleapis.com/v2/recaptchaConfig",
      "identitytoolkit.getRecaptchaConfig", false
    ),
    (
      "DELETE", "/emulator/v1/projects/{project}/tenants/{tenant}/accounts",
      "emulator.projects.accounts.delete", true
    ),
    (
      "GET", "/emulator/v1/projects/{project}/tenants/{tenant}/oobCodes",
      "emulator.projects.oobCodes.list", true
    ),
    (
      "GET", "/emulator/v1/projects/{project}/tenants/{tenant}/verificationCodes",
      "emulator.projects.verificationCodes.list", true
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/accounts/passkeyEnrollment:start",
      "identitytoolkit.accounts.passkeyEnrollment.start", true
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/accounts/passkeyEnrollment:finalize",
      "identitytoolkit.accounts.passkeyEnrollment.finalize", true
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/accounts/passkeySignIn:start",
      "identitytoolkit.accounts.passkeySignIn.start", true
    ),
    (
      "POST", "/identitytoolkit.googleapis.com/v2/accounts/passkeySignIn:finalize",
      "identitytoolkit.accounts.passkeySignIn.finalize", true
    ),
  ]

  /// Their routes, each method of a path answering its 501.
  static var routes: [Route] {
    operations.compactMap { operation in
      guard let method = HTTPMethod(rawValue: operation.method) else { return nil }
      let message = operation.message
      return Route(
        operation.path,
        [
          method: { _ throws(GoTrueFailure) in
            FirebaseAnswer.error(
              IdentityToolkitError(status: 501, message: message, statusName: "NOT_IMPLEMENTED"))
          }
        ])
    }
  }
}

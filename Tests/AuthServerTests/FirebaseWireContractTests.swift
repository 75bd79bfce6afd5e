import AuthFlowFirebase
import Foundation
import HTTPClient
import HTTPServer
import IdentityToolkit
import Synchronization
import Testing

@testable import AuthServer

/// The Firebase client and the emulator share one wire contract (``IdentityToolkitOperation``
/// and ``IdentityToolkitRequest``): every operation the client calls is walked through the
/// client and the server, and every body it sends reads back on the server as the value it
/// encoded.
struct FirebaseWireContractTests {
  @Test func everyOperationTheClientCallsIsServedAsTheContractSays() async throws {
    let server = try FirebaseTestServer()
    let transport = InProcessTransport(responder: server.responder, base: "http://127.0.0.1:9099")
    let project = try FirebaseProject(
      apiKey: "fake-api-key", projectID: "demo-app", emulatorHost: "127.0.0.1:9099")
    let client = FirebaseClient(project: project, transport: transport)

    let created = try await client.signUp(email: "ada@example.com", password: "Secret123")
    let idToken = created.idToken
    _ = try await client.updateProfile(idToken: idToken, displayName: "Ada")
    _ = try await client.sendEmailVerification(idToken: idToken)
    let verify = try #require(try await server.oobCodes().last?["oobCode"])
    _ = try await client.applyActionCode(verify)
    let signedIn = try await client.signIn(email: "ada@example.com", password: "Secret123")
    #expect(try await client.lookup(idToken: signedIn.idToken).users?.first?.emailVerified == true)
    _ = try await client.sendPasswordReset(email: "ada@example.com")
    let reset = try #require(try await server.oobCodes().last?["oobCode"])
    _ = try await client.checkActionCode(reset)
    _ = try await client.resetPassword(oobCode: reset, newPassword: "Another123")
    let again = try await client.signIn(email: "ada@example.com", password: "Another123")
    let refreshed = try await client.refresh(refreshToken: again.refreshToken)
    let changed = try await client.updatePassword(idToken: refreshed.idToken, password: "Third1234")
    try await client.deleteAccount(idToken: try #require(changed.idToken))

    // Every operation the client called is one of the table's, and each JSON body reads back
    // on the server as the value the client encoded.
    let sent = transport.sent.withLock { $0 }
    var called: Set<IdentityToolkitOperation> = []
    for request in sent {
      let path = transport.path(of: request)
      let operation = try #require(
        IdentityToolkitOperation.all.first {
          $0.emulatorPath == path && $0.method == request.method
        }, "\(path) is not an operation of the table")
      called.insert(operation)
      let bytes = Array(try #require(request.body))
      let body =
        operation == .token
        ? FirebaseBody(form: PercentDecoding.query(String(decoding: bytes, as: UTF8.self)))
        : try FirebaseBody(bytes)
      try expectReadsBack(operation, body)
    }
    #expect(
      called == [
        .signUp, .update, .sendOobCode, .signInWithPassword, .lookup, .resetPassword, .token,
        .delete,
      ])
  }

  /// `body` decodes on the server as the request type of `operation`
  /// (``IdentityToolkitOperation/request``), and encodes again to the same members.
  private func expectReadsBack(_ operation: IdentityToolkitOperation, _ body: FirebaseBody) throws {
    func check<T: IdentityToolkitBody>(_ type: T.Type) throws {
      let value = try FirebaseFieldDecoder.decode(type, from: body)
      let again = try FirebaseBody(try #require(EmulatorJSONEncoder.encode(value)).compactBytes)
      #expect(try FirebaseFieldDecoder.decode(type, from: again) == value, "\(operation)")
    }
    guard let type = operation.request else {
      Issue.record("\(operation) has no request type")
      return
    }
    try check(type)
  }

  /// Every request type, every member set, written as the client writes it and read as the
  /// server reads it.
  @Test func everyRequestTypeReadsBackAsItWasWritten() throws {
    func roundTrip<T: Codable & Equatable>(_ value: T) throws {
      let written = try #require(EmulatorJSONEncoder.encode(value))
      let read = try FirebaseFieldDecoder.decode(T.self, from: FirebaseBody(written.compactBytes))
      #expect(read == value, "\(T.self)")
    }
    try roundTrip(
      IdentityToolkitRequest.SignUp(
        localId: "u1", idToken: "t", email: "a@example.com", password: "p", displayName: "A",
        photoUrl: "https://example.com/a.png", emailVerified: true, disabled: false,
        phoneNumber: "+15555550100", returnSecureToken: true))
    try roundTrip(
      IdentityToolkitRequest.SignInWithPassword(
        email: "a@example.com", password: "p", returnSecureToken: true))
    try roundTrip(
      IdentityToolkitRequest.SendOobCode(
        requestType: "VERIFY_AND_CHANGE_EMAIL", email: "a@example.com", newEmail: "b@example.com",
        idToken: "t", continueUrl: "https://example.com/", returnOobLink: true))
    try roundTrip(IdentityToolkitRequest.ResetPassword(oobCode: "c", newPassword: "p"))
    try roundTrip(
      IdentityToolkitRequest.Update(
        idToken: "t", localId: "u1", oobCode: "c", email: "a@example.com", password: "p",
        displayName: "A", photoUrl: "https://example.com/a.png", validSince: 1_735_689_600,
        disableUser: true, deleteProvider: ["password"], emailVerified: true,
        customAttributes: #"{"plan":"pro"}"#, createdAt: 1_735_689_600_000,
        lastLoginAt: 1_735_689_600_001, phoneNumber: "+15555550100", returnSecureToken: true))
    try roundTrip(
      IdentityToolkitRequest.Lookup(
        idToken: "t", localId: ["u1", "u2"], email: ["a@example.com"], phoneNumber: []))
    try roundTrip(IdentityToolkitRequest.Delete(idToken: "t", localId: "u1"))
    try roundTrip(
      IdentityToolkitRequest.SignInWithEmailLink(email: "a@example.com", oobCode: "c", idToken: "t")
    )
    try roundTrip(
      IdentityToolkitRequest.SignInWithCustomToken(token: "jwt", returnSecureToken: true))
    try roundTrip(
      IdentityToolkitRequest.CreateAuthUri(
        identifier: "a@example.com", continueUri: "https://example.com/", sessionId: "s",
        providerId: "password"))
    try roundTrip(IdentityToolkitRequest.BatchDelete(localIds: ["u1"], force: true))
  }

  @Test func theServerReadsABodyWithTheEmulatorsLeniency() throws {
    let body = try FirebaseBody(
      Array(
        #"{"id_token":"t","valid_since":"1735689600","display_name":42,"delete_provider":"password"}"#
          .utf8))
    let update = try FirebaseFieldDecoder.decode(IdentityToolkitRequest.Update.self, from: body)
    #expect(
      update
        == IdentityToolkitRequest.Update(
          idToken: "t", displayName: "42", validSince: 1_735_689_600, deleteProvider: ["password"]))
    let wrong = try FirebaseBody(Array(#"{"email":true}"#.utf8))
    #expect(throws: IdentityToolkitError.invalidPayload("/email should be string")) {
      try FirebaseFieldDecoder.decode(IdentityToolkitRequest.SignUp.self, from: wrong)
    }
  }
}

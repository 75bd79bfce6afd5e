import HTTPClient
import IdentityToolkit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An email the Auth emulator would have sent: one code of its list. The same fields as
/// SupabaseREST's `MailboxMessage` (this module does not depend on that one), less the time
/// sent, which the emulator does not keep.
public struct EmulatorMailboxMessage: Equatable, Hashable, Sendable {
  /// Its place in the emulator's list, from 1, oldest first (the emulator gives codes no id,
  /// and the code itself is a secret). Spending a code removes it, so places shift.
  public var id: String
  /// The address it went to.
  public var recipient: String
  /// A subject line for its kind: "Verify your email", "Reset your password", …
  public var subject: String
  /// Always `nil`: Firebase's emails carry a link, never a 6-digit code.
  public var code: String?
  /// The link that carries the code (`http://HOST:PORT/emulator/action?mode=…&oobCode=…`).
  public var link: String?
  /// What the link does, in GoTrue's words as the shell asks for them: `signup` (verify the
  /// email), `recovery` (reset the password), `magiclink`, `email_change`, else the
  /// emulator's `requestType` lowercased.
  public var type: String?
  /// The emulator's `requestType`: `VERIFY_EMAIL`, `PASSWORD_RESET`, …
  public var requestType: String

  /// The message for one code of the emulator's list, at place `position` (from 1).
  public init(_ code: EmulatorOobCode, position: Int) {
    id = String(position)
    recipient = code.email
    requestType = code.requestType
    self.code = nil
    link = code.oobLink
    (type, subject) =
      switch code.requestType {
      case "VERIFY_EMAIL": ("signup", "Verify your email")
      case "PASSWORD_RESET": ("recovery", "Reset your password")
      case "EMAIL_SIGNIN": ("magiclink", "Sign in")
      case "VERIFY_AND_CHANGE_EMAIL": ("email_change", "Verify your new email")
      case "RECOVER_EMAIL": ("recover_email", "Your sign-in email was changed")
      case let other: (other.lowercased(), "Firebase email (\(other))")
      }
  }
}

/// Why the emulator's list of codes could not be read: one line for the user.
public struct EmulatorMailboxFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// One line for the user.
  public var description: String

  /// A failure said in `description`.
  public init(description: String) {
    self.description = description
  }
}

/// The Auth emulator's list of the codes it would have emailed
/// (`GET /emulator/v1/projects/{id}/oobCodes`), as a mailbox for the shell's `mail` commands.
public struct FirebaseEmulatorMailbox: Sendable {
  /// The project, which has an emulator.
  public let project: FirebaseProject
  private let transport: any HTTPTransport

  /// The mailbox of `project`'s emulator; a project on Google's servers has none (Google
  /// sends real emails).
  public init(project: FirebaseProject, transport: any HTTPTransport)
    throws(EmulatorMailboxFailure)
  {
    guard project.emulatorHost != nil else {
      throw EmulatorMailboxFailure(
        description:
          "the mail commands need the Firebase Auth emulator (--firebase-emulator HOST:PORT); "
          + "Google sends real emails")
    }
    self.project = project
    self.transport = transport
  }

  /// The URL of the list.
  public var url: String {
    project.url(of: .oobCodes)
  }

  /// Every code the emulator holds, oldest first.
  public func messages() async throws(EmulatorMailboxFailure) -> [EmulatorMailboxMessage] {
    try await codes().enumerated().map { EmulatorMailboxMessage($1, position: $0 + 1) }
  }

  /// The newest message to `recipient` (any case) of `type` (`signup`, `recovery`; any when
  /// `nil`).
  public func newest(to recipient: String, type: String? = nil)
    async throws(EmulatorMailboxFailure) -> EmulatorMailboxMessage?
  {
    try await messages().last { message in
      message.recipient.lowercased() == recipient.lowercased()
        && (type == nil || message.type == type)
    }
  }

  private func codes() async throws(EmulatorMailboxFailure) -> [EmulatorOobCode] {
    let request = HTTPRequest(
      method: "GET", url: url, headers: [HTTPRequest.Header("Accept", "application/json")],
      body: nil)
    let response: HTTPResponse
    do {
      response = try await transport.send(request, timeout: project.timeout)
    } catch {
      throw EmulatorMailboxFailure(
        description: "the emulator's codes at \(url) could not be read: \(error.description)")
    }
    guard response.status == 200 else {
      throw EmulatorMailboxFailure(
        description:
          "the emulator answered \(response.status) for \(url); is it a Firebase Auth emulator?")
    }
    do {
      return try JSONDecoder().decode(EmulatorOobCodes.self, from: response.body).oobCodes
    } catch {
      throw EmulatorMailboxFailure(
        description: "the emulator answered \(url) with something that is not its list of codes")
    }
  }
}

/// A request type of the wire contract (``IdentityToolkitRequest``): the body (or, for a `GET`,
/// the query) of the operations whose ``IdentityToolkitOperation/request`` it is. The client
/// encodes one (``EmulatorJSONEncoder``) and the server decodes the same type with the
/// emulator's leniency, so a field is declared once.
public protocol IdentityToolkitBody: Codable, Equatable, Sendable {}

extension IdentityToolkitRequest.SignUp: IdentityToolkitBody {}
extension IdentityToolkitRequest.SignInWithPassword: IdentityToolkitBody {}
extension IdentityToolkitRequest.SendOobCode: IdentityToolkitBody {}
extension IdentityToolkitRequest.ResetPassword: IdentityToolkitBody {}
extension IdentityToolkitRequest.Update: IdentityToolkitBody {}
extension IdentityToolkitRequest.Lookup: IdentityToolkitBody {}
extension IdentityToolkitRequest.Delete: IdentityToolkitBody {}
extension IdentityToolkitRequest.SignInWithEmailLink: IdentityToolkitBody {}
extension IdentityToolkitRequest.SignInWithCustomToken: IdentityToolkitBody {}
extension IdentityToolkitRequest.CreateAuthUri: IdentityToolkitBody {}
extension IdentityToolkitRequest.BatchDelete: IdentityToolkitBody {}

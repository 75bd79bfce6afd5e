/// The program's version, said once: in `--version`, `/health`, and the client identity the
/// backends' HTTP clients send.
public enum ProgramVersion {
  /// The version number.
  public static let number = "0.1.0"
  /// `authflow/<version>`, what the clients send as `X-Client-Info` and `X-Client-Version`.
  public static let clientIdentity = "authflow/\(number)"
}

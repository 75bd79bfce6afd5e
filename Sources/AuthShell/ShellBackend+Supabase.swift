import AuthFlowHTTP
import AuthFlowSupabase
import GoTrue

extension ShellBackend {
  /// The Supabase project `project`, reached through `transport`, with its session kept under
  /// `stateDirectory` (one sealed file per project URL).
  public static func supabase(
    project: SupabaseProject, transport: any HTTPTransport, stateDirectory: String
  ) -> ShellBackend {
    let sessions = SealedSessionFile(directory: stateDirectory, identity: "supabase:" + project.url)
    let client = SupabaseGoTrueClient(project: project, transport: transport)
    return ShellBackend(
      name: "supabase", location: project.url, label: "supabase:\(project.name)",
      service: GoTrueAuthService(api: client, sessions: sessions),
      restoresSession: sessions.hasSavedSession())
  }
}

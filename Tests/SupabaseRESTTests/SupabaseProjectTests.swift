import AuthFlowGoTrue
import SupabaseREST
import Testing

/// Checking the project URL and key before anything is sent.
struct SupabaseProjectTests {
  static let key = "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9.signature"

  @Test(arguments: [
    ("https://abcd.supabase.co", "https://abcd.supabase.co", "abcd"),
    ("https://abcd.supabase.co/", "https://abcd.supabase.co", "abcd"),
    (" https://abcd.supabase.co/auth/v1 ", "https://abcd.supabase.co", "abcd"),
    ("http://127.0.0.1:54321", "http://127.0.0.1:54321", "127.0.0.1"),
    ("http://localhost:54321", "http://localhost:54321", "localhost"),
    ("https://auth.example.com", "https://auth.example.com", "auth.example.com"),
  ])
  func acceptsProjectURLs(input: String, url: String, name: String) throws {
    let project = try SupabaseProject(url: input, key: Self.key)
    #expect(project.url == url)
    #expect(project.authURL == url + "/auth/v1")
    #expect(project.name == name)
    #expect(project.timeout == 10)
  }

  @Test(arguments: [
    ("abcd.supabase.co", SupabaseProjectError.badURL("it is not a URL")),
    ("http://abcd.supabase.co", .badURL("use https (http only for a local Supabase)")),
    ("ftp://abcd.supabase.co", .badURL("use https (http only for a local Supabase)")),
    (
      "https://abcd.supabase.co/rest/v1",
      .badURL("it should be the project URL alone, with no path or query")
    ),
    (
      "https://abcd.supabase.co?x=1",
      .badURL("it should be the project URL alone, with no path or query")
    ),
    ("", .badURL("it is not a URL")),
  ])
  func refusesOtherURLs(input: String, error: SupabaseProjectError) {
    #expect(throws: error) { try SupabaseProject(url: input, key: Self.key) }
    #expect(error.description.contains("expected https://<project-ref>.supabase.co"))
  }

  @Test func checksTheKeyWithoutRepeatingIt() {
    #expect(throws: SupabaseProjectError.missingKey) {
      try SupabaseProject(url: "https://a.supabase.co", key: "  ")
    }
    for bad in ["secret-value", "eyJ.only-two", "eyJa.b.c d", "service_role_secret"] {
      #expect(throws: SupabaseProjectError.badKey) {
        try SupabaseProject(url: "https://a.supabase.co", key: bad)
      }
      #expect(!SupabaseProjectError.badKey.description.contains(bad))
    }
    #expect(throws: Never.self) {
      try SupabaseProject(url: "https://a.supabase.co", key: "sb_publishable_abc123")
    }
    #expect(throws: SupabaseProjectError.badTimeout) {
      try SupabaseProject(url: "https://a.supabase.co", key: Self.key, timeout: 0)
    }
  }
}

import AuthFlowFirebase
import IdentityToolkit
import Testing

/// Checking the key, the project id and the emulator host before anything is sent.
struct FirebaseProjectTests {
  @Test func googlesServers() throws {
    let project = try FirebaseProject(apiKey: " AIzaSyA-b_c.1 ", projectID: "clarity-pulse")
    #expect(project.apiKey == "AIzaSyA-b_c.1")
    #expect(
      project.url(of: .signUp) == "https://identitytoolkit.googleapis.com/v1/accounts:signUp")
    #expect(project.url(of: .token) == "https://securetoken.googleapis.com/v1/token")
    #expect(
      project.url(of: .adminLookup)
        == "https://identitytoolkit.googleapis.com/v1/projects/clarity-pulse/accounts:lookup")
    #expect(project.emulatorURL == nil)
    #expect(project.name == "clarity-pulse")
    #expect(project.sessionIdentity == "firebase:clarity-pulse")
    #expect(project.timeout == 10)
  }

  @Test(arguments: [
    ("127.0.0.1:9099", "127.0.0.1:9099"), ("localhost:9099", "localhost:9099"),
    (" [::1]:9099 ", "[::1]:9099"), ("auth-emulator.local:1", "auth-emulator.local:1"),
    ("[fe80::1:2]:65535", "[fe80::1:2]:65535"),
  ])
  func anEmulator(host: String, kept: String) throws {
    let project = try FirebaseProject(
      apiKey: "fake-api-key", projectID: "demo-project", emulatorHost: host)
    #expect(project.emulatorHost == kept)
    #expect(
      project.url(of: .signUp)
        == "http://\(kept)/identitytoolkit.googleapis.com/v1/accounts:signUp")
    #expect(project.url(of: .token) == "http://\(kept)/securetoken.googleapis.com/v1/token")
    #expect(
      project.url(of: .oobCodes) == "http://\(kept)/emulator/v1/projects/demo-project/oobCodes")
    #expect(project.name == "demo-project@\(kept)")
    #expect(project.sessionIdentity == "firebase:demo-project@\(kept)")
  }

  @Test func anEmptyEmulatorHostMeansGoogle() throws {
    let project = try FirebaseProject(apiKey: "k", projectID: "demo-project", emulatorHost: " ")
    #expect(project.emulatorHost == nil)
  }

  @Test(arguments: [
    ("http://127.0.0.1:9099", "leave out the scheme"),
    ("127.0.0.1", "it has no port"),
    ("127.0.0.1:", "the port is not a number from 1 to 65535"),
    ("127.0.0.1:0", "the port is not a number from 1 to 65535"),
    ("127.0.0.1:70000", "the port is not a number from 1 to 65535"),
    ("127.0.0.1:+90", "the port is not a number from 1 to 65535"),
    ("::1:9099", "put an IPv6 address in brackets"),
    ("[]:9099", "the address in brackets is not IPv6"),
    ("[zz]:9099", "the address in brackets is not IPv6"),
    (":9099", "the host is not a name"),
    ("emu lator:9099", "the host is not a name"),
    ("127.0.0.1:9099/path", "the port is not a number from 1 to 65535"),
  ])
  func refusesOtherEmulatorHosts(host: String, reason: String) {
    let error = FirebaseProjectError.badEmulatorHost(host, reason)
    #expect(throws: error) {
      try FirebaseProject(apiKey: "k", projectID: "demo-project", emulatorHost: host)
    }
    #expect(
      error.description
        == "--firebase-emulator '\(host)' is not HOST:PORT (\(reason)); expected such as "
        + "127.0.0.1:9099 or [::1]:9099, as FIREBASE_AUTH_EMULATOR_HOST")
  }

  @Test(arguments: ["demo-project", "abcd", "a123-b456", String(repeating: "a", count: 40)])
  func acceptsProjectIDs(id: String) {
    #expect(throws: Never.self) { try FirebaseProject(apiKey: "k", projectID: id) }
  }

  @Test(arguments: [
    "abc", "Demo-Project", "1project", "project-", "demo_project", "demo project",
    String(repeating: "a", count: 41),
  ])
  func refusesOtherProjectIDs(id: String) {
    #expect(throws: FirebaseProjectError.badProject(id)) {
      try FirebaseProject(apiKey: "k", projectID: id)
    }
  }

  @Test func everyMessageIsOneLineNamingItsOption() {
    let cases: [(FirebaseProjectError, String)] = [
      (
        .missingKey,
        "the Firebase API key is missing; set FIREBASE_API_KEY or pass --firebase-key"
      ),
      (
        .badKey,
        "--firebase-key does not look like a Web API key (letters, digits and -._~, such as AIza…)"
      ),
      (
        .missingProject,
        "the Firebase project id is missing; set FIREBASE_PROJECT_ID or pass --firebase-project"
      ),
      (
        .badProject("Bad\nId"),
        "--firebase-project 'Bad?Id' is not a project id: 4 to 40 lowercase letters, digits and "
          + "hyphens, starting with a letter"
      ),
      (.badTimeout, "--timeout takes seconds from 1 to 300"),
    ]
    for (error, message) in cases {
      #expect(error.description == message)
      #expect(!error.description.contains("\n"))
    }
  }

  @Test func checksTheKeyWithoutRepeatingIt() {
    #expect(throws: FirebaseProjectError.missingKey) {
      try FirebaseProject(apiKey: "  ", projectID: "demo-project")
    }
    for bad in [
      "secret key", "key?x=1", "key&evil", "k\u{e9}y", String(repeating: "k", count: 201),
    ] {
      #expect(throws: FirebaseProjectError.badKey) {
        try FirebaseProject(apiKey: bad, projectID: "demo-project")
      }
    }
    #expect(throws: FirebaseProjectError.missingProject) {
      try FirebaseProject(apiKey: "k", projectID: "")
    }
    #expect(throws: FirebaseProjectError.badTimeout) {
      try FirebaseProject(apiKey: "k", projectID: "demo-project", timeout: 301)
    }
  }
}

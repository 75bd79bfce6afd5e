// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "authflow",
  // The floor of `@Observable`, so `AuthFlow` builds in an iOS or macOS app; every other
  // product and target is for Linux (Debian's C libraries, processes, the server).
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [
    .library(name: "AuthFlow", targets: ["AuthFlow"]),
    .library(name: "AuthFlowGoTrue", targets: ["AuthFlowGoTrue"]),
    .library(name: "GoTrueEngine", targets: ["GoTrueEngine"]),
    .library(name: "SupabaseREST", targets: ["SupabaseREST"]),
    .executable(name: "authflow", targets: ["authflow"]),
  ],
  targets: [
    // What the test targets share: a throw-away engine, a scripted HTTP transport, request
    // snapshots, failure helpers.
    .target(
      name: "TestSupport",
      dependencies: [
        "AccountStore", "AuthFlow", "HTTPClient", "GoTrue", "GoTrueEngine", "AuthCrypto",
        "Clocks", "PostgresTestSupport",
      ],
      path: "Tests/TestSupport"),

    // The platform-neutral flow: states, view model, validation, messages, the service protocol.
    .target(name: "AuthFlow"),
    .testTarget(name: "AuthFlowTests", dependencies: ["AuthFlow"]),

    // Time as an injected value: the wall clock, and one that tests and `clock advance` move.
    .target(name: "Clocks"),
    .testTarget(name: "ClocksTests", dependencies: ["Clocks"]),

    // Swift faces of the C crypto libraries: bcrypt (libcrypt), SHA-256, HMAC, AES-GCM
    // (libcrypto), and injected randomness.
    // Keccak-256 over nettle's permutation, and secp256k1's public-key recovery (libsecp256k1),
    // for Sign in with Ethereum.
    .target(name: "AuthCrypto", dependencies: ["CCrypt", "COpenSSL", "CNettle", "CSecp256k1"]),
    .testTarget(name: "AuthCryptoTests", dependencies: ["AuthCrypto"]),

    // QR codes (libqrcodegen) and their SVG drawing, for the TOTP enrolment GoTrue answers.
    .target(name: "QRCode", dependencies: ["CQRCodeGen"]),
    .testTarget(name: "QRCodeTests", dependencies: ["QRCode"]),

    // Files only their owner may read, and the XDG folders they live in.
    .target(name: "PrivateFiles"),
    .testTarget(name: "PrivateFilesTests", dependencies: ["PrivateFiles"]),

    // GoTrue's wire contract, shared by clients and servers: codes, shapes, error bodies and
    // the API as typed calls. It knows nothing of the app.
    .target(name: "GoTrue"),
    .testTarget(name: "GoTrueTests", dependencies: ["GoTrue"]),

    // Where a backend keeps the signed-in session between runs: in memory, or sealed in a file
    // only its owner may read.
    .target(name: "SavedSessions", dependencies: ["AuthFlow", "AuthCrypto", "PrivateFiles"]),
    .testTarget(
      name: "SavedSessionsTests",
      dependencies: ["SavedSessions", "AuthFlow", "AuthCrypto", "PrivateFiles", "Clocks", "GoTrue"]),

    // The app's AuthService over any GoTrue API: the one mapping from wire codes to AuthError.
    .target(
      name: "AuthFlowGoTrue",
      dependencies: ["AuthFlow", "GoTrue", "SavedSessions", "Clocks"]),
    .testTarget(
      name: "AuthFlowGoTrueTests",
      dependencies: [
        "TestSupport",
        "AuthFlowGoTrue", "AuthFlow", "GoTrue", "GoTrueEngine", "SavedSessions", "AuthCrypto",
        "Clocks",
      ]),

    // The accounts: every table, record, query and migration, behind typed operations, on SQLite
    // (the embedded default) and PostgreSQL (GoTrue's own schema, through libpq). The rules above
    // it hold no SQL.
    .target(
      name: "AccountStore", dependencies: ["GoTrue", "PrivateFiles", "CSQLite", "CPostgres"]),
    .testTarget(
      name: "AccountStoreTests",
      dependencies: ["AccountStore", "GoTrue", "PrivateFiles", "PostgresTestSupport"],
      exclude: ["Fixtures"]),
    // A throw-away PostgreSQL server for the tests that need one, started once per test process.
    .target(
      name: "PostgresTestSupport", dependencies: ["AccountStore", "CProcess"],
      path: "Tests/PostgresTestSupport"),

    // The default backend: a GoTrue-compatible engine with GoTrue's own rules over the account
    // store, and an outbox for its email.
    .target(
      name: "GoTrueEngine",
      dependencies: [
        "AccountStore", "GoTrue", "AuthCrypto", "PrivateFiles", "Clocks", "QRCode", "CXML2",
      ]),
    .testTarget(
      name: "GoTrueEngineTests",
      dependencies: [
        "AccountStore",
        "TestSupport",
        "GoTrueEngine", "GoTrue", "AuthCrypto", "Clocks", "PrivateFiles", "authflow-lab",
      ]),

    // The Firebase Auth emulator's operations on the engine's accounts: its rules, codes and
    // ID tokens, for the server's Firebase surface.
    .target(
      name: "FirebaseEmulator",
      dependencies: ["AccountStore", "GoTrueEngine", "GoTrue", "IdentityToolkit", "AuthCrypto"]),
    .testTarget(
      name: "FirebaseEmulatorTests",
      dependencies: [
        "AccountStore",
        "TestSupport",
        "FirebaseEmulator", "GoTrueEngine", "GoTrue", "IdentityToolkit", "AuthCrypto", "Clocks",
      ]),

    // Seeded accounts: the users file (authflow's format and the Firebase emulator's
    // accounts.json), applied to a store idempotently, and written back out.
    .target(
      name: "UserSeeds",
      dependencies: [
        "AccountStore",
        "GoTrueEngine", "FirebaseEmulator", "GoTrue", "AuthCrypto", "PrivateFiles",
      ]),
    .testTarget(
      name: "UserSeedsTests",
      dependencies: [
        "TestSupport",
        "UserSeeds", "GoTrueEngine", "FirebaseEmulator", "GoTrue", "IdentityToolkit",
        "AuthCrypto", "Clocks",
      ]),

    // Benchmarks and fault drills for the engine (`make bench`, multi-process tests).
    .executableTarget(
      name: "authflow-lab",
      dependencies: ["AccountStore", "GoTrueEngine", "GoTrue", "AuthCrypto", "Clocks"]),

    // Firebase Auth's wire contract (Identity Toolkit v1, Secure Token, the emulator's own
    // routes), shared by the client backend and the server's emulator: shapes and error bodies.
    .target(name: "IdentityToolkit"),
    .testTarget(name: "IdentityToolkitTests", dependencies: ["IdentityToolkit"]),

    // HTTP as plain values, and the client side of the authflow-http helper.
    .target(name: "HTTPClient"),
    .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "authflow-http"]),
    // The helper that runs requests with libcurl, outside the static shell executable.
    .executableTarget(name: "authflow-http", dependencies: ["HTTPClient", "CCurl"]),

    // The Supabase backend: GoTrue's REST API over an injected HTTP transport.
    .target(name: "SupabaseREST", dependencies: ["GoTrue", "HTTPClient", "Clocks"]),
    .testTarget(
      name: "SupabaseRESTTests",
      dependencies: [
        "TestSupport",
        "SupabaseREST", "AuthFlowGoTrue", "SavedSessions", "AuthFlow", "GoTrue", "HTTPClient",
        "Clocks",
      ],
      exclude: ["Fixtures", "Requests"]),

    // The Firebase backend: Firebase Auth's REST APIs over an injected HTTP transport, as an
    // AuthService, and the emulator's code list for the shell's mail commands.
    .target(
      name: "AuthFlowFirebase",
      dependencies: ["AuthFlow", "SavedSessions", "IdentityToolkit", "HTTPClient", "Clocks"]),
    .testTarget(
      name: "AuthFlowFirebaseTests",
      dependencies: [
        "TestSupport",
        "AuthFlowFirebase", "AuthFlow", "SavedSessions", "IdentityToolkit", "HTTPClient",
        "Clocks",
      ],
      exclude: ["Requests"]),

    // TOML read with toml++ (Debian's libtomlplusplus-dev, header-only) behind a C face, for
    // a Supabase project's config.toml.
    .target(name: "CToml"),
    .target(name: "TOML", dependencies: ["CToml"]),
    .testTarget(name: "TOMLTests", dependencies: ["TOML"]),

    // Command lines read against a table of options (and their environment variables).
    .target(name: "CommandLineOptions"),
    .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),

    // The embedded engine's settings that the shell and serve both take, each declared once:
    // option, GoTrue's variable, config.toml key, help, and the one check that sets it.
    .target(
      name: "EngineSettings",
      dependencies: ["AccountStore", "AuthCrypto", "CommandLineOptions", "GoTrue", "GoTrueEngine"]),
    .testTarget(
      name: "EngineSettingsTests",
      dependencies: ["EngineSettings", "CommandLineOptions", "GoTrueEngine"]),

    // HTTP/1.1 serving over libevent's evhttp: one event-loop thread, responders as values.
    .target(name: "HTTPServer", dependencies: ["CEvent"]),
    .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),

    // What serve's page and the shell's presented screen share: the trust of a page served to
    // this machine's browser (loopback, its own Host and Origin, a token per page), its
    // headers and content policy, its event stream, and its style sheet.
    .target(name: "LocalPages", dependencies: ["HTTPServer", "GoTrue", "AuthCrypto"]),

    // `authflow serve`: the engine as GoTrue's REST API, with the outbox as Mailpit's, and as
    // the Firebase Auth emulator's REST API for `--firebase-project`.
    .target(
      name: "AuthServer",
      dependencies: [
        "AccountStore",
        "HTTPServer", "GoTrueEngine", "FirebaseEmulator", "GoTrue", "IdentityToolkit",
        "AuthCrypto", "Clocks", "CommandLineOptions", "EngineSettings", "UserSeeds", "HTTPClient",
        "TOML", "QRCode", "LocalPages",
      ]),
    .testTarget(
      name: "AuthServerTests",
      dependencies: [
        "AccountStore",
        "AuthServer", "HTTPServer", "GoTrueEngine", "FirebaseEmulator", "GoTrue",
        "IdentityToolkit", "AuthCrypto", "Clocks", "SupabaseREST", "AuthFlowFirebase",
        "HTTPClient", "CommandLineOptions", "EngineSettings", "LocalPages",
      ]),

    // Scripts run as a suite: child processes in parallel, golden transcripts, outcomes,
    // JUnit reports, durations; `authflow test` drives it with the shell's options.
    .target(name: "ScriptSuites", dependencies: ["CProcess", "PrivateFiles"]),
    .testTarget(name: "ScriptSuitesTests", dependencies: ["ScriptSuites"]),

    // The shell: line sources, parser, command table, renderer, runner, libedit terminal.
    .target(
      name: "AuthShell",
      dependencies: [
        "AccountStore",
        "AuthFlow", "AuthFlowGoTrue", "SavedSessions", "GoTrue", "GoTrueEngine",
        "SupabaseREST", "AuthFlowFirebase", "HTTPClient", "AuthCrypto", "PrivateFiles",
        "Clocks", "CEditLine", "CProcess", "CommandLineOptions", "EngineSettings", "ScriptSuites",
        "UserSeeds", "HTTPServer", "LocalPages",
      ]),
    .testTarget(
      name: "AuthShellTests",
      dependencies: [
        "AccountStore",
        "AuthShell", "AuthFlow", "AuthFlowGoTrue", "GoTrue", "GoTrueEngine", "AuthCrypto",
        "PrivateFiles", "SavedSessions", "Clocks", "authflow", "authflow-http",
        "CommandLineOptions", "EngineSettings", "ScriptSuites", "UserSeeds", "HTTPServer",
        "LocalPages",
      ],
      exclude: ["Support"]),
    // The executable only hands the command line to AuthShell.
    .executableTarget(name: "authflow", dependencies: ["AuthShell", "AuthServer"]),

    // Debian system libraries, one tiny module map each.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CCrypt", providers: [.apt(["libcrypt-dev"])]),
    .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CEditLine", providers: [.apt(["libedit-dev"])]),
    .systemLibrary(name: "CEvent", providers: [.apt(["libevent-dev"])]),
    .systemLibrary(name: "CQRCodeGen", providers: [.apt(["libqrcodegen-dev"])]),
    .systemLibrary(name: "CProcess", providers: [.apt(["libc6-dev"])]),
    .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(name: "CPostgres", providers: [.apt(["libpq-dev"])]),
    .systemLibrary(name: "CNettle", providers: [.apt(["nettle-dev"])]),
    .systemLibrary(name: "CSecp256k1", providers: [.apt(["libsecp256k1-dev"])]),
    // libxml2, for the SAML metadata GoTrue's admin API reads.
    .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
  ],
  swiftLanguageModes: [.v6],
  cxxLanguageStandard: .cxx17
)

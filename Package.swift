// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "authflow",
  products: [
    .library(name: "AuthFlow", targets: ["AuthFlow"]),
    .executable(name: "authflow", targets: ["authflow"]),
  ],
  targets: [
    // The platform-neutral flow: states, view model, validation, messages, the service protocol.
    .target(name: "AuthFlow"),
    .testTarget(name: "AuthFlowTests", dependencies: ["AuthFlow"]),

    // Swift faces of the C crypto libraries: bcrypt (libcrypt), SHA-256, HMAC, AES-GCM (libcrypto).
    .target(name: "AuthCrypto", dependencies: ["CCrypt", "COpenSSL"]),
    .testTarget(name: "AuthCryptoTests", dependencies: ["AuthCrypto"]),

    // GoTrue's wire contract (codes, shapes, endpoints), its one mapping to AuthError, and the
    // AuthService adapter every GoTrue-speaking backend shares.
    .target(name: "GoTrue", dependencies: ["AuthFlow", "AuthCrypto"]),
    .testTarget(name: "GoTrueTests", dependencies: ["GoTrue"]),

    // The default backend: a GoTrue-compatible engine on SQLite, with an outbox for its email.
    .target(name: "AuthFlowEmbedded", dependencies: ["GoTrue", "AuthCrypto", "CSQLite"]),
    .testTarget(
      name: "AuthFlowEmbeddedTests", dependencies: ["AuthFlowEmbedded", "authflow-lab"]),

    // Benchmarks and fault drills for the engine (`make bench`, multi-process tests).
    .executableTarget(name: "authflow-lab", dependencies: ["AuthFlowEmbedded"]),

    // HTTP as plain values, and the client side of the authflow-http helper.
    .target(name: "AuthFlowHTTP"),
    .testTarget(name: "AuthFlowHTTPTests", dependencies: ["AuthFlowHTTP", "authflow-http"]),
    // The helper that runs requests with URLSession, outside the static shell executable.
    .executableTarget(name: "authflow-http", dependencies: ["AuthFlowHTTP"]),

    // The Supabase backend: GoTrue's REST API over an injected HTTP transport.
    .target(name: "AuthFlowSupabase", dependencies: ["GoTrue", "AuthFlowHTTP"]),
    .testTarget(
      name: "AuthFlowSupabaseTests", dependencies: ["AuthFlowSupabase"],
      exclude: ["Fixtures", "Requests"]),

    // The shell: line sources, parser, command table, renderer, runner, libedit terminal.
    .target(
      name: "AuthShell", dependencies: ["AuthFlowEmbedded", "AuthFlowSupabase", "CEditLine"]),
    .testTarget(
      name: "AuthShellTests", dependencies: ["AuthShell", "authflow", "authflow-http"],
      exclude: ["Support"]),
    // The executable only hands the command line to AuthShell.
    .executableTarget(name: "authflow", dependencies: ["AuthShell"]),

    // Debian system libraries, one tiny module map each.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CCrypt", providers: [.apt(["libcrypt-dev"])]),
    .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CEditLine", providers: [.apt(["libedit-dev"])]),
  ],
  swiftLanguageModes: [.v6]
)

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

    // The shell: line sources, parser, command table, renderer, runner, libedit terminal.
    .target(name: "AuthShell", dependencies: ["AuthFlowEmbedded", "CEditLine"]),
    .testTarget(name: "AuthShellTests", dependencies: ["AuthShell", "authflow"]),
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

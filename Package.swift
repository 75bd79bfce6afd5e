// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "authflow",
  products: [
    .library(name: "AuthFlow", targets: ["AuthFlow"])
  ],
  targets: [
    // The platform-neutral flow: states, view model, validation, messages, the service protocol.
    .target(name: "AuthFlow"),
    .testTarget(name: "AuthFlowTests", dependencies: ["AuthFlow"]),
  ],
  swiftLanguageModes: [.v6]
)

import AuthFlow

/// What `network` simulates: the device's reported connectivity, and whether requests reach
/// the server.
enum SimulatedNetwork: String, Equatable, Hashable, Sendable {
  /// Connected, and the server answers.
  case online
  /// No network, as the device reports it: the app asks nothing (seed 002's offline rule).
  case offline
  /// The device reports a network, but requests never reach the server (Wi-Fi without
  /// internet, the server down): each fails with "Can't reach the server".
  case unreachable
}

extension ShellSession {
  /// `network online|offline|unreachable`. Back online, a sign-out made offline is sent.
  func simulate(_ network: SimulatedNetwork) async {
    link.isUp = network != .unreachable
    viewModel.updateNetworkStatus(network == .offline ? .offline : .online)
    await viewModel.sendPendingSignOuts()
  }
}

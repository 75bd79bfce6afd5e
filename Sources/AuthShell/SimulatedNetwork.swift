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
  /// `network online|offline|unreachable`. Back online, a sign-out made offline is sent. The
  /// prompt shows `[offline]`; a cut link, which the app cannot see, is said in a line.
  func simulate(_ network: SimulatedNetwork) async -> CommandOutput {
    let wasUp = link.isUp
    link.isUp = network != .unreachable
    viewModel.updateNetworkStatus(network == .offline ? .offline : .online)
    // A pending sign-out the device's store failed to end is the command's failure.
    var output = CommandOutput.told(await viewModel.sendPendingSignOuts())
    switch (wasUp, link.isUp) {
    case (true, false):
      output.append([
        "Requests now fail as if the server were down, while the app thinks it is online."
      ])
    case (false, true): output.append(["Requests reach the server again."])
    default: break
    }
    return output
  }
}

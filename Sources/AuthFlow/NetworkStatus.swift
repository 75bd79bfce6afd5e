/// Whether the device can reach the network, as the app's reachability monitor reports it.
public enum NetworkStatus: String, Equatable, Hashable, Sendable {
  /// The network is reachable.
  case online
  /// The network is not reachable; submits are held back.
  case offline
}

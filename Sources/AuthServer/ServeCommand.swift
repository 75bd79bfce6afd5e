import CommandLineOptions

extension ServeMain {
  /// `authflow serve` as its manual page and completion scripts describe it, from the table
  /// its command line is read with.
  public static let command = CommandDescription(
    name: "serve", abstract: ServeOptions.abstract, usage: ["serve [options]"],
    discussion: [ServeOptions.about.joined(separator: "\n"), readiness],
    options: ServeOptions.allOptions.map(\.described), sections: ServeOptions.sections)

  /// What it prints when it is ready and when it stops.
  static let readiness = """
    Ready, it prints one line on standard output with its URL, its addresses, the store and \
    the anon and service_role keys (scripts read this line), then a status line on standard \
    error; it logs one line per request there (not with --quiet). SIGINT or SIGTERM stops it \
    cleanly; at a terminal it then says how many requests it answered, by status class.
    """
}

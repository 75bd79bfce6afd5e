// authflow-http: runs authflow's HTTP requests with libcurl, one JSON line in and one out, so
// the static authflow executable needs neither libcurl nor the two dozen libraries it loads.

import HTTPClient

#if canImport(Glibc)
  import Glibc
#endif

// The shell's Ctrl-C is for the shell: it cancels the request, and this process stays for the
// next one. It runs in its own process group; a Ctrl-C that came while it was being started
// (still in the shell's group) waits blocked, and is dropped here.
// Every other signal is unblocked too, whatever the thread that started it blocked: the
// SIGTERM that stops it must end it.
signal(SIGINT, SIG_IGN)
var unblocked = sigset_t()
sigemptyset(&unblocked)
sigprocmask(SIG_SETMASK, &unblocked, nil)

/// Writes all of `bytes` to standard output; whether it could.
func answer(_ bytes: [UInt8]) -> Bool {
  var offset = 0
  while offset < bytes.count {
    let count = bytes.withUnsafeBytes {
      write(1, $0.baseAddress.map { $0 + offset }, $0.count - offset)
    }
    if count < 0, errno == EINTR { continue }
    guard count > 0 else { return false }
    offset += count
  }
  return true
}

let transport = CurlTransport()
while let line = readLine(strippingNewline: true) {
  guard let message = Bridge.decode(Bridge.Request.self, from: Array(line.utf8)) else { continue }
  let reply =
    switch transport.send(message.request, timeout: message.timeout) {
    case .success(let response): Bridge.Answer(id: message.id, response: response, failure: nil)
    case .failure(let failure): Bridge.Answer(id: message.id, response: nil, failure: failure)
    }
  guard let bytes = Bridge.encode(reply), answer(bytes) else { break }
}

// Leaving on its own (its input closed): the SIGTERM that follows the close no longer cuts the
// exit short, so what the process writes as it ends (a coverage build's profile) is whole.
signal(SIGTERM, SIG_IGN)

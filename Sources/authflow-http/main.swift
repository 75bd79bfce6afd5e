// authflow-http: runs authflow's HTTP requests with URLSession, one JSON line in and one out,
// so the static authflow executable needs neither FoundationNetworking nor libcurl.

import AuthFlowHTTP
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The shell's Ctrl-C is for the shell: it cancels the request, and this process stays for the
// next one. It runs in its own process group; a Ctrl-C that came while it was being started
// (still in the shell's group) waits blocked, and is dropped here.
signal(SIGINT, SIG_IGN)
var interrupt = sigset_t()
sigemptyset(&interrupt)
sigaddset(&interrupt, SIGINT)
sigprocmask(SIG_UNBLOCK, &interrupt, nil)

let transport = URLSessionTransport()
while let line = readLine(strippingNewline: true) {
  guard let message = Bridge.decode(Bridge.Request.self, from: Array(line.utf8)) else { continue }
  let answer: Bridge.Answer
  do {
    let response = try await transport.send(message.request, timeout: message.timeout)
    answer = Bridge.Answer(id: message.id, response: response, failure: nil)
  } catch {
    answer = Bridge.Answer(id: message.id, response: nil, failure: error)
  }
  if let bytes = Bridge.encode(answer) { FileHandle.standardOutput.write(Data(bytes)) }
}

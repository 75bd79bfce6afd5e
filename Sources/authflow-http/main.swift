// authflow-http: runs authflow's HTTP requests with URLSession, one JSON line in and one out,
// so the static authflow executable needs neither FoundationNetworking nor libcurl.

import AuthFlowHTTP
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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

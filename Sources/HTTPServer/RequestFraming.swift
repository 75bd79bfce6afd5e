import CEvent

/// The framing check of one connection: it stands between the socket and evhttp's parser, so
/// that evhttp only ever reads requests this check has accepted whole (loop thread only).
///
/// It is a callback on the input buffer of the connection's bufferevent, which libevent runs
/// right after each socket read and before evhttp's read callback. It moves the bytes just read
/// out of evhttp's sight into `held`, and hands back a head only once it is complete and valid,
/// a `Content-Length` body as it arrives, and a chunked body only once it has ended cleanly.
/// In place of a request it refuses, it hands evhttp the refusal's synthetic head (see
/// ``Refusal``), and from then on drops every byte, so that nothing after it is served.
final class RequestFraming {
  private enum State {
    /// Waiting for a head; `held` starts with its first bytes.
    case head(HeadScanner)
    /// Passing this many more bytes of a `Content-Length` body straight to evhttp.
    case body(left: Int)
    /// Dropping this many more bytes of a body evhttp would not read.
    case dropping(left: Int)
    /// Holding a head and its chunked body until the body ends; `scanned` bytes of `held`
    /// have been looked at. With `droppedAfter`, only that many bytes (the head) go on to
    /// evhttp and the body is dropped.
    case chunked(scanned: Int, ChunkedBodyScanner, droppedAfter: Int? = nil)
    /// A refusal went to evhttp; everything else is dropped.
    case refused
  }

  private let input: OpaquePointer
  private let held: OpaquePointer
  /// An empty buffer the loop lends to every connection, for moving bytes around.
  private let scratch: OpaquePointer
  private let maxHeadBytes: Int
  private let maxBodyBytes: Int
  private var entry: OpaquePointer?
  private var state: State
  /// Set while this check moves bytes itself, which runs its own callback again.
  private var moving = false

  /// Starts checking what `bufferevent` reads; nil when libevent is out of memory. The check
  /// holds itself until ``detach()``.
  init?(
    bufferevent: OpaquePointer, configuration: HTTPServerConfiguration, scratch: OpaquePointer
  ) {
    guard let input = bufferevent_get_input(bufferevent), let held = evbuffer_new() else {
      return nil
    }
    self.input = input
    self.held = held
    self.scratch = scratch
    self.maxHeadBytes = configuration.maxHeaderBytes
    self.maxBodyBytes = configuration.maxBodyBytes
    self.state = .head(HeadScanner(limit: configuration.maxHeaderBytes))
    let context = Unmanaged.passRetained(self).toOpaque()
    entry = evbuffer_add_cb(
      input,
      { _, info, context in
        guard let info, let context else { return }
        let framing = Unmanaged<RequestFraming>.fromOpaque(context).takeUnretainedValue()
        framing.received(info.pointee.n_added)
      }, context)
    if entry == nil {
      Unmanaged<RequestFraming>.fromOpaque(context).release()
      return nil
    }
  }

  deinit { evbuffer_free(held) }

  /// Stops the check and lets it go; called before evhttp frees the bufferevent.
  func detach() {
    guard let entry else { return }
    evbuffer_remove_cb_entry(input, entry)
    self.entry = nil
    Unmanaged.passUnretained(self).release()
  }

  /// The input buffer's callback: `count` bytes were just read onto its end.
  private func received(_ count: Int) {
    guard count > 0, !moving else { return }
    moving = true
    defer { moving = false }
    switch state {
    case .refused:
      moveTail(count, to: scratch)
      evbuffer_drain(scratch, evbuffer_get_length(scratch))
    case .body(let left) where count <= left:
      // The common case for a large body: its bytes stay where they are.
      state = count == left ? nextHead : .body(left: left - count)
    case .body(let left):
      moveTail(count - left, to: held)
      state = nextHead
      advance()
    case .head, .chunked, .dropping:
      moveTail(count, to: held)
      advance()
    }
  }

  /// Works through `held` until it needs more bytes or refuses.
  private func advance() {
    do throws(Refusal) {
      while try step() {}
    } catch {
      evbuffer_drain(held, evbuffer_get_length(held))
      error.syntheticHead.withUnsafeBytes { _ = evbuffer_add(input, $0.baseAddress, $0.count) }
      state = .refused
    }
  }

  /// One step on the held bytes; true when another may follow.
  private func step() throws(Refusal) -> Bool {
    let available = evbuffer_get_length(held)
    switch state {
    case .refused:
      evbuffer_drain(held, available)
      return false
    case .body(let left):
      guard available > 0 else { return false }
      let passed = min(left, available)
      forward(passed)
      state = passed == left ? nextHead : .body(left: left - passed)
      return true
    case .dropping(let left):
      guard available > 0 else { return false }
      let dropped = min(left, available)
      evbuffer_drain(held, dropped)
      state = dropped == left ? nextHead : .dropping(left: left - dropped)
      return true
    case .head(var scanner):
      guard available > scanner.scanned else { return false }
      let progress = try scanHeld(from: scanner.scanned) { bytes throws(Refusal) in
        let progress = try scanner.scan(bytes)
        return progress == .incomplete ? nil : progress
      }
      switch progress {
      case nil:
        state = .head(scanner)
        return false
      case .leadingBlankLine?:
        evbuffer_drain(held, 2)
        state = nextHead
      case .head(let length)?:
        try accept(headLength: length)
      case .incomplete?:
        preconditionFailure("an incomplete scan returns nil")
      }
      return true
    case .chunked(let scanned, var scanner, let droppedAfter):
      guard available > scanned else { return false }
      var offset = scanned
      let end = try scanHeld(from: scanned) { bytes throws(Refusal) -> Int? in
        if let used = try scanner.scan(bytes) { return offset + used }
        offset += bytes.count
        return nil
      }
      guard let end else {
        state = .chunked(scanned: available, scanner, droppedAfter: droppedAfter)
        return false
      }
      if let head = droppedAfter {
        forward(head)
        evbuffer_drain(held, end - head)
      } else {
        forward(end)
      }
      state = nextHead
      return true
    }
  }

  /// Checks a complete head at the start of `held` and passes it on, or holds it with its
  /// chunked body.
  private func accept(headLength: Int) throws(Refusal) {
    guard let start = evbuffer_pullup(held, headLength) else {
      throw Refusal(status: 431, reason: "request head could not be read")
    }
    let head = UnsafeRawBufferPointer(start: start, count: headLength)
    switch try HeadCheck.framing(of: head, maxBodyBytes: maxBodyBytes) {
    case .none:
      forward(headLength)
      state = nextHead
    case .length(let length):
      forward(headLength)
      state = .body(left: length)
    case .chunked:
      let body = ChunkedBodyScanner(maxBodyBytes: maxBodyBytes, maxFramingBytes: maxHeadBytes)
      state = .chunked(scanned: headLength, body)
    case .droppedLength(let length):
      forward(headLength)
      state = .dropping(left: length)
    case .droppedChunked:
      let body = ChunkedBodyScanner(maxBodyBytes: maxBodyBytes, maxFramingBytes: maxHeadBytes)
      state = .chunked(scanned: headLength, body, droppedAfter: headLength)
    }
  }

  private var nextHead: State { .head(HeadScanner(limit: maxHeadBytes)) }

  /// Hands the first `count` held bytes to evhttp.
  private func forward(_ count: Int) {
    evbuffer_remove_buffer(held, input, count)
  }

  /// Moves the last `count` bytes of the input buffer onto the end of `destination`, leaving
  /// the bytes before them (accepted earlier, not yet parsed by evhttp) where they are.
  private func moveTail(_ count: Int, to destination: OpaquePointer) {
    let keep = evbuffer_get_length(input) - count
    if keep <= 0 {
      evbuffer_add_buffer(destination, input)
      return
    }
    let staging = evbuffer_get_length(destination) == 0 ? destination : scratch
    evbuffer_add_buffer(staging, input)
    evbuffer_remove_buffer(staging, input, keep)
    if staging != destination { evbuffer_add_buffer(destination, staging) }
  }

  /// Feeds the held bytes from `offset` on to `body`, one contiguous extent at a time, until it
  /// returns a result.
  private func scanHeld<Result>(
    from offset: Int, _ body: (UnsafeRawBufferPointer) throws(Refusal) -> Result?
  ) throws(Refusal) -> Result? {
    var position = offset
    let total = evbuffer_get_length(held)
    var pointer = evbuffer_ptr()
    guard evbuffer_ptr_set(held, &pointer, position, EVBUFFER_PTR_SET) == 0 else { return nil }
    while position < total {
      var extent = iovec()  // evbuffer_iovec is a macro for iovec on Linux
      guard evbuffer_peek(held, -1, &pointer, &extent, 1) > 0, let base = extent.iov_base,
        extent.iov_len > 0
      else { return nil }
      if let result = try body(UnsafeRawBufferPointer(start: base, count: extent.iov_len)) {
        return result
      }
      position += extent.iov_len
      guard evbuffer_ptr_set(held, &pointer, extent.iov_len, EVBUFFER_PTR_ADD) == 0 else {
        return nil
      }
    }
    return nil
  }
}

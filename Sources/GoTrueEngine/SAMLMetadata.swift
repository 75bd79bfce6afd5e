import CXML2

/// A SAML identity provider's metadata as GoTrue's admin API reads it (`parseSAMLMetadata`
/// over crewjam/saml's `samlsp.ParseMetadata`), with libxml2: the `EntityDescriptor` (or the
/// first with an `IDPSSODescriptor` of an `EntitiesDescriptor`), its `entityID`, and exactly one
/// `IDPSSODescriptor`.
package enum SAMLMetadata {
  /// Why metadata was refused.
  package enum Refusal: Error, Equatable {
    /// One of GoTrue's checks, answered 400 `validation_failed` with this message.
    case invalid(String)
    /// XML that Go's decoder would not read into an `EntityDescriptor`: GoTrue passes its error
    /// on unwrapped, which its handler answers as an unexpected 500. The text is for the log.
    case unreadable(String)
  }

  /// The SAML 2.0 metadata namespace, which Go's decoder requires of the descriptors.
  static let namespace = "urn:oasis:names:tc:SAML:2.0:metadata"

  /// The `entityID` of the identity provider `bytes` describe, checked as GoTrue checks it.
  package static func entityID(of bytes: [UInt8]) -> Result<String, Refusal> {
    guard String(validating: bytes, as: UTF8.self) != nil else {
      return .failure(
        .invalid(
          "SAML Metadata XML contains invalid UTF-8 characters, which are not supported at "
            + "this time"))
    }
    _ = initialized
    let options = Int32(
      XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
    let parsed = bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        xmlReadMemory($0.baseAddress, Int32(clamping: $0.count), nil, nil, options)
      }
    }
    guard let document = parsed else { return .failure(.unreadable("not well-formed XML")) }
    defer { xmlFreeDoc(document) }
    // Go's decoder reads no other encoding than UTF-8 without a CharsetReader, which
    // crewjam/saml does not give it.
    if let declared = document.pointee.encoding,
      String(cString: declared).lowercased() != "utf-8"
    {
      return .failure(.unreadable("an encoding other than UTF-8 is declared"))
    }
    guard let root = xmlDocGetRootElement(document) else {
      return .failure(.unreadable("no root element"))
    }
    guard let entity = try? descriptor(root) else {
      return .failure(.unreadable("no EntityDescriptor of SAML 2.0 metadata"))
    }
    let entityID = attribute("entityID", of: entity)
    if entityID.isEmpty { return .failure(.invalid("SAML Metadata does not contain an EntityID")) }
    switch children(of: entity, named: "IDPSSODescriptor", namespace: nil).count {
    case 0: return .failure(.invalid("SAML Metadata does not contain any IDPSSODescriptor"))
    case 1: return .success(entityID)
    default: return .failure(.invalid("SAML Metadata contains multiple IDPSSODescriptors"))
    }
  }

  private struct NoDescriptor: Error {}

  private static let initialized: Void = xmlInitParser()

  /// The `EntityDescriptor` `samlsp.ParseMetadata` reads from `root`: the root itself, or
  /// within an `EntitiesDescriptor` root, the first whose `IDPSSODescriptor`s are not none.
  private static func descriptor(_ root: xmlNodePtr) throws(NoDescriptor) -> xmlNodePtr {
    // Go checks the element's name before its namespace.
    switch name(root) {
    case "EntityDescriptor":
      guard namespace(root) == namespace else { throw NoDescriptor() }
      return root
    case "EntitiesDescriptor":
      guard namespace(root) == namespace else { throw NoDescriptor() }
      let found = children(of: root, named: "EntityDescriptor", namespace: namespace).first {
        !children(of: $0, named: "IDPSSODescriptor", namespace: nil).isEmpty
      }
      guard let found else { throw NoDescriptor() }
      return found
    default:
      throw NoDescriptor()
    }
  }

  /// The element children of `node` of local name `name`, in `namespace` when one is given (a
  /// Go field tag without a namespace matches the name in any).
  private static func children(of node: xmlNodePtr, named name: String, namespace: String?)
    -> [xmlNodePtr]
  {
    var found: [xmlNodePtr] = []
    var child = node.pointee.children
    while let current = child {
      if current.pointee.type == XML_ELEMENT_NODE, self.name(current) == name,
        namespace.map({ self.namespace(current) == $0 }) ?? true
      {
        found.append(current)
      }
      child = current.pointee.next
    }
    return found
  }

  private static func name(_ node: xmlNodePtr) -> String {
    node.pointee.name.map { String(cString: $0) } ?? ""
  }

  private static func namespace(_ node: xmlNodePtr) -> String {
    node.pointee.ns?.pointee.href.map { String(cString: $0) } ?? ""
  }

  /// Attribute `name` of `node` in any namespace, as Go matches an attribute's field; empty
  /// when absent.
  private static func attribute(_ name: String, of node: xmlNodePtr) -> String {
    guard let value = xmlGetProp(node, Array(name.utf8) + [0]) else { return "" }
    defer { cxml2_free(value) }
    return String(cString: value)
  }
}

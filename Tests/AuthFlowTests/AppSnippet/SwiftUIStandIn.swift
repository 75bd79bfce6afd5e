import AuthFlow

// NB: SwiftUI is not on Linux. These few stand-ins have SwiftUI's names and shapes, so the
// pages' app code (AuthCoordinatorView.swift) compiles here as written, and each view draws
// itself as lines a test can compare.

/// A piece of interface, as SwiftUI's `View`.
@MainActor protocol View {
  associatedtype Body: View
  @ViewBuilder var body: Body { get }
}

/// A view SwiftUI draws itself: it says what it shows.
@MainActor protocol PrimitiveView: View where Body == Never {
  var lines: [String] { get }
  /// The views it holds, for a container.
  var children: [any View] { get }
}

extension PrimitiveView {
  var body: Never { return fatalError("a primitive view has no body") }
  var children: [any View] { [] }
}

extension Never: View {
  var body: Never { return fatalError("Never has no body") }
}

/// What `view` shows, one line per control, as ``PrimitiveView``s say it.
@MainActor func draw(_ view: any View) -> [String] {
  if let primitive = view as? any PrimitiveView { return primitive.lines }
  return draw(view.body)
}

/// The views `view` shows that hold no others (fields, buttons, texts), in order.
@MainActor func leaves(_ view: any View) -> [any PrimitiveView] {
  guard let primitive = view as? any PrimitiveView else { return leaves(view.body) }
  return primitive.children.isEmpty ? [primitive] : primitive.children.flatMap(leaves)
}

/// SwiftUI's `@ViewBuilder`: statements, `if` and `switch` make a list of views.
@MainActor @resultBuilder enum ViewBuilder {
  static func buildExpression(_ view: some View) -> [any View] { [view] }
  static func buildBlock(_ parts: [any View]...) -> [any View] { parts.flatMap { $0 } }
  static func buildOptional(_ part: [any View]?) -> [any View] { part ?? [] }
  static func buildEither(first part: [any View]) -> [any View] { part }
  static func buildEither(second part: [any View]) -> [any View] { part }
  static func buildFinalResult(_ parts: [any View]) -> Stack { Stack(parts: parts) }
}

/// What a ``ViewBuilder`` makes: its views in order.
struct Stack: PrimitiveView {
  let parts: [any View]
  var lines: [String] { parts.flatMap(draw) }
  var children: [any View] { parts }
}

/// SwiftUI's `Form` and `VStack`: their content, in order.
struct Form: PrimitiveView {
  let content: Stack
  init(@ViewBuilder content: () -> Stack) { self.content = content() }
  var lines: [String] { content.lines }
  var children: [any View] { [content] }
}

typealias VStack = Form

/// SwiftUI's `Text`.
struct Text: PrimitiveView {
  let text: String
  init(_ text: String) { self.text = text }
  var lines: [String] { ["text: \(text)"] }
}

/// SwiftUI's `TextField`, and with `isSecure` its `SecureField`.
struct TextField: PrimitiveView {
  let label: String
  let text: Binding<String>
  var isSecure = false
  init(_ label: String, text: Binding<String>) {
    self.label = label
    self.text = text
  }
  var lines: [String] {
    [isSecure ? "secure field: \(label)" : "field: \(label) = \(text.wrappedValue)"]
  }
}

/// SwiftUI's `SecureField`: its text is never drawn.
@MainActor func SecureField(_ label: String, text: Binding<String>) -> TextField {
  var field = TextField(label, text: text)
  field.isSecure = true
  return field
}

/// SwiftUI's `Button` with a title.
struct Button: PrimitiveView {
  let title: String
  let action: () -> Void
  var isDisabled = false
  var hint: String?
  init(_ title: String, action: @escaping () -> Void) {
    self.title = title
    self.action = action
  }
  var lines: [String] {
    ["button: \(title)" + (isDisabled ? " (dimmed)" : "") + (hint.map { " - \($0)" } ?? "")]
  }
  func disabled(_ disabled: Bool) -> Button {
    var button = self
    button.isDisabled = disabled
    return button
  }
  func accessibilityHint(_ hint: Text) -> Button {
    var button = self
    button.hint = hint.text
    return button
  }
}

/// SwiftUI's `Binding`: a value read and written elsewhere.
@MainActor struct Binding<Value> {
  let get: () -> Value
  let set: (Value) -> Void
  var wrappedValue: Value {
    get { get() }
    nonmutating set { set(newValue) }
  }
}

/// SwiftUI's `@Bindable`: `$model.property` is a ``Binding`` to an observable model's property.
@MainActor @propertyWrapper @dynamicMemberLookup
struct Bindable<Model: AnyObject> {
  var wrappedValue: Model
  var projectedValue: Bindable<Model> { self }

  subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Model, Value>)
    -> Binding<Value>
  {
    let model = wrappedValue
    return Binding(get: { model[keyPath: keyPath] }, set: { model[keyPath: keyPath] = $0 })
  }
}

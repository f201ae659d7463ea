// The part of SwiftUI the SDK's prebuilt screens use, declared as SwiftUI's interface declares it
// (iOS 17 and macOS 14; `View` main-actor isolated, as from the iOS 18 SDK on). Views are
// generic structs and modifiers return `some View`, so a view body is type-checked as SwiftUI
// type-checks it: the result builder, the generic initialisers, the key paths of `ForEach`,
// bindings and the isolation of the closures. Nothing draws: the few bodies that must return
// something wrap their input.

@_exported import CoreGraphics
@_exported import Foundation  // SwiftUI re-exports Foundation: `Date`, `Data`, `URL` with `import SwiftUI`
import Observation

#if !APPLE_STUB_MACOS
    import UIKit
#endif

@inline(never) @usableFromInline func _swiftUIStub() -> Never { fatalError("Apple API stub: type-checking only") }

// MARK: View and the result builder

@preconcurrency @MainActor
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { _swiftUIStub() }
}

/// A primitive view: no body of its own.
public protocol _PrimitiveView: View where Body == Never {}
extension _PrimitiveView {
    public var body: Never { _swiftUIStub() }
}

public struct EmptyView: _PrimitiveView { public init() {} }
public struct TupleView<T>: _PrimitiveView { public init(_ value: T) {} }
public struct AnyView: _PrimitiveView { public init<V: View>(_ view: V) {} }
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: _PrimitiveView {
    init() {}
}
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { _swiftUIStub() }
}

@resultBuilder
public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { _swiftUIStub() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        _swiftUIStub()
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent)
        -> _ConditionalContent<TrueContent, FalseContent>
    {
        _swiftUIStub()
    }
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent)
        -> _ConditionalContent<TrueContent, FalseContent>
    {
        _swiftUIStub()
    }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { _swiftUIStub() }
}

/// What a modifier returns (`some View` to its caller).
public struct _ModifiedView<Content>: _PrimitiveView {
    nonisolated init(_ content: Content) {}
}

// MARK: State and bindings

public protocol DynamicProperty {}

@propertyWrapper @dynamicMemberLookup
public struct Binding<Value>: DynamicProperty {
    /// `@preconcurrency init(get: @escaping @isolated(any) @Sendable () -> Value,
    /// set: @escaping @isolated(any) @Sendable (Value) -> Void)`.
    @preconcurrency
    public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void) {}
    public init(projectedValue: Binding<Value>) {}
    public static func constant(_ value: Value) -> Binding<Value> { _swiftUIStub() }
    public var wrappedValue: Value {
        get { _swiftUIStub() }
        nonmutating set { _swiftUIStub() }
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        _swiftUIStub()
    }
}

@propertyWrapper
public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) {}
    public init(initialValue value: Value) {}
    public var wrappedValue: Value {
        get { _swiftUIStub() }
        nonmutating set { _swiftUIStub() }
    }
    public var projectedValue: Binding<Value> { _swiftUIStub() }
}

@propertyWrapper @dynamicMemberLookup
public struct Bindable<Value: AnyObject & Observable> {
    public init(wrappedValue: Value) {}
    public init(_ wrappedValue: Value) {}
    public var wrappedValue: Value { _swiftUIStub() }
    public var projectedValue: Bindable<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> {
        _swiftUIStub()
    }
}

/// `@frozen @propertyWrapper struct FocusState<Value> where Value: Hashable` (iOS 15, macOS 12).
@propertyWrapper
public struct FocusState<Value: Hashable>: DynamicProperty {
    @propertyWrapper
    public struct Binding {
        init(_ stub: Never) {}
        public var wrappedValue: Value {
            get { _swiftUIStub() }
            nonmutating set { _swiftUIStub() }
        }
        public var projectedValue: FocusState<Value>.Binding { self }
    }

    public init<T: Hashable>() where Value == T? {}
    public var wrappedValue: Value {
        get { _swiftUIStub() }
        nonmutating set { _swiftUIStub() }
    }
    public var projectedValue: FocusState<Value>.Binding { _swiftUIStub() }
}

extension FocusState where Value == Bool {
    public init() {}
}

/// `struct SubmitLabel`: what the keyboard's Return key says.
public struct SubmitLabel: Sendable {
    public static var done: SubmitLabel { _swiftUIStub() }
    public static var go: SubmitLabel { _swiftUIStub() }
    public static var send: SubmitLabel { _swiftUIStub() }
    public static var next: SubmitLabel { _swiftUIStub() }
    public static var `continue`: SubmitLabel { _swiftUIStub() }
    public static var `return`: SubmitLabel { _swiftUIStub() }
}

/// `struct SubmitTriggers: OptionSet`.
public struct SubmitTriggers: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static var text: SubmitTriggers { .init(rawValue: 1) }
    public static var search: SubmitTriggers { .init(rawValue: 2) }
}

/// `@frozen @propertyWrapper struct Environment<Value>`: a value of the view's environment.
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { _swiftUIStub() }
}

/// `struct EnvironmentValues`: the values a view reads with `@Environment(\.name)`.
public struct EnvironmentValues {
    /// Dismisses the presentation the view is in (a sheet).
    public var dismiss: DismissAction { _swiftUIStub() }
    /// Opens a URL as the system does.
    public var openURL: OpenURLAction { _swiftUIStub() }
}

/// `@MainActor @preconcurrency struct DismissAction`.
@preconcurrency @MainActor
public struct DismissAction {
    public func callAsFunction() { _swiftUIStub() }
}

/// `@MainActor @preconcurrency struct OpenURLAction`.
@preconcurrency @MainActor
public struct OpenURLAction {
    public func callAsFunction(_ url: URL) { _swiftUIStub() }
}

// MARK: Navigation and toolbars

public struct NavigationPath {
    public init() {}
}

/// `@MainActor @preconcurrency struct NavigationStack<Data, Root> where Root: View`.
public struct NavigationStack<Data, Root: View>: _PrimitiveView {}

extension NavigationStack where Data == NavigationPath {
    public init(@ViewBuilder root: () -> Root) {}
}

/// `struct ToolbarItemPlacement`.
public struct ToolbarItemPlacement: Sendable {
    public static var automatic: ToolbarItemPlacement { _swiftUIStub() }
    public static var cancellationAction: ToolbarItemPlacement { _swiftUIStub() }
    public static var confirmationAction: ToolbarItemPlacement { _swiftUIStub() }
    public static var principal: ToolbarItemPlacement { _swiftUIStub() }
}

/// `@MainActor @preconcurrency protocol ToolbarContent`.
@preconcurrency @MainActor
public protocol ToolbarContent {}

/// `@resultBuilder struct ToolbarContentBuilder`.
@resultBuilder
public struct ToolbarContentBuilder {
    public static func buildExpression<Content: ToolbarContent>(_ content: Content) -> Content { content }
    public static func buildBlock<Content: ToolbarContent>(_ content: Content) -> Content { content }
}

/// `struct ToolbarItem<ID, Content> where Content: View`.
public struct ToolbarItem<ID, Content: View>: ToolbarContent {}

extension ToolbarItem where ID == () {
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {}
}

// MARK: Text, images, colours, fonts, shapes

public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
    public init(_ value: String) {}
    public init(stringLiteral value: String) {}
}

public struct Text: Equatable, Sendable {
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ content: S) {}
    public init(verbatim content: String) {}
    public func font(_ font: Font?) -> Text { self }
    public func bold() -> Text { self }
    public func foregroundColor(_ color: Color?) -> Text { self }
}

public struct Font: Hashable, Sendable {
    public static var largeTitle: Font { _swiftUIStub() }
    public static var title: Font { _swiftUIStub() }
    public static var title2: Font { _swiftUIStub() }
    public static var title3: Font { _swiftUIStub() }
    public static var headline: Font { _swiftUIStub() }
    public static var subheadline: Font { _swiftUIStub() }
    public static var body: Font { _swiftUIStub() }
    public static var callout: Font { _swiftUIStub() }
    public static var footnote: Font { _swiftUIStub() }
    public static var caption: Font { _swiftUIStub() }
    public static func system(size: CGFloat) -> Font { _swiftUIStub() }
    public func bold() -> Font { self }
    public func monospaced() -> Font { self }
    public func monospacedDigit() -> Font { self }
}

public protocol ShapeStyle: Sendable {}

public struct Color: ShapeStyle, Hashable {
    public init(_ name: String, bundle: Bundle? = nil) {}
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {}
    public static var accentColor: Color { _swiftUIStub() }
    public static var primary: Color { _swiftUIStub() }
    public static var secondary: Color { _swiftUIStub() }
    public static var clear: Color { _swiftUIStub() }
    public static var red: Color { _swiftUIStub() }
    public static var green: Color { _swiftUIStub() }
    public static var blue: Color { _swiftUIStub() }
    public static var purple: Color { _swiftUIStub() }
    public static var black: Color { _swiftUIStub() }
    public static var white: Color { _swiftUIStub() }
    public func opacity(_ opacity: Double) -> Color { self }
}

public struct HierarchicalShapeStyle: ShapeStyle {
    public static var primary: HierarchicalShapeStyle { _swiftUIStub() }
    public static var secondary: HierarchicalShapeStyle { _swiftUIStub() }
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var secondary: HierarchicalShapeStyle { _swiftUIStub() }
    public static var tertiary: HierarchicalShapeStyle { _swiftUIStub() }
}

public protocol Shape: Sendable, View {}
public protocol InsettableShape: Shape {}

public struct RoundedRectangle: InsettableShape, _PrimitiveView {
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {}
}

public enum RoundedCornerStyle: Sendable { case circular, continuous }

public struct Image: Equatable, Sendable {
    public enum Interpolation: Sendable { case none, low, medium, high }
    public enum Orientation: UInt8, Sendable { case up, upMirrored, down, downMirrored, left, leftMirrored, right, rightMirrored }
    public enum ResizingMode: Sendable { case tile, stretch }

    public init(_ name: String, bundle: Bundle? = nil) {}
    public init(systemName: String) {}
    public init(_ cgImage: CGImage, scale: CGFloat, orientation: Orientation = .up, label: Text) {}
    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: ResizingMode = .stretch) -> Image { self }
    public func interpolation(_ interpolation: Interpolation) -> Image { self }
}

// Text, images and colours are views by extensions, as in SwiftUI's interface: their own
// declarations are not main-actor isolated (a colour is made anywhere).
extension Text: _PrimitiveView {}
extension Image: _PrimitiveView {}
extension Color: _PrimitiveView {}

/// `enum TextAlignment`.
public enum TextAlignment: Hashable, Sendable { case leading, center, trailing }

public struct EdgeInsets: Equatable, Sendable {
    public init() {}
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {}
}

public struct AsyncImage<Content: View>: _PrimitiveView {
    public init<I: View, P: View>(
        url: URL?, scale: CGFloat = 1, @ViewBuilder content: @escaping (Image) -> I,
        @ViewBuilder placeholder: @escaping () -> P
    ) where Content == _ConditionalContent<I, P> {}
}

public struct Label<Title: View, Icon: View>: _PrimitiveView {
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {}
}

extension Label where Title == Text, Icon == Image {
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, systemImage name: String) {}
}

// MARK: Layout

public struct HorizontalAlignment: Equatable, Sendable {
    public static var leading: HorizontalAlignment { _swiftUIStub() }
    public static var center: HorizontalAlignment { _swiftUIStub() }
    public static var trailing: HorizontalAlignment { _swiftUIStub() }
}

public struct VerticalAlignment: Equatable, Sendable {
    public static var top: VerticalAlignment { _swiftUIStub() }
    public static var center: VerticalAlignment { _swiftUIStub() }
    public static var bottom: VerticalAlignment { _swiftUIStub() }
    public static var firstTextBaseline: VerticalAlignment { _swiftUIStub() }
}

public struct Alignment: Equatable, Sendable {
    public static var leading: Alignment { _swiftUIStub() }
    public static var center: Alignment { _swiftUIStub() }
    public static var trailing: Alignment { _swiftUIStub() }
    public static var top: Alignment { _swiftUIStub() }
    public static var bottom: Alignment { _swiftUIStub() }
}

public enum Edge: Int8, Sendable {
    case top, leading, bottom, trailing
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static var all: Set { .init(rawValue: 15) }
        public static var horizontal: Set { .init(rawValue: 10) }
        public static var vertical: Set { .init(rawValue: 5) }
    }
}

public enum Axis: Int8, Sendable {
    case horizontal, vertical
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static var horizontal: Set { .init(rawValue: 1) }
        public static var vertical: Set { .init(rawValue: 2) }
    }
}

public struct VStack<Content: View>: _PrimitiveView {
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
}

public struct HStack<Content: View>: _PrimitiveView {
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
}

public struct ScrollView<Content: View>: _PrimitiveView {
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {}
}

public struct Group<Content> {
}

extension Group: View, _PrimitiveView where Content: View {
    public init(@ViewBuilder content: () -> Content) {}
}

public struct Spacer: _PrimitiveView {
    public init(minLength: CGFloat? = nil) {}
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {}

extension ForEach: View, _PrimitiveView where Content: View {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

// MARK: Controls

public struct ButtonRole: Equatable, Sendable {
    public static var destructive: ButtonRole { _swiftUIStub() }
    public static var cancel: ButtonRole { _swiftUIStub() }
}

public struct Button<Label: View>: _PrimitiveView {
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public init(role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
}

extension Button where Label == Text {
    public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

public struct TextField<Label: View>: _PrimitiveView {}

extension TextField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

public struct SecureField<Label: View>: _PrimitiveView {}

extension SecureField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

public struct Toggle<Label: View>: _PrimitiveView {}

extension Toggle where Label == Text {
    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
}

public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: _PrimitiveView {}

extension Picker where Label == Text {
    public init(_ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
}

/// `struct Link<Label> where Label: View`: opens its destination (the system's `openURL`).
public struct Link<Label: View>: _PrimitiveView {
    public init(destination: URL, @ViewBuilder label: () -> Label) {}
}

extension Link where Label == Text {
    public init(_ titleKey: LocalizedStringKey, destination: URL) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, destination: URL) {}
}

public struct ProgressView<Label: View, CurrentValueLabel: View>: _PrimitiveView {}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    public init() {}
}

// MARK: Styles

public protocol PrimitiveButtonStyle {}
public struct BorderedButtonStyle: PrimitiveButtonStyle { public init() {} }
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle { public init() {} }
public struct PlainButtonStyle: PrimitiveButtonStyle { public init() {} }

extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
    public static var bordered: BorderedButtonStyle { BorderedButtonStyle() }
}

extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    public static var borderedProminent: BorderedProminentButtonStyle { BorderedProminentButtonStyle() }
}

extension PrimitiveButtonStyle where Self == PlainButtonStyle {
    public static var plain: PlainButtonStyle { PlainButtonStyle() }
}

public struct ButtonBorderShape: Equatable, Sendable {
    public static var automatic: ButtonBorderShape { _swiftUIStub() }
    public static var capsule: ButtonBorderShape { _swiftUIStub() }
    public static var roundedRectangle: ButtonBorderShape { _swiftUIStub() }
    public static func roundedRectangle(radius: CGFloat) -> ButtonBorderShape { _swiftUIStub() }
}

public protocol TextFieldStyle {}
public struct RoundedBorderTextFieldStyle: TextFieldStyle { public init() {} }

extension TextFieldStyle where Self == RoundedBorderTextFieldStyle {
    public static var roundedBorder: RoundedBorderTextFieldStyle { RoundedBorderTextFieldStyle() }
}

public protocol TextSelectability {}
public struct EnabledTextSelectability: TextSelectability {}
public struct DisabledTextSelectability: TextSelectability {}

extension TextSelectability where Self == EnabledTextSelectability {
    public static var enabled: EnabledTextSelectability { EnabledTextSelectability() }
}

extension TextSelectability where Self == DisabledTextSelectability {
    public static var disabled: DisabledTextSelectability { DisabledTextSelectability() }
}

#if !APPLE_STUB_MACOS
    public struct TextInputAutocapitalization: Sendable {
        public static var never: TextInputAutocapitalization { _swiftUIStub() }
        public static var words: TextInputAutocapitalization { _swiftUIStub() }
        public static var sentences: TextInputAutocapitalization { _swiftUIStub() }
        public static var characters: TextInputAutocapitalization { _swiftUIStub() }
    }
#endif

// MARK: Accessibility

public struct AccessibilityChildBehavior: Hashable, Sendable {
    public static var ignore: AccessibilityChildBehavior { _swiftUIStub() }
    public static var contain: AccessibilityChildBehavior { _swiftUIStub() }
    public static var combine: AccessibilityChildBehavior { _swiftUIStub() }
}

public struct AccessibilityTraits: SetAlgebra, Sendable {
    public init() {}
    public static var isHeader: AccessibilityTraits { _swiftUIStub() }
    public static var isButton: AccessibilityTraits { _swiftUIStub() }
    public static var isImage: AccessibilityTraits { _swiftUIStub() }
    public func union(_ other: AccessibilityTraits) -> AccessibilityTraits { self }
    public func intersection(_ other: AccessibilityTraits) -> AccessibilityTraits { self }
    public func symmetricDifference(_ other: AccessibilityTraits) -> AccessibilityTraits { self }
    public func contains(_ member: AccessibilityTraits) -> Bool { false }
    @discardableResult public mutating func insert(_ newMember: AccessibilityTraits) -> (inserted: Bool, memberAfterInsert: AccessibilityTraits) {
        (false, self)
    }
    @discardableResult public mutating func remove(_ member: AccessibilityTraits) -> AccessibilityTraits? { nil }
    @discardableResult public mutating func update(with newMember: AccessibilityTraits) -> AccessibilityTraits? { nil }
    public mutating func formUnion(_ other: AccessibilityTraits) {}
    public mutating func formIntersection(_ other: AccessibilityTraits) {}
    public mutating func formSymmetricDifference(_ other: AccessibilityTraits) {}
    public static func == (lhs: AccessibilityTraits, rhs: AccessibilityTraits) -> Bool { true }
}

// MARK: Time

public protocol TimelineSchedule {}

public struct PeriodicTimelineSchedule: TimelineSchedule {
    public init(from startDate: Date, by interval: TimeInterval) {}
}

extension TimelineSchedule where Self == PeriodicTimelineSchedule {
    public static func periodic(from startDate: Date, by interval: TimeInterval) -> PeriodicTimelineSchedule {
        PeriodicTimelineSchedule(from: startDate, by: interval)
    }
}

/// What a timeline view's content is drawn for: the moment, and how often it changes.
public struct TimelineViewDefaultContext {
    public enum Cadence: Comparable, Sendable { case live, seconds, minutes }
    public var date: Date { _swiftUIStub() }
    public var cadence: Cadence { _swiftUIStub() }
}

public struct TimelineView<Schedule: TimelineSchedule, Content> {}

extension TimelineView: View, _PrimitiveView where Content: View {
    public typealias Context = TimelineViewDefaultContext
    public init(_ schedule: Schedule, @ViewBuilder content: @escaping (TimelineViewDefaultContext) -> Content) {}
}

// MARK: Modifiers

extension View {
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { _ModifiedView(self) }
    public func padding(_ length: CGFloat) -> some View { _ModifiedView(self) }
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View {
        _ModifiedView(self)
    }
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View {
        _ModifiedView(self)
    }
    public func font(_ font: Font?) -> some View { _ModifiedView(self) }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { _ModifiedView(self) }
    public func background<S: ShapeStyle, T: InsettableShape>(_ style: S, in shape: T) -> some View {
        _ModifiedView(self)
    }
    public func tint(_ tint: Color?) -> some View { _ModifiedView(self) }
    public func disabled(_ disabled: Bool) -> some View { _ModifiedView(self) }
    public func opacity(_ opacity: Double) -> some View { _ModifiedView(self) }
    public func scaledToFit() -> some View { _ModifiedView(self) }
    public func tag<V: Hashable>(_ tag: V) -> some View { _ModifiedView(self) }
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { _ModifiedView(self) }
    public func buttonBorderShape(_ shape: ButtonBorderShape) -> some View { _ModifiedView(self) }
    public func textFieldStyle<S: TextFieldStyle>(_ style: S) -> some View { _ModifiedView(self) }
    public func textSelection<S: TextSelectability>(_ selectability: S) -> some View { _ModifiedView(self) }
    public func autocorrectionDisabled(_ disable: Bool = true) -> some View { _ModifiedView(self) }
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View {
        _ModifiedView(self)
    }
    public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { _ModifiedView(self) }
    public func accessibilityHidden(_ hidden: Bool) -> some View { _ModifiedView(self) }
    public func accessibilityLabel(_ label: Text) -> some View { _ModifiedView(self) }
    public func accessibilityLabel(_ labelKey: LocalizedStringKey) -> some View { _ModifiedView(self) }
    @_disfavoredOverload public func accessibilityLabel<S: StringProtocol>(_ label: S) -> some View {
        _ModifiedView(self)
    }
    /// `nonisolated func task(priority:_ action: sending @escaping @isolated(any) () async -> Void)`.
    nonisolated public func task(
        priority: TaskPriority = .userInitiated, _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View {
        _ModifiedView(self)
    }
    /// `nonisolated func task<T: Equatable>(id:priority:_ action: sending @escaping @isolated(any) () async -> Void)`:
    /// restarted when `value` changes.
    nonisolated public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated, _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View {
        _ModifiedView(self)
    }
    /// `onChange(of:initial:_:)` (iOS 17, macOS 14): the old and the new value.
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void)
        -> some View
    {
        _ModifiedView(self)
    }
    public func onAppear(perform action: (() -> Void)? = nil) -> some View { _ModifiedView(self) }
    /// `focused(_:equals:)`: focused while the binding's value equals `value`.
    public func focused<Value: Hashable>(_ binding: FocusState<Value>.Binding, equals value: Value) -> some View {
        _ModifiedView(self)
    }
    /// `onSubmit(of:_:)`: the keyboard's Return in a text field of this view.
    public func onSubmit(of triggers: SubmitTriggers = .text, _ action: @escaping () -> Void) -> some View {
        _ModifiedView(self)
    }
    public func submitLabel(_ submitLabel: SubmitLabel) -> some View { _ModifiedView(self) }
    public func toolbar<Content: ToolbarContent>(@ToolbarContentBuilder content: () -> Content) -> some View {
        _ModifiedView(self)
    }
    public func navigationTitle(_ title: Text) -> some View { _ModifiedView(self) }
    public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { _ModifiedView(self) }
    @_disfavoredOverload public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { _ModifiedView(self) }
    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { _ModifiedView(self) }
    public func onDisappear(perform action: (() -> Void)? = nil) -> some View { _ModifiedView(self) }
}

#if !APPLE_STUB_MACOS
    extension View {
        /// iOS, tvOS, visionOS: the system's autofill for a text input.
        public func textContentType(_ textContentType: UITextContentType?) -> some View { _ModifiedView(self) }
        /// iOS, tvOS, visionOS.
        public func keyboardType(_ type: UIKeyboardType) -> some View { _ModifiedView(self) }
        /// iOS, tvOS, visionOS.
        public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> some View {
            _ModifiedView(self)
        }
    }
#endif

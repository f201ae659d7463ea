import KeywayProtocol

/// How the step kinds this module has no layout for become screens: one mapping per kind, given
/// once and handed to every renderer — KeywayUI's screen model, the CLI, the server's hosted
/// pages — so a new kind looks the same in all of them.
///
/// A kind without a mapping is drawn from its actions and fields; a mapping replaces that (or a
/// known kind's layout). The title, the step's messages and the "Use another method" and
/// "Cancel" buttons are the screen's before and after any mapping.
///
/// ```swift
/// let screens = StepScreens.standard.adding(StepKind(rawValue: "scanBadge")) { step, screen in
///     screen.instruction = "Hold your badge to the reader"
///     screen.addPrimary(from: step, named: "submitBadge")
/// }
/// let screen = Screen(step: step, screens: screens)
/// ```
public struct StepScreens: Sendable {
    /// Draws `step` onto `screen`, which already holds the step's title, messages and links.
    public typealias Mapping = @Sendable (_ step: Step, _ screen: inout Screen) -> Void

    private var mappings: [StepKind: Mapping] = [:]

    /// The layouts this module has, and no others.
    public static let standard = StepScreens()

    /// These mappings, with `mapping` drawing steps of `kind` (in place of any before).
    ///
    /// - Parameters:
    ///   - kind: The step kind.
    ///   - mapping: What draws its steps.
    /// - Returns: The mappings with that kind's.
    public func adding(_ kind: StepKind, _ mapping: @escaping Mapping) -> StepScreens {
        var screens = self
        screens.mappings[kind] = mapping
        return screens
    }

    /// The mapping of `kind`, if one was added.
    ///
    /// - Parameter kind: The step kind.
    public subscript(kind: StepKind) -> Mapping? { mappings[kind] }
}

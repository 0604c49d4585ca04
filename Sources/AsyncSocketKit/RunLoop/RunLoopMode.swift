/// The name of a set of sources and timers that a run loop services together.
///
/// A source or timer registered in some modes is serviced only while its ``EventRunLoop`` runs in one
/// of them. The raw values of ``default`` and ``common`` are CoreFoundation's, so names stored or
/// logged by ported code keep their meaning.
public struct RunLoopMode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The mode's name.
    public let rawValue: String

    /// A mode with the given name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A mode with the given name.
    public init(_ name: String) {
        self.rawValue = name
    }

    /// A mode named by a string literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The mode a loop runs in unless told otherwise (`NSDefaultRunLoopMode`).
    public static let `default` = RunLoopMode(rawValue: "kCFRunLoopDefaultMode")

    /// A pseudo-mode standing for the loop's set of common modes (`NSRunLoopCommonModes`).
    ///
    /// Registering in `.common` means "in every mode of ``EventRunLoop/commonModes``", including
    /// modes added later with ``EventRunLoop/addCommonMode(_:)``. A loop cannot run in `.common` itself.
    public static let common = RunLoopMode(rawValue: "kCFRunLoopCommonModes")

    /// The mode a Cocoa program's run loop runs in while a modal panel is up (`NSModalPanelRunLoopMode`).
    ///
    /// Nothing on Linux runs a loop in this mode by itself: it is here so that ported code which
    /// registers sockets, timers or performs in it (or lists it in `setRunLoopModes:`) keeps its
    /// meaning. Run the loop in it with ``EventRunLoop/run(mode:before:)``, or add it to the common
    /// modes with ``EventRunLoop/addCommonMode(_:)``.
    public static let modalPanel = RunLoopMode(rawValue: "NSModalPanelRunLoopMode")

    /// The mode a Cocoa program's run loop runs in while tracking a mouse drag or a scroll
    /// (`NSEventTrackingRunLoopMode`).
    ///
    /// As with ``modalPanel``, nothing on Linux runs a loop in this mode by itself; the value keeps the
    /// name ported code used, so sockets and timers registered in it are serviced when the loop runs
    /// in it (or in ``common``, once it is one of the common modes).
    public static let eventTracking = RunLoopMode(rawValue: "NSEventTrackingRunLoopMode")

    /// The mode's name.
    public var description: String { rawValue }
}

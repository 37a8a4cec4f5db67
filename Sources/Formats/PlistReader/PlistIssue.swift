/// A problem found while reading a property list.
///
/// `malformed` and `forbidden` issues stop the reading; `structure` issues are reported and reading
/// goes on past the offending element, so that one run finds every problem.
public struct PlistIssue: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The XML is not well-formed (libxml2's own message, line and column).
        case malformed
        /// A construct a promotions file may not use: DTD declarations, entities, external DTDs, or
        /// input beyond the reader's limits.
        case forbidden
        /// Well-formed XML that is not a property list: unknown elements, a key without a value, text
        /// where only elements belong.
        case structure
    }

    public var kind: Kind
    public var message: String
    public var location: SourceLocation

    public init(_ kind: Kind, _ message: String, at location: SourceLocation) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    /// Whether reading stopped at this issue.
    public var isFatal: Bool { kind != .structure }

    public var description: String { "\(location): \(message)" }
}

/// A property list file that could not be read at all (as opposed to one whose content is wrong).
public struct PlistFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): cannot read: \(reason)" }
}

/// Bounds on what the reader accepts, so that hostile input stays cheap. Exceeding one is a
/// `forbidden` issue naming the limit.
public struct PlistLimits: Sendable, Equatable {
    /// Largest file accepted, in bytes.
    public var maxFileSize: Int
    /// Deepest element nesting accepted (`<plist>` counts as one level).
    public var maxDepth: Int
    /// Longest text of one element, in bytes.
    public var maxTextLength: Int
    /// Most elements in one materialized value (one promotion with all its keys and codes).
    public var maxValueElements: Int

    public init(
        maxFileSize: Int = 1 << 30,
        maxDepth: Int = 64,
        maxTextLength: Int = 1 << 20,
        maxValueElements: Int = 1_000_000
    ) {
        self.maxFileSize = maxFileSize
        self.maxDepth = maxDepth
        self.maxTextLength = maxTextLength
        self.maxValueElements = maxValueElements
    }

    public static let `default` = PlistLimits()
}

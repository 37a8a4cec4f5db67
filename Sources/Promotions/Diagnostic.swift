import PlistReader

/// A problem found in a promotions file, with a stable ID, where it is, and what to do about it.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable, Comparable {
        case warning, error

        public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }

    public var rule: DiagnosticRule
    public var severity: Severity
    /// What is wrong and what would be right.
    public var message: String
    /// The offending element's start tag (its line, and column where known).
    public var location: SourceLocation
    /// The id of the promotion the problem belongs to, when known.
    public var promotion: String?
    /// The position in ``PromotionFile/entries`` of the promotion the problem belongs to, if any.
    public var entry: Int?

    public init(_ rule: DiagnosticRule, _ message: String, at location: SourceLocation, promotion: String? = nil) {
        self.rule = rule
        severity = rule.severity
        self.message = message
        self.location = location
        self.promotion = promotion
    }

    public var id: String { rule.id }

    public var description: String { "\(location): \(severity.rawValue): \(message) [\(rule.id)]" }
}

/// One kind of problem: its stable ID (SPEC §8), default severity, and a one-line summary.
public struct DiagnosticRule: Sendable, Hashable {
    public let id: String
    public let severity: Diagnostic.Severity
    public let summary: String

    init(_ id: String, _ severity: Diagnostic.Severity, _ summary: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
    }

    /// Every rule, in the order SPEC §8 lists them.
    public static let all: [DiagnosticRule] = [
        .xmlMalformed, .xmlForbidden, .plistStructure, .missingKey, .unknownKey, .invalidValue, .unknownType,
        .duplicateID, .duplicateKey, .dateRange, .expired, .unknownCode, .noDiscount, .currency, .shadowed,
    ]
}

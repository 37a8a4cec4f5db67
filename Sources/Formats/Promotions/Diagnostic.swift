import PlistReader
import Pricing

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
    /// Other places that explain the problem: the first of two duplicates, the promotion that
    /// shadows another.
    public var notes: [Note] = []

    /// A place related to a diagnostic, and what it is.
    public struct Note: Sendable, Equatable {
        public var message: String
        public var location: SourceLocation

        public init(_ message: String, at location: SourceLocation) {
            self.message = message
            self.location = location
        }
    }

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

/// One kind of problem: its stable ID, default severity, and a one-line summary. Every rule is a
/// case, in the order the documentation lists them; each one's messages live next to it in
/// `Diagnostics/`.
public enum DiagnosticRule: String, CaseIterable, Sendable {
    /// The file is not well-formed XML. Reading stops there; line and column are libxml2's.
    case xmlMalformed = "xml.malformed"
    /// DTD and entity tricks (entity declarations, external DTDs, undeclared entities) and input beyond
    /// the reader's limits. Reading stops there; nothing is ever loaded from outside the file.
    case xmlForbidden = "xml.forbidden"
    /// Well-formed XML that is not the expected property list: unknown elements, keys without values,
    /// a root that is neither an array of promotions nor a dict holding one, a promotion that is not a dict.
    case plistStructure = "plist.structure"
    /// A required key is absent. Reported at the `<dict>` that lacks it.
    case missingKey = "promotion.missing-key"
    /// A key the format does not know (a warning: it is ignored), with the closest known key as a hint.
    case unknownKey = "promotion.unknown-key"
    /// A value of the wrong plist type, out of range, not exact (money not a whole number of minor
    /// units, a percentage not a multiple of 0.01), or a key the promotion's type does not take.
    case invalidValue = "promotion.invalid-value"
    /// `type` names no promotion type.
    case unknownType = "promotion.unknown-type"
    /// Two promotions share an id (an id defaults to the name). Reported at the later one.
    case duplicateID = "promotion.duplicate-id"
    /// A key appears twice in one `<dict>`. Reported at the repeated `<key>`; the first one counts.
    case duplicateKey = "promotion.duplicate-key"
    /// `start` is not before `end`: the promotion could never be active. Reported at `end`.
    case dateRange = "promotion.date-range"
    /// The promotion's window ended at or before the instant checked (`--at`, default now). A warning.
    case expired = "promotion.expired"
    /// A target product code is not in the catalog (checked with `--catalog`). Pricing ignores it.
    case unknownCode = "promotion.unknown-code"
    /// The promotion can never lower the price of a product it targets: a bulk price at or above
    /// the list price, or any discount on a free product. A warning, per product.
    case noDiscount = "promotion.no-discount"
    /// The file states a currency other than the catalog's (or one that is not an ISO 4217 code).
    case currency = "promotion.currency"
    /// With a catalog: a line promotion that another always beats, so that it can never apply.
    case shadowed = "promotion.shadowed"
    /// A coupon-gated promotion whose id or name contains its coupon, which receipts would show.
    case couponExposed = "promotion.coupon-exposed"
    /// With a catalog: a selector's category, brand or tag that no product of the catalog has.
    case unknownAttribute = "promotion.unknown-attribute"
    /// With a catalog: a selector (or an array of them) that selects no product.
    case selectsNothing = "promotion.selects-nothing"

    /// The stable ID: `promotion.invalid-value`.
    public var id: String { rawValue }

    public var severity: Diagnostic.Severity {
        switch self {
        case .xmlMalformed, .xmlForbidden, .plistStructure, .missingKey, .invalidValue, .unknownType, .duplicateID,
            .duplicateKey, .dateRange, .unknownCode, .currency:
            .error
        case .unknownKey, .expired, .noDiscount, .shadowed, .couponExposed, .unknownAttribute, .selectsNothing: .warning
        }
    }

    public var summary: String {
        switch self {
        case .xmlMalformed: "The file is not well-formed XML."
        case .xmlForbidden:
            "The file uses an XML construct a promotions file may not (DTD, entities) or exceeds a limit."
        case .plistStructure: "The property list does not have the structure of a promotions file."
        case .missingKey: "A required key is missing."
        case .unknownKey: "A key is not part of the format and is ignored."
        case .invalidValue: "A value has the wrong type, is out of range, or is not allowed here."
        case .unknownType:
            "The promotion type is not one of " + PromotionType.allCases.map(\.rawValue).joined(separator: ", ") + "."
        case .duplicateID: "Two promotions have the same id."
        case .duplicateKey: "A key appears twice in one dict."
        case .dateRange: "The start date is not before the end date."
        case .expired: "The promotion has ended."
        case .unknownCode: "A product code is not in the catalog."
        case .noDiscount: "The promotion can never lower a price."
        case .currency: "The file's currency does not match the catalog's."
        case .shadowed: "Another promotion always beats this one: it can never apply."
        case .couponExposed: "The promotion's id or name contains its coupon, which receipts and explanations show."
        case .unknownAttribute: "A selector names a category, brand or tag no product of the catalog has."
        case .selectsNothing: "A selector selects no product of the catalog: the promotion can never apply."
        }
    }
}

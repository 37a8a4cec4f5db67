import PlistReader
import Pricing

/// A value of the wrong plist type, out of range, not exact (money not a whole number of minor
/// units, a percentage not a multiple of 0.01), or a key the promotion's type does not take: what
/// exactly, each with the message that says what would be right.
enum InvalidValue: Sendable, Equatable {
    case notAllowed(key: String, type: String)
    case wrongType(key: String, expected: String, PlistKind)
    case empty(key: String)
    case integerOutOfRange(key: String, String)
    case notAWholeNumber(key: String, String)
    case badDate(key: String, String)
    case notPositive(key: String, String)
    case negative(key: String, String)
    case notWholeMinorUnits(key: String, String, Currency)
    case amountOutOfRange(key: String, String, Currency)
    case notAnAmount(key: String, String)
    case percentOutOfRange(String)
    case percentNotHundredths(String)
    case percentNotANumber(String)
    case groupSizeBelowTwo(type: String, Int64)
    case paidOutOfRange(quantity: Int64, paid: Int64)
    case quantityBelowOne(Int64)
    case minimumQuantityBelowOne(Int64)
    case countBelowOne(key: String, meaning: String, Int64)
    case exclusiveKeys(type: String, takes: String, keys: String)
    case percentAndAmount
    case capWithAmount
    case codeAndCodes
    case notAnArrayOfStrings(key: String, PlistKind)
    case elementNotAString(key: String, PlistKind)
    case emptyCode(key: String)
    case emptyList(key: String)
    case boughtAndRewarded(code: String)
    case versionNotAnInteger
    case unsupportedVersion(Int64)
    case currencyNotAString(PlistKind)

    var message: String {
        switch self {
        case .notAllowed(let key, let type):
            "`\(key)` is not allowed in \("aeiou".contains(type.prefix(1)) ? "an" : "a") \(type) promotion; remove it"
        case .wrongType(let key, let expected, let kind): "`\(key)` must be \(expected), not a <\(kind)>"
        case .empty(let key): "`\(key)` must not be empty"
        case .integerOutOfRange(let key, let text): "`\(key)` \(text) is out of range"
        case .notAWholeNumber(let key, let text): "`\(key)` must be a whole number, not \"\(text.escapedForDisplay)\""
        case .badDate(let key, let problem): "`\(key)`: \(problem.escapedForDisplay)"
        case .notPositive(let key, let text): "`\(key)` must be greater than 0, not \(text)"
        case .negative(let key, let text): "`\(key)` must not be negative, not \(text)"
        case .notWholeMinorUnits(let key, let text, let currency):
            "`\(key)` \(text) is not a whole number of minor units of \(currency.code) (\(currency.minorDigitsDescription))"
        case .amountOutOfRange(let key, let text, let currency):
            "`\(key)` \(text) is out of range (the largest amount is \(Amount.largest(minorDigits: currency.minorDigits)))"
        case .notAnAmount(let key, let text):
            "`\(key)` must be a decimal amount such as 19.99, not \"\(text.escapedForDisplay)\""
        case .percentOutOfRange(let text): "`percent` must be greater than 0 and at most 100, not \(text)"
        case .percentNotHundredths(let text): "`percent` must be a multiple of 0.01, not \(text)"
        case .percentNotANumber(let text): "`percent` must be a number such as 12.5, not \"\(text.escapedForDisplay)\""
        case .groupSizeBelowTwo(let type, let n):
            "`quantity` of a \(type) is the group size and must be at least 2, not \(n)"
        case .paidOutOfRange(let n, let m): "`paid` must be from 0 to \(n - 1) (less than `quantity`, \(n)), not \(m)"
        case .quantityBelowOne(let value): "`quantity` must be at least 1, not \(value)"
        case .minimumQuantityBelowOne(let value):
            "`quantity` is the minimum quantity and must be at least 1, not \(value)"
        case .countBelowOne(let key, let meaning, let value):
            "`\(key)` is \(meaning) and must be at least 1, not \(value)"
        case .exclusiveKeys(let type, let takes, let keys): "\(type) takes \(takes) \(keys), not several; remove one"
        case .percentAndAmount: "a cart promotion takes `percent` or `amount`, not both; remove one"
        case .capWithAmount: "`cap` bounds a percentage; a cart promotion with `amount` cannot take it; remove it"
        case .codeAndCodes: "give `code` or `codes`, not both; remove one"
        case .notAnArrayOfStrings(let key, let kind): "`\(key)` must be an <array> of <string>s, not a <\(kind)>"
        case .elementNotAString(let key, let kind): "each of `\(key)` must be a <string>, not a <\(kind)>"
        case .emptyCode(let key): "a product code in `\(key)` must not be empty"
        case .emptyList(let key): "`\(key)` must list at least one product code"
        case .boughtAndRewarded(let code):
            "`\(code.escapedForDisplay)` is both bought (`code`/`codes`) and rewarded (`targets`); a code may be in only one of them"
        case .versionNotAnInteger: "`version` must be the <integer> 1"
        case .unsupportedVersion(let version):
            "`version` \(version) is not supported; 1 is the only version of the format"
        case .currencyNotAString(let kind): "`currency` must be a <string> such as EUR, not a <\(kind)>"
        }
    }
}

extension Diagnostic {
    static func invalidValue(_ problem: InvalidValue, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(.invalidValue, problem.message, at: location, promotion: promotion)
    }
}

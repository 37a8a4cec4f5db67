/// An ISO 4217 currency: its three-letter code and how many decimal places its minor unit has.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// Three upper-case ASCII letters, such as `EUR`.
    public let code: String
    /// Decimal places of the minor unit: 2 for EUR (cents), 0 for JPY, 3 for KWD.
    public let minorDigits: Int

    /// The currency with this code, or nil when `code` is not three upper-case ASCII letters.
    public init?(code: String) {
        let bytes = Array(code.utf8)
        guard bytes.count == 3, bytes.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            return nil
        }
        self.code = code
        minorDigits = Currency.zeroDigitCodes.contains(code) ? 0 : Currency.threeDigitCodes.contains(code) ? 3 : 2
    }

    /// The euro, the catalog's currency when it names none.
    public static let euro = Currency(code: "EUR")!

    static let zeroDigitCodes: Set<String> = ["JPY", "KRW", "CLP", "ISK"]
    static let threeDigitCodes: Set<String> = ["BHD", "KWD", "OMR", "TND", "JOD", "IQD", "LYD"]

    public var description: String { code }

    /// "2 decimal places", for messages.
    public var minorDigitsDescription: String {
        minorDigits == 1 ? "1 decimal place" : "\(minorDigits) decimal places"
    }
}

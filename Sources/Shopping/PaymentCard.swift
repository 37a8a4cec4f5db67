import Pricing

/// Card details, checked before any charge: a Luhn-valid number of 12 to 19 digits, an `MM/YY`
/// expiry not in the past, a CVC of 3 or 4 digits. The number and CVC are kept in memory for the
/// charge only: nothing else ever shows or stores more than ``masked``.
public struct PaymentCard: Sendable {
    public let number: String
    public let expiryMonth: Int
    public let expiryYear: Int
    public let cvc: String

    /// `•••• 4242`.
    public var masked: String { "•••• " + String(number.suffix(4)) }

    /// Why card details were refused.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Checks the details; spaces and dashes in the number are ignored.
    public init(number: String, expiry: String, cvc: String, now: Instant) throws(Problem) {
        let digits = number.filter { $0 != " " && $0 != "-" }
        guard (12...19).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw Problem(description: "the card number must have 12 to 19 digits")
        }
        guard PaymentCard.luhn(digits) else { throw Problem(description: "the card number is not valid (check digit)") }
        let parts = expiry.split(separator: "/")
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let month = Int(parts[0]), let year = Int(parts[1]),
              (1...12).contains(month)
        else { throw Problem(description: "the expiry must be MM/YY, such as 04/28") }
        // Valid through the last day of the expiry month (UTC).
        let (currentYear, currentMonth) = PaymentCard.yearAndMonth(of: now)
        guard 2000 + year > currentYear || (2000 + year == currentYear && month >= currentMonth) else {
            throw Problem(description: "the card expired at the end of \(parts[0])/\(parts[1])")
        }
        guard (3...4).contains(cvc.count), cvc.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw Problem(description: "the CVC must be 3 or 4 digits")
        }
        self.number = digits
        expiryMonth = month
        expiryYear = 2000 + year
        self.cvc = cvc
    }

    /// The Luhn check digit test.
    public static func luhn(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            guard let digit = character.wholeNumberValue else { return false }
            let value = index % 2 == 1 ? digit * 2 : digit
            sum += value > 9 ? value - 9 : value
        }
        return sum % 10 == 0
    }

    static func yearAndMonth(of instant: Instant) -> (Int, Int) {
        // "2026-11-21T…": the RFC 3339 text in UTC gives the year and month.
        let text = instant.description
        return (Int(text.prefix(4)) ?? 0, Int(text.dropFirst(5).prefix(2)) ?? 0)
    }
}

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
        self.number = try Self.checkNumber(number)
        (expiryMonth, expiryYear) = try Self.checkExpiry(expiry, now: now)
        self.cvc = try Self.checkCVC(cvc)
    }

    /// A card number: 12 to 19 digits with a valid check digit (spaces and dashes ignored). Returns the digits.
    public static func checkNumber(_ number: String) throws(Problem) -> String {
        let digits = number.filter { $0 != " " && $0 != "-" }
        guard (12...19).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw Problem(description: "the card number must have 12 to 19 digits")
        }
        guard PaymentCard.luhn(digits) else { throw Problem(description: "the card number is not valid (check digit)") }
        return digits
    }

    /// An `MM/YY` expiry, valid through the last day of its month (UTC). Returns the month and the year.
    public static func checkExpiry(_ expiry: String, now: Instant) throws(Problem) -> (month: Int, year: Int) {
        let parts = expiry.split(separator: "/")
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let month = Int(parts[0]),
            let year = Int(parts[1]),
            (1...12).contains(month)
        else { throw Problem(description: "the expiry must be MM/YY, such as 04/28") }
        let (currentYear, currentMonth) = PaymentCard.yearAndMonth(of: now)
        guard 2000 + year > currentYear || (2000 + year == currentYear && month >= currentMonth) else {
            throw Problem(description: "the card expired at the end of \(parts[0])/\(parts[1])")
        }
        return (month, 2000 + year)
    }

    /// A CVC: 3 or 4 digits.
    public static func checkCVC(_ cvc: String) throws(Problem) -> String {
        guard (3...4).contains(cvc.count), cvc.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw Problem(description: "the CVC must be 3 or 4 digits")
        }
        return cvc
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

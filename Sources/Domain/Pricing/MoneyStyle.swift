/// Amounts with their currency's symbol: `7.50 €`, `$7.50`, `¥1200`, `3.375 KWD`.
public struct MoneyStyle: Sendable {
    public let currency: Currency

    public init(currency: Currency) {
        self.currency = currency
    }

    public func format(_ amount: Int64) -> String {
        var number = Amount.format(amount, minorDigits: currency.minorDigits)
        let sign = amount < 0 ? "-" : ""
        if amount < 0 { number.removeFirst() }
        switch currency.code {
        case "EUR": return "\(sign)\(number) €"
        case "USD": return "\(sign)$\(number)"
        case "GBP": return "\(sign)£\(number)"
        case "JPY": return "\(sign)¥\(number)"
        default: return "\(sign)\(number) \(currency.code)"
        }
    }
}

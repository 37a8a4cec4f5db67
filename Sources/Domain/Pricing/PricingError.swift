/// Why a cart cannot be priced. Nothing is priced when one occurs.
public enum PricingError: Error, Equatable, Sendable {
    /// The cart states a currency other than the catalog's.
    case currencyMismatch(cart: String, catalog: String)
    /// A line's quantity × unit price does not fit in a signed 64-bit count of minor units.
    case lineOverflow(code: String, quantity: Int64, unitPrice: Int64, currency: Currency)
    /// The cart's subtotal does not fit in a signed 64-bit count of minor units.
    case subtotalOverflow(currency: Currency)
    /// The cart's total with the tax added (prices without tax) does not fit.
    case totalOverflow(currency: Currency)
}

extension PricingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .currencyMismatch(let cart, let catalog):
            "the cart is in \(cart) but the catalog is in \(catalog); remove the cart's currency or price it with a \(cart) catalog"
        case .lineOverflow(let code, let quantity, let unitPrice, let currency):
            "\"\(code)\": \(quantity) × \(Amount.format(unitPrice, minorDigits: currency.minorDigits)) exceeds the largest amount, "
                + Amount.largest(minorDigits: currency.minorDigits)
        case .subtotalOverflow(let currency):
            "the cart's subtotal exceeds the largest amount, \(Amount.largest(minorDigits: currency.minorDigits))"
        case .totalOverflow(let currency):
            "the cart's total with tax exceeds the largest amount, \(Amount.largest(minorDigits: currency.minorDigits))"
        }
    }
}

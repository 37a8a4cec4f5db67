import Pricing
import StrictJSON

/// The receipt JSON of the contract written the plain way, member by member with ``JSONWriter``: the
/// reference the fast ``ReceiptEncoder`` is compared with.
enum ReferenceReceiptJSON {
    static func render(_ receipt: Receipt, pretty: Bool = false) -> String {
        let out = JSONWriter(pretty: pretty)
        let digits = receipt.currency.minorDigits
        func amount(_ value: Int64) { out.string(Amount.format(value, minorDigits: digits)) }
        func promotion(_ applied: AppliedPromotion?, units: Bool = false) {
            guard let applied else { return out.raw("null") }
            out.object {
                out.member("id") { out.string(applied.id) }
                out.member("name") { out.string(applied.name) }
                out.member("type") { out.string(applied.type.rawValue) }
                out.member("discount") { amount(applied.discount) }
                if units { out.member("units") { out.raw(String(applied.units)) } }
            }
        }
        out.object {
            switch receipt.id {
            case .string(let text)?: out.member("id") { out.string(text) }
            case .integer(let digits)?: out.member("id") { out.raw(digits) }
            case nil: break
            }
            out.member("currency") { out.string(receipt.currency.code) }
            out.member("at") { out.string(receipt.at.description) }
            out.member("lines") {
                out.array(receipt.lines) { line in
                    out.object {
                        out.member("code") { out.string(line.code) }
                        out.member("name") { out.string(line.name) }
                        // docs/receipts.md#lines: a product's rate, a percent with two decimals,
                        // after its name.
                        if let rate = line.taxRate {
                            out.member("tax_rate") { out.string(Amount.format(rate, minorDigits: 2)) }
                        }
                        out.member("quantity") { out.raw(String(line.quantity)) }
                        out.member("unit_price") { amount(line.unitPrice) }
                        out.member("subtotal") { amount(line.subtotal) }
                        out.member("discount") { amount(line.discount) }
                        out.member("total") { amount(line.total) }
                        out.member("promotion") { promotion(line.promotion) }
                        out.member("cart_discount") { amount(line.cartDiscount) }
                        out.member("promotions") { out.array(Array(line.promotions)) { promotion($0, units: true) } }
                    }
                }
            }
            out.member("cart_promotion") { promotion(receipt.cartPromotion) }
            out.member("subtotal") { amount(receipt.subtotal) }
            out.member("item_discount") { amount(receipt.itemDiscount) }
            out.member("cart_discount") { amount(receipt.cartDiscount) }
            out.member("discount") { amount(receipt.discount) }
            out.member("total") { amount(receipt.total) }
            if let taxes = receipt.taxes {
                out.member("tax") { amount(taxes.tax) }
                out.member("taxes") {
                    out.array(taxes.rates) { entry in
                        out.object {
                            out.member("rate") { out.string(Amount.format(entry.rate, minorDigits: 2)) }
                            out.member("base") { amount(entry.base) }
                            out.member("tax") { amount(entry.tax) }
                        }
                    }
                }
            }
            out.member("warnings") { out.array(receipt.warnings) { out.string($0.description) } }
        }
        return out.text
    }
}

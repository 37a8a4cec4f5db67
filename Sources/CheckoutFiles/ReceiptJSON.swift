import Pricing
import StrictJSON

/// The receipt as JSON, exactly as SPEC §7 shows it: keys in that order, amounts as decimal
/// strings with the currency's minor digits, quantities as integers.
public enum ReceiptJSON {
    /// One document; `pretty` indents it by two spaces, otherwise it is one line (for NDJSON).
    public static func render(_ receipt: Receipt, pretty: Bool = false) -> String {
        let out = JSONWriter(pretty: pretty)
        write(receipt, to: out)
        return out.text
    }

    /// `{"line": N, "error": "..."}`: a cart of a batch that could not be priced.
    public static func renderError(line: Int, message: String) -> String {
        let out = JSONWriter(pretty: false)
        out.object {
            out.member("line") { out.raw(String(line)) }
            out.member("error") { out.string(message) }
        }
        return out.text
    }

    static func write(_ receipt: Receipt, to out: JSONWriter) {
        let digits = receipt.currency.minorDigits
        func amount(_ value: Int64) { out.string(Amount.format(value, minorDigits: digits)) }
        func promotion(_ applied: AppliedPromotion?) {
            guard let applied else { return out.raw("null") }
            out.object {
                out.member("id") { out.string(applied.id) }
                out.member("name") { out.string(applied.name) }
                out.member("type") { out.string(applied.type) }
                out.member("discount") { amount(applied.discount) }
            }
        }
        out.object {
            out.member("currency") { out.string(receipt.currency.code) }
            out.member("at") { out.string(receipt.at.description) }
            out.member("lines") {
                out.array(receipt.lines) { line in
                    out.object {
                        out.member("code") { out.string(line.code) }
                        out.member("name") { out.string(line.name) }
                        out.member("quantity") { out.raw(String(line.quantity)) }
                        out.member("unit_price") { amount(line.unitPrice) }
                        out.member("subtotal") { amount(line.subtotal) }
                        out.member("discount") { amount(line.discount) }
                        out.member("total") { amount(line.total) }
                        out.member("promotion") { promotion(line.promotion) }
                        out.member("cart_discount") { amount(line.cartDiscount) }
                    }
                }
            }
            out.member("cart_promotion") { promotion(receipt.cartPromotion) }
            out.member("subtotal") { amount(receipt.subtotal) }
            out.member("item_discount") { amount(receipt.itemDiscount) }
            out.member("cart_discount") { amount(receipt.cartDiscount) }
            out.member("discount") { amount(receipt.discount) }
            out.member("total") { amount(receipt.total) }
            out.member("warnings") { out.array(receipt.warnings) { out.string($0) } }
        }
    }
}

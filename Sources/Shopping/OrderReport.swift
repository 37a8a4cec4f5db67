import Pricing
import Receipts
import StrictJSON

/// What paying and listing orders print, as text for people or JSON for scripts.
public enum OrderReport {
    /// The outcome of a payment.
    public static func payment(_ result: CheckoutService.PaymentResult, json: Bool) -> String {
        switch result {
        case .approved(let order):
            guard json else {
                return
                    "Payment approved: order #\(order.number), \(MoneyStyle(currency: order.currency).format(order.total)), card \(order.card) (reference \(order.reference)).\n"
            }
            let out = JSONWriter(pretty: true)
            out.object {
                out.member("status") { out.string("approved") }
                out.member("order") { out.raw(String(order.number)) }
                out.member("total") { out.string(Amount.format(order.total, minorDigits: order.currency.minorDigits)) }
                out.member("currency") { out.string(order.currency.code) }
                out.member("card") { out.string(order.card) }
                out.member("reference") { out.string(order.reference) }
            }
            return out.text + "\n"
        case .declined(let reason):
            guard json else { return "Payment declined: \(reason). The cart is kept.\n" }
            let out = JSONWriter(pretty: true)
            out.object {
                out.member("status") { out.string("declined") }
                out.member("reason") { out.string(reason) }
            }
            return out.text + "\n"
        case .emptyCart:
            guard json else { return "" }
            let out = JSONWriter(pretty: true)
            out.object {
                out.member("status") { out.string("empty-cart") }
            }
            return out.text + "\n"
        }
    }

    /// Card details refused before any charge, as JSON.
    public static func invalidCard(_ problem: String) -> String {
        let out = JSONWriter(pretty: true)
        out.object {
            out.member("status") { out.string("invalid-card") }
            out.member("error") { out.string(problem) }
        }
        return out.text + "\n"
    }

    /// Completed orders, oldest first: in aligned columns (amounts right-aligned) fitted to `style`'s width.
    public static func orders(_ orders: [OrderRecord], json: Bool, style: TextStyle = .plain) -> String {
        guard json else {
            if orders.isEmpty { return "No orders yet.\n" }
            var table = TextTable([.left, .left, .right, .left, .left], stretchable: 4, 1, 3)
            for order in orders {
                table.add([
                    "#\(order.number)", order.at.description, MoneyStyle(currency: order.currency).format(order.total),
                    order.card, order.reference
                ])
            }
            return table.render(width: style.width).map { $0 + "\n" }.joined()
        }
        let out = JSONWriter(pretty: true)
        out.object {
            out.member("orders") {
                out.array(orders) { order in
                    out.object {
                        out.member("order") { out.raw(String(order.number)) }
                        out.member("at") { out.string(order.at.description) }
                        out.member("total") {
                            out.string(Amount.format(order.total, minorDigits: order.currency.minorDigits))
                        }
                        // A taxed order's tax, as its receipt recorded it (docs/taxes.md).
                        if case .string(let tax)? = try? JSONParser().parse(order.receiptJSON)["tax"] {
                            out.member("tax") { out.string(tax) }
                        }
                        out.member("currency") { out.string(order.currency.code) }
                        out.member("card") { out.string(order.card) }
                        out.member("reference") { out.string(order.reference) }
                        out.member("receipt") { out.raw(order.receiptJSON) }
                    }
                }
            }
        }
        return out.text + "\n"
    }
}

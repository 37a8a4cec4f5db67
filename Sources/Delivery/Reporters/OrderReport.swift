import Pricing
import Receipts
import Shopping
import StrictJSON

/// What paying and listing orders print, as text for people or JSON for scripts.
public enum OrderReport {
    /// The outcome of a payment, after the interrupted orders it recovered first.
    public static func payment(_ payment: CheckoutService.Payment, json: Bool) -> String {
        guard json else {
            return payment.recovered.map(recoveredLine).joined() + paymentLine(payment.result)
        }
        let out = JSONWriter(pretty: true)
        out.object {
            switch payment.result {
            case .approved(let order):
                out.member("status") { out.string("approved") }
                out.member("order") { out.raw(String(order.number)) }
                out.member("total") { out.string(Amount.format(order.total, minorDigits: order.currency.minorDigits)) }
                out.member("currency") { out.string(order.currency.code) }
                out.member("card") { out.string(order.card) }
                out.member("reference") { out.string(order.reference) }
            case .declined(let reason):
                out.member("status") { out.string("declined") }
                out.member("reason") { out.string(reason) }
            case .emptyCart:
                out.member("status") { out.string("empty-cart") }
            case .inProgress:
                out.member("status") { out.string("in-progress") }
            }
            recoveredMember(payment.recovered, out)
        }
        return out.text + "\n"
    }

    static func paymentLine(_ result: CheckoutService.PaymentResult) -> String {
        switch result {
        case .approved(let order):
            "Payment approved: order #\(order.number), \(MoneyStyle(currency: order.currency).format(order.total)), card \(order.card) (reference \(order.reference)).\n"
        case .declined(let reason): "Payment declined: \(reason). The cart is kept.\n"
        case .emptyCart, .inProgress: ""
        }
    }

    /// An order an interrupted payment charged, recorded now: never worded as a new approval.
    static func recoveredLine(_ order: OrderRecord) -> String {
        "Recovered order #\(order.number): an interrupted payment had charged \(MoneyStyle(currency: order.currency).format(order.total)) to card \(order.card) (reference \(order.reference)); it is recorded now, nothing was charged again.\n"
    }

    static func recoveredMember(_ recovered: [OrderRecord], _ out: JSONWriter) {
        out.member("recovered") {
            out.array(recovered) { order in out.raw(String(order.number)) }
        }
    }

    /// A charge that went through while its order could not be recorded: as JSON, with what was
    /// charged and the words of `description`.
    public static func chargedButUnrecorded(_ failure: CheckoutService.ChargedButUnrecorded) -> String {
        let out = JSONWriter(pretty: true)
        out.object {
            out.member("status") { out.string("charged-not-recorded") }
            out.member("total") {
                out.string(Amount.format(failure.total, minorDigits: failure.currency.minorDigits))
            }
            out.member("currency") { out.string(failure.currency.code) }
            out.member("card") { out.string(failure.card) }
            out.member("reference") { out.string(failure.reference) }
            out.member("error") { out.string(failure.description) }
            recoveredMember(failure.recovered, out)
        }
        return out.text + "\n"
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

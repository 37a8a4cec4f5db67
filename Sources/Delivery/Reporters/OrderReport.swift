import Pricing
import Receipts
import Shopping
import StrictJSON

/// What paying and listing orders print, as text for people or JSON for scripts.
public enum OrderReport {
    /// The outcome of a payment, after the interrupted orders it recovered first.
    public static func payment(_ payment: CheckoutService.Payment, json: Bool) -> String {
        guard json else {
            return recoveredLines(payment.recovered) + paymentLine(payment.result)
                + exhaustedLine(payment)
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
            case .totalChanged(let total, let expected, let currency):
                out.member("status") { out.string("total-changed") }
                out.member("total") { out.string(Amount.format(total, minorDigits: currency.minorDigits)) }
                out.member("expected") { out.string(Amount.format(expected, minorDigits: currency.minorDigits)) }
                out.member("currency") { out.string(currency.code) }
            }
            exhaustedMember(payment.exhausted.map(\.id), out)
            recoveredMember(payment.recovered, out)
        }
        return out.text + "\n"
    }

    static func paymentLine(_ result: CheckoutService.PaymentResult) -> String {
        switch result {
        case .approved(let order):
            "Payment approved: order #\(order.number), \(MoneyStyle(currency: order.currency).format(order.total)), card \(order.card) (reference \(order.reference)).\n"
        case .declined(let reason): "Payment declined: \(reason). The cart is kept.\n"
        case .totalChanged(let total, let expected, let currency):
            "Total changed: the cart comes to \(MoneyStyle(currency: currency).format(total)), not the expected \(MoneyStyle(currency: currency).format(expected)). Nothing was charged.\n"
        case .emptyCart, .inProgress: ""
        }
    }

    /// The used-up promotions that raised a payment's total, named, when there are any.
    static func exhaustedLine(_ payment: CheckoutService.Payment) -> String {
        guard !payment.exhausted.isEmpty else { return "" }
        switch payment.result {
        case .approved, .declined, .totalChanged: return "Not applied: " + exhaustedWords(payment.exhausted) + ".\n"
        case .emptyCart, .inProgress: return ""
        }
    }

    /// The used-up promotions, named: `"A" has reached its usage limit`.
    public static func exhaustedWords(_ promotions: [CheckoutService.UsedUpPromotion]) -> String {
        CheckoutService.UsedUpPromotion.words(promotions)
    }

    static func exhaustedMember(_ ids: [String], _ out: JSONWriter) {
        out.member("exhausted") { out.array(ids) { out.string($0) } }
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
            exhaustedMember(failure.exhausted, out)
            recoveredMember(failure.recovered, out)
        }
        return out.text + "\n"
    }

    /// Card details refused before any charge, as JSON, with the interrupted payments' orders
    /// recorded before the card was read.
    public static func invalidCard(_ problem: String, recovered: [OrderRecord] = []) -> String {
        let out = JSONWriter(pretty: true)
        out.object {
            out.member("status") { out.string("invalid-card") }
            out.member("error") { out.string(problem) }
            exhaustedMember([], out)
            recoveredMember(recovered, out)
        }
        return out.text + "\n"
    }

    /// `Recovered order #1: …`, a line per order an interrupted payment had charged, recorded now.
    public static func recoveredLines(_ recovered: [OrderRecord]) -> String {
        recovered.map(recoveredLine).joined()
    }

    /// Completed orders, oldest first: in aligned columns (amounts right-aligned) fitted to `style`'s width.
    public static func orders(_ orders: [OrderRecord], json: Bool, style: TextStyle = .plain) -> String {
        guard json else {
            if orders.isEmpty { return "No orders yet.\n" }
            // The customer and the promotions redeemed, in columns of their own when any order has them.
            let customers = orders.contains { $0.customer != nil }
            let promotions = orders.contains { !$0.promotions.isEmpty }
            var alignments: [TextTable.Alignment] = [.left, .left, .right, .left, .left]
            if customers { alignments.append(.left) }
            if promotions { alignments.append(.left) }
            var table = TextTable(alignments, stretchable: 4, 1, 3)
            // The extra columns give way first, the last first.
            table.stretchable = Array((5..<alignments.count).reversed()) + table.stretchable
            for order in orders {
                var row = [
                    "#\(order.number)", order.at.description, MoneyStyle(currency: order.currency).format(order.total),
                    order.card, order.reference
                ]
                if customers { row.append(order.customer.map { $0.forDisplay(limit: 40) } ?? "-") }
                if promotions { row.append(order.promotions.map { $0.forDisplay(limit: 40) }.joined(separator: ", ")) }
                table.add(row)
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
                        out.member("customer") {
                            if let customer = order.customer { out.string(customer) } else { out.raw("null") }
                        }
                        out.member("promotions") { out.array(order.promotions) { out.string($0) } }
                        out.member("receipt") { out.raw(order.receiptJSON) }
                    }
                }
            }
        }
        return out.text + "\n"
    }
}

import Explanations
import Pricing
import Receipts

/// A priced cart as the cart and checkout screens show it: every line, each discount and why,
/// and the totals, as formatted text. Text that came from input (codes, names) is escaped for
/// display (`String.forDisplay`): a name in the catalog or the promotions file cannot start a line
/// of its own, colour a terminal or reorder what follows it.
public struct ReceiptScreen: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        public var code: String
        public var name: String
        public var quantity: Int64
        public var unitPrice: String
        public var subtotal: String
        /// Every item promotion that used units of the line, in the order applied:
        /// `VOUCHER 2x1: -5.00 €`, or `1 part of "Buy a T-shirt, get a mug free"` for units that
        /// earned nothing here (a buy-X-get-Y's triggers).
        public var discounts: [Discount]
        public var total: String

        /// The line's first discount, when it has one (most lines have at most one).
        public var discount: Discount? { discounts.first }
    }

    /// A promotion's part in a line: what it is, and what it saved there (nil for units that
    /// earned nothing here). Its text is `VOUCHER 2x1: -5.00 €`; a view may lay the amount out in a
    /// column of its own, which is never shortened.
    public struct Discount: Sendable, Equatable, CustomStringConvertible {
        public var label: String
        public var amount: String?

        public init(label: String, amount: String? = nil) {
            self.label = label
            self.amount = amount
        }

        public var description: String { amount.map { "\(label): \($0)" } ?? label }
    }

    public var lines: [Line]
    /// `Spring sale: -7.45 €`, when a cart promotion applies.
    public var cartDiscount: Discount?
    public var subtotal: String
    /// Σ the item promotions' discounts, when they saved anything (the cart promotion's is
    /// `cartDiscount`).
    public var itemDiscount: String?
    /// Everything saved, when anything was.
    public var saved: String?
    public var total: String
    /// `VAT 21% on 66.07 €: 13.88 €`, one per rate, ascending (docs/taxes.md); empty without taxes.
    public var taxes: [String]
    /// Whether the tax is added to the total (prices without tax): its rows then come before the
    /// total, else after it.
    public var taxAddedToTotal: Bool
    public var warnings: [String]
    /// Near misses: `Add 1 more TSHIRT (Cabify T-Shirt) to get "TSHIRT 3+": save 3.00 €.`
    public var hints: [String]

    public init(_ receipt: Receipt, hints: [Hint] = []) {
        let money = MoneyStyle(currency: receipt.currency)
        lines = receipt.lines.map { line in
            Line(
                code: line.code.forDisplay(), name: line.name.forDisplay(), quantity: line.quantity,
                unitPrice: money.format(line.unitPrice),
                subtotal: money.format(line.subtotal),
                discounts: line.promotions.map { promotion in
                    promotion.discount == 0
                        ? Discount(label: "\(promotion.units) part of \"\(promotion.name.forDisplay())\"")
                        : Discount(label: promotion.name.forDisplay(), amount: money.format(-promotion.discount))
                },
                total: money.format(line.subtotal - line.itemDiscount))
        }
        cartDiscount = receipt.cartPromotion.map {
            Discount(label: $0.name.forDisplay(), amount: money.format(-$0.discount))
        }
        subtotal = money.format(receipt.subtotal)
        itemDiscount = receipt.itemDiscount > 0 ? money.format(-receipt.itemDiscount) : nil
        saved = receipt.discount > 0 ? money.format(receipt.discount) : nil
        total = money.format(receipt.total)
        taxes = ReceiptText.taxRows(receipt, money: money).map { "\($0.0): \(money.format($0.1))" }
        taxAddedToTotal = receipt.taxes.map { !$0.pricesIncludeTax } ?? false
        warnings = receipt.warnings.map(\.description.withoutControlCharacters)
        self.hints = hints.map { ReceiptText.hint($0, money: money) }
    }
}

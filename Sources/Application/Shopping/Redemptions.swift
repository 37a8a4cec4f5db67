import Pricing
import StrictJSON

/// Which promotions an order redeems (docs/store.md, "Usage limits"): those whose whole discount in
/// its cart is positive, one redemption per order however many lines or groups it used.
public enum Redemptions {
    /// The promotions `receipt` redeems, in `order` (a promotion's place in the file), else in the
    /// order they first appear.
    public static func redeemed(by receipt: Receipt, order: [String: Int] = [:]) -> [String] {
        var discounts: [(id: String, discount: Int64)] = []
        func add(_ id: String, _ discount: Int64) {
            if let index = discounts.firstIndex(where: { $0.id == id }) {
                discounts[index].discount &+= discount
            } else {
                discounts.append((id, discount))
            }
        }
        for line in receipt.lines {
            for promotion in line.promotions { add(promotion.id, promotion.discount) }
        }
        if let cart = receipt.cartPromotion { add(cart.id, cart.discount) }
        return sorted(discounts.filter { $0.discount > 0 }.map(\.id), by: order)
    }

    /// The promotions a recorded receipt (its JSON, docs/receipts.md) redeems, in the order they
    /// first appear: for orders recorded before the ledger. A receipt without per-line `promotions`
    /// (an old one) is read through each line's `promotion`.
    public static func redeemed(byReceiptJSON text: String) -> [String] {
        guard let receipt = try? JSONParser().parse(text) else { return [] }
        var discounts: [(id: String, discount: Int64)] = []
        func add(_ entry: JSONValue?) {
            guard case .string(let id)? = entry?["id"], case .string(let amount)? = entry?["discount"] else { return }
            let discount = minorUnits(amount)
            if let index = discounts.firstIndex(where: { $0.id == id }) {
                discounts[index].discount &+= discount
            } else {
                discounts.append((id, discount))
            }
        }
        if case .array(let lines)? = receipt["lines"] {
            for line in lines {
                if case .array(let promotions)? = line["promotions"] {
                    for promotion in promotions { add(promotion) }
                } else {
                    add(line["promotion"])
                }
            }
        }
        add(receipt["cart_promotion"])
        return discounts.filter { $0.discount > 0 }.map(\.id)
    }

    /// `"5.00"` → 500: a receipt's amounts share its currency's minor digits, so the digits alone
    /// compare and add. Anything that is not such an amount counts as nothing.
    static func minorUnits(_ amount: String) -> Int64 {
        let negative = amount.hasPrefix("-")
        let digits = (negative ? amount.dropFirst() : Substring(amount)).filter { $0 != "." }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(digits) else {
            return 0
        }
        return negative ? -value : value
    }

    /// `ids` in the order `order` gives them (unknown ones last, as they came).
    static func sorted(_ ids: [String], by order: [String: Int]) -> [String] {
        guard !order.isEmpty else { return ids }
        return ids.enumerated().sorted { a, b in
            (order[a.element] ?? Int.max, a.offset) < (order[b.element] ?? Int.max, b.offset)
        }.map(\.element)
    }

    /// The ids of the limited promotions of `rules`, in file order: the ones a ledger is read for.
    public static func limitedIDs(_ rules: RuleSet) -> [String] {
        rules.promotions.filter(\.isLimited).map(\.id)
    }

    /// Each promotion's place in the file, by id.
    public static func fileOrder(_ rules: RuleSet) -> [String: Int] {
        var order: [String: Int] = [:]
        for (index, promotion) in rules.promotions.enumerated() where order[promotion.id] == nil {
            order[promotion.id] = index
        }
        return order
    }
}

/// Which customers' redemptions a ledger read counts per customer.
public enum CustomerScope: Sendable, Equatable {
    /// One customer's (none for the anonymous customer, whose orders count only toward `uses`).
    case one(String?)
    /// Every customer's: for pricing many carts of many customers at once.
    case all
}

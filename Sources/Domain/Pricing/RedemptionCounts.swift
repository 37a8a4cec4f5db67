/// How often limited promotions were redeemed, as the store's ledger holds it (docs/store.md,
/// "Usage limits"): per promotion id, the orders (committed or held) that redeemed it, all customers
/// together and per customer id (compared byte for byte: two spellings of "José" are two
/// customers). Read once before pricing; the carts of one call do not count against each other.
public struct RedemptionCounts: Sendable, Equatable {
    public var orders: [String: Int64]
    public var ordersByCustomer: [ExactText: [String: Int64]]

    public init(orders: [String: Int64] = [:], ordersByCustomer: [ExactText: [String: Int64]] = [:]) {
        self.orders = orders
        self.ordersByCustomer = ordersByCustomer
    }

    /// The counts without one order's redemptions (`promotions`, by its `customer`), which they
    /// include: for an order the next payment will release. Only the counts held here change; a
    /// count that comes to zero is dropped, as the store never gives one.
    public mutating func release(_ promotions: [String], customer: String?) {
        let key = customer.map { ExactText($0) }
        for promotion in promotions {
            if let count = orders[promotion] { orders[promotion] = count > 1 ? count - 1 : nil }
            if let key, let count = ordersByCustomer[key]?[promotion] {
                ordersByCustomer[key]?[promotion] = count > 1 ? count - 1 : nil
                if ordersByCustomer[key]?.isEmpty == true { ordersByCustomer[key] = nil }
            }
        }
    }

    /// The orders of customer `id` (compared byte for byte) that redeemed each promotion.
    public func orders(ofCustomer id: String) -> [String: Int64] { ordersByCustomer[ExactText(id)] ?? [:] }

    /// The limited promotions of `rules` a cart of `customer` may no longer redeem, ascending: its
    /// `uses` reached by every order, or its `uses_per_customer` by the customer's.
    public func exhausted(in rules: RuleSet, customer: String?) -> [Int32] {
        let own = customer.flatMap { ordersByCustomer[ExactText($0)] }
        return rules.limitedRules.filter { index in
            let promotion = rules.promotions[Int(index)]
            if let uses = promotion.uses, orders[promotion.id, default: 0] >= uses { return true }
            if let perCustomer = promotion.usesPerCustomer, customer != nil,
                own?[promotion.id, default: 0] ?? 0 >= perCustomer
            {
                return true
            }
            return false
        }
    }
}

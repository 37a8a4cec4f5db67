import Pricing
import Shopping

@testable import Presenters

/// The cart in memory.
final class MemoryCart: CartStore {
    var items: [CartEntry] = []

    func entries() throws -> [CartEntry] { items }

    func add(_ code: String, quantity: Int64) throws {
        if let index = items.firstIndex(where: { $0.code == code }) {
            items[index].quantity += quantity
        } else {
            items.append(CartEntry(code: code, quantity: quantity))
        }
    }

    func remove(_ code: String, quantity: Int64?) throws -> Bool {
        guard let index = items.firstIndex(where: { $0.code == code }) else { return false }
        if let quantity, quantity < items[index].quantity {
            items[index].quantity -= quantity
        } else {
            items.remove(at: index)
        }
        return true
    }

    func clear() throws {
        items = []
        presented = []
    }

    var presented: [String] = []
    func coupons() throws -> [String] { presented }
    func addCoupon(_ coupon: String) throws -> Bool {
        guard !presented.contains(where: { CouponKey($0) == CouponKey(coupon) }) else { return false }
        presented.append(coupon)
        return true
    }
    func removeCoupon(_ coupon: String) throws -> Bool {
        guard let index = presented.firstIndex(where: { CouponKey($0) == CouponKey(coupon) }) else { return false }
        presented.remove(at: index)
        return true
    }
}

/// Orders in memory, sharing the cart; `failNextCompletion` simulates a store failing after the
/// charge. Orders this process placed are held until completed or released, or until a completion
/// fails (then they are interrupted).
final class MemoryOrders: OrderBook {
    let cart: MemoryCart
    var pending: [PendingOrder] = []
    var held: Set<String> = []
    var completed: [OrderRecord] = []
    var failNextCompletion = false
    var nextID = 1

    init(cart: MemoryCart) { self.cart = cart }

    func placeOrder(limited: [String], pricing price: (CartContents, RedemptionCounts) throws -> PricedCart) throws
        -> Placement
    {
        guard pending.isEmpty else { return .inProgress }
        guard !cart.items.isEmpty else { return .emptyCart }
        let priced = try price(
            CartContents(entries: cart.items, coupons: cart.presented),
            try redemptionCounts(limited: limited, scope: .all))
        var order = PendingOrder(
            id: "order-\(nextID)", entries: cart.items, receiptJSON: priced.receiptJSON, total: priced.total,
            currency: priced.currency)
        order.coupons = cart.presented
        order.redeemed = priced.redeemed
        nextID += 1
        cart.items = []
        cart.presented = []
        pending.append(order)
        held.insert(order.id)
        return .placed(order)
    }

    func interruptedOrders() throws -> [PendingOrder] {
        let interrupted = pending.filter { !held.contains($0.id) }
        held.formUnion(interrupted.map(\.id))
        return interrupted
    }

    func ledger(limited: [String], scope: CustomerScope) throws -> Ledger {
        Ledger(
            counts: try redemptionCounts(limited: limited, scope: scope),
            stalled: pending.filter { !held.contains($0.id) })
    }

    struct Interrupted: Error {}

    func complete(_ order: PendingOrder, at: Instant, card: String, reference: String) throws -> OrderRecord {
        if failNextCompletion {
            failNextCompletion = false
            held.remove(order.id)
            throw Interrupted()
        }
        let record = OrderRecord(
            number: completed.count + 1, id: order.id, at: at, receiptJSON: order.receiptJSON, total: order.total,
            currency: order.currency, card: card, reference: reference, promotions: order.redeemed)
        completed.append(record)
        pending.removeAll { $0.id == order.id }
        held.remove(order.id)
        return record
    }

    func release(_ order: PendingOrder) throws {
        for entry in order.entries { try cart.add(entry.code, quantity: entry.quantity) }
        for coupon in order.coupons { _ = try cart.addCoupon(coupon) }
        pending.removeAll { $0.id == order.id }
        held.remove(order.id)
    }

    func orders() throws -> [OrderRecord] { completed }

    /// Every order, pending or completed, counts its redemptions (one customer: the anonymous one).
    func redemptionCounts(limited: [String], scope: CustomerScope) throws -> RedemptionCounts {
        var counts = RedemptionCounts()
        for id in pending.flatMap(\.redeemed) + completed.flatMap(\.promotions) where limited.contains(id) {
            counts.orders[id, default: 0] += 1
        }
        return counts
    }
}

/// A gateway that answers as scripted and counts the charges it takes.
final class ScriptedGateway: PaymentGateway {
    var outcome: ChargeOutcome = .approved(reference: "ref-1")
    var charges: [String: ChargeRecord] = [:]
    var chargesTaken = 0

    func charge(amount: Int64, currency: Currency, card: PaymentCard, idempotencyKey: String) throws -> ChargeOutcome {
        if let earlier = charges[idempotencyKey], case .approved = earlier.outcome { return earlier.outcome }
        chargesTaken += 1
        charges[idempotencyKey] = ChargeRecord(outcome: outcome, amount: amount, currency: currency, card: card.masked)
        return outcome
    }

    func status(idempotencyKey: String) throws -> ChargeRecord? { charges[idempotencyKey] }
}

/// The original app's store, with a cart promotion for the receipts' sake.
let catalog = try! Catalog(products: [
    Product(code: "VOUCHER", name: "Cabify Voucher", price: 500),
    Product(code: "TSHIRT", name: "Cabify T-Shirt", price: 2000),
    Product(code: "MUG", name: "Cabify Coffee Mug", price: 750)
])
let now = try! Instant(rfc3339: "2026-11-21T10:00:00Z")
let rules = RuleSet(
    promotions: [
        Promotion(id: "VOUCHER 2x1", name: "VOUCHER 2x1", rule: .combo(groupSize: 2, paid: 1), codes: ["VOUCHER"]),
        Promotion(id: "TSHIRT 3+", name: "TSHIRT 3+", rule: .bulk(threshold: 3, unitPrice: 1900), codes: ["TSHIRT"]),
        Promotion(
            id: "old", name: "Old sale", rule: .percent(minimumQuantity: 1, hundredths: 5000), codes: ["MUG"],
            end: try! Instant(rfc3339: "2026-01-01T00:00:00Z")),
        Promotion(id: "xmas", name: "Christmas", rule: .cartPercent(minimum: 10_000, hundredths: 1000), coupon: "XMAS")
    ], catalog: catalog)

struct Shop {
    let cart = MemoryCart()
    let orders: MemoryOrders
    let gateway = ScriptedGateway()
    let service: CheckoutService

    init(rules: RuleSet = rules) {
        orders = MemoryOrders(cart: cart)
        service = CheckoutService(
            rules: rules, cart: cart, orders: orders, gateway: gateway, clock: FixedClock(instant: now))
    }
}

import Explanations
import Pricing
import Receipts

/// The purchase, from cart to order: prices the cart, charges it once, and records the order and
/// empties the cart in one step. Shared by the presenters and the scriptable commands.
public final class CheckoutService {
    public let rules: RuleSet
    public let cart: CartStore
    public let orders: OrderBook
    public let gateway: PaymentGateway
    public let clock: WallClock

    public init(rules: RuleSet, cart: CartStore, orders: OrderBook, gateway: PaymentGateway, clock: WallClock) {
        self.rules = rules
        self.cart = cart
        self.orders = orders
        self.gateway = gateway
        self.clock = clock
    }

    public var catalog: Catalog { rules.catalog }

    /// Why the cart cannot be priced or paid.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The cart priced now.
    public func receipt() throws -> Receipt {
        try receipt(for: cart.entries(), coupons: cart.coupons())
    }

    /// The cart priced now, with the near misses worth a hint (as a text receipt shows them).
    public func receiptWithHints() throws -> (receipt: Receipt, hints: [Hint]) {
        let cart = try build(cart.entries(), coupons: cart.coupons())
        let explainer = Explainer(engine: PricingEngine(rules: rules))
        do {
            let (receipt, explanations) = try explainer.explain(cart, now: clock.now())
            return (receipt, explainer.hints(for: cart, receipt: receipt, explanations: explanations))
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// The stored entries priced now, built as any cart is (``CartBuilder``): a product that left
    /// the catalog since it was added is an error that says how to remove it.
    func receipt(for entries: [CartEntry], coupons: [String]) throws -> Receipt {
        let cart = try build(entries, coupons: coupons)
        do {
            return try PricingEngine(rules: rules).price(cart, now: clock.now())
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// The stored entries as a cart, built as any cart is.
    func build(_ entries: [CartEntry], coupons: [String]) throws(Failure) -> Cart {
        // Unknown codes are reported here without "did you mean".
        var builder = CartBuilder(catalog: catalog, suggestions: nil)
        for entry in entries {
            do {
                try builder.add(entry.code, quantity: entry.quantity)
            } catch .unknownCode(let code, _) {
                throw Failure(
                    description:
                        "\"\(code)\" is no longer sold; remove it from the cart (`checkout cart remove \(code)`)")
            } catch {
                throw Failure(description: error.description)
            }
        }
        return builder.take(coupons: coupons)
    }

    /// What adding a coupon did.
    public enum CouponOutcome: Sendable, Equatable {
        /// Added; the names of the active promotions it unlocks (none: it matches nothing now).
        case added(unlocks: [String])
        /// The cart presents it already (in some letter case).
        case alreadyPresent
    }

    /// Adds a coupon to the cart, and says what it unlocks now — never which other coupons exist.
    public func addCoupon(_ coupon: String) throws -> CouponOutcome {
        guard try cart.addCoupon(coupon) else { return .alreadyPresent }
        let now = clock.now()
        let key = upper(coupon)
        let unlocks = rules.promotions.filter { promotion in
            promotion.isEnabled && promotion.isActive(at: now) && promotion.coupon.map(upper) == key
        }.map(\.name)
        return .added(unlocks: unlocks)
    }

    private func upper(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }

    public enum PaymentResult: Sendable, Equatable {
        case approved(OrderRecord)
        case declined(reason: String)
        case emptyCart
    }

    /// Pays for the cart with `card`. A payment interrupted after its charge was approved is
    /// completed first, without charging again; only an approval empties the cart.
    public func pay(with card: PaymentCard) throws -> PaymentResult {
        var recovered: OrderRecord?
        for pending in try orders.pendingOrders() {
            if case .approved(let reference)? = try gateway.status(idempotencyKey: pending.id) {
                recovered = try orders.complete(pending, at: clock.now(), card: card.masked, reference: reference)
            } else {
                try orders.discard(pending)  // never charged, or declined: nothing to keep
            }
        }
        let entries = try cart.entries()
        guard !entries.isEmpty else { return recovered.map { .approved($0) } ?? .emptyCart }
        let coupons = try cart.coupons()
        let receipt = try receipt(for: entries, coupons: coupons)
        let order = try orders.pendingOrder(
            for: entries, coupons: coupons, receiptJSON: ReceiptEncoder.render(receipt), total: receipt.total,
            currency: receipt.currency)
        switch try gateway.charge(amount: order.total, currency: order.currency, card: card, idempotencyKey: order.id) {
        case .approved(let reference):
            return .approved(try orders.complete(order, at: clock.now(), card: card.masked, reference: reference))
        case .declined(let reason):
            return .declined(reason: reason)
        }
    }
}

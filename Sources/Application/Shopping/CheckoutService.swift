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
                        "\"\(code.forDisplay(limit: String.messageValueLimit))\" is no longer sold; remove it from the cart (`checkout cart remove \(code.forDisplay(limit: String.messageValueLimit))`)"
                )
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

    /// What a payment came to.
    public enum PaymentResult: Sendable, Equatable {
        case approved(OrderRecord)
        case declined(reason: String)
        case emptyCart
        /// Another payment of the cart is under way: nothing was charged.
        case inProgress
    }

    /// A payment's result, and the interrupted orders completed before it.
    public struct Payment: Sendable, Equatable {
        public var result: PaymentResult
        /// Orders whose payment was interrupted after their charge went through, recorded now with
        /// the card that charge used (never the card of this payment), without charging again.
        public var recovered: [OrderRecord]

        public init(result: PaymentResult, recovered: [OrderRecord] = []) {
            self.result = result
            self.recovered = recovered
        }
    }

    /// The card was charged, then the order could not be recorded (the store failed). The order
    /// stays pending, and the next payment records it with this charge: nothing is charged twice.
    public struct ChargedButUnrecorded: Error, Sendable, Equatable, CustomStringConvertible {
        public var orderID: String
        public var total: Int64
        public var currency: Currency
        public var card: String
        public var reference: String
        /// Why the store failed.
        public var reason: String
        /// Orders recovered before this payment.
        public var recovered: [OrderRecord]

        public var description: String {
            "the card \(card) was charged \(MoneyStyle(currency: currency).format(total)) (reference \(reference)), but the order could not be recorded: \(reason). Nothing more will be charged: the next payment records this order with this charge, and says it recovered it"
        }
    }

    /// Settles the orders whose payment was interrupted (its process ended): one whose charge went
    /// through is completed with that charge and its card, any other is released (its units and
    /// coupons go back to the cart). Returns the orders completed. None is ever charged again.
    public func settleInterrupted() throws -> [OrderRecord] {
        var recovered: [OrderRecord] = []
        for order in try orders.interruptedOrders() {
            if let charge = try gateway.status(idempotencyKey: order.id), case .approved(let reference) = charge.outcome
            {
                recovered.append(
                    try orders.complete(order, at: clock.now(), card: charge.card, reference: reference))
            } else {
                try orders.release(order)
            }
        }
        return recovered
    }

    /// Pays for the cart with `card`, once: interrupted payments are settled first; then the
    /// cart's units go into a pending order (unless another payment is under way), the charge is
    /// keyed by that order's id, and an approval records the order while a decline puts the units
    /// back. An error after the charge went through is ``ChargedButUnrecorded``.
    public func pay(with card: PaymentCard) throws -> Payment {
        let recovered = try settleInterrupted()
        let placement = try orders.placeOrder { entries, coupons in
            let receipt = try receipt(for: entries, coupons: coupons)
            return PricedCart(
                receiptJSON: ReceiptEncoder.render(receipt), total: receipt.total, currency: receipt.currency)
        }
        let order: PendingOrder
        switch placement {
        case .emptyCart: return Payment(result: .emptyCart, recovered: recovered)
        case .inProgress: return Payment(result: .inProgress, recovered: recovered)
        case .placed(let placed): order = placed
        }
        // An error here (an outcome not known) leaves the order pending: once this process ends,
        // the next payment asks the gateway what became of the charge.
        switch try gateway.charge(amount: order.total, currency: order.currency, card: card, idempotencyKey: order.id) {
        case .approved(let reference):
            do {
                let record = try orders.complete(order, at: clock.now(), card: card.masked, reference: reference)
                return Payment(result: .approved(record), recovered: recovered)
            } catch {
                throw ChargedButUnrecorded(
                    orderID: order.id, total: order.total, currency: order.currency, card: card.masked,
                    reference: reference, reason: "\(error)", recovered: recovered)
            }
        case .declined(let reason):
            try orders.release(order)
            return Payment(result: .declined(reason: reason), recovered: recovered)
        }
    }
}

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
    /// Who is shopping: an id and groups; nil for the anonymous customer (no id, no groups). The
    /// cart is priced as this customer's, against the ledger (docs/store.md, "Usage limits").
    public let customer: Cart.Customer?
    /// The promotions with `uses` or `uses_per_customer`, in file order: the ledger is read for them.
    let limited: [String]
    let fileOrder: [String: Int]

    public init(
        rules: RuleSet, cart: CartStore, orders: OrderBook, gateway: PaymentGateway, clock: WallClock,
        customer: Cart.Customer? = nil
    ) {
        self.rules = rules
        self.cart = cart
        self.orders = orders
        self.gateway = gateway
        self.clock = clock
        self.customer = customer
        limited = Redemptions.limitedIDs(rules)
        fileOrder = Redemptions.fileOrder(rules)
    }

    public var catalog: Catalog { rules.catalog }

    /// Why the cart cannot be priced or paid.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String

        init(description: String) {
            self.description = description
        }

        /// Why the stored cart cannot be priced, and what to do: a cart too large to price has
        /// units to remove.
        init(_ error: PricingError) {
            switch error {
            case .lineOverflow(let code, _, _, _):
                description =
                    error.description
                    + "; remove units of \"\(code.forDisplay(limit: String.messageValueLimit))\" from the cart"
            case .subtotalOverflow, .totalOverflow:
                description = error.description + "; remove units from the cart"
            case .currencyMismatch:
                description = error.description
            }
        }
    }

    /// The cart priced now, against the ledger.
    public func receipt() throws -> Receipt {
        try quote().receipt
    }

    /// The cart priced now against the ledger, and the used-up promotions that would have applied
    /// without it (``Quote``): what `pay` would charge.
    public func quote() throws -> Quote {
        let cart = try build(cart.entries(), coupons: cart.coupons())
        return try quote(cart, ledger: ledger())
    }

    /// The cart priced against the ledger, with the used-up promotions that raised its total.
    public struct Quote: Sendable, Equatable {
        public var receipt: Receipt
        /// Used-up promotions that would apply without the ledger, in file order; empty unless the
        /// ledger raises the total.
        public var exhausted: [UsedUpPromotion]
    }

    /// A promotion whose usage limit is reached, as output names it.
    public struct UsedUpPromotion: Sendable, Equatable {
        public var id: String
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }

        /// `"First 5 orders: 10 % off" has reached its usage limit`; several: `"A" and "B" have
        /// reached their usage limits`.
        public static func words(_ promotions: [UsedUpPromotion]) -> String {
            let names = promotions.map { "\"\($0.name.forDisplay(limit: 80))\"" }
            guard names.count > 1 else { return (names.first ?? "") + " has reached its usage limit" }
            return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
                + " have reached their usage limits"
        }
    }

    /// The cart priced now, with the near misses worth a hint (as a text receipt shows them).
    public func receiptWithHints() throws -> (receipt: Receipt, hints: [Hint]) {
        let cart = try build(cart.entries(), coupons: cart.coupons())
        var engine = PricingEngine(rules: rules)
        engine.ledger = try ledger()
        let explainer = Explainer(engine: engine)
        do {
            let (receipt, explanations) = try explainer.explain(cart, now: clock.now())
            return (receipt, explainer.hints(for: cart, receipt: receipt, explanations: explanations))
        } catch {
            throw Failure(error)
        }
    }

    /// Which promotions this shopper may get now (by position in the file): not those of customer
    /// groups they are not in, nor those whose `uses` (or their own `uses_per_customer`) the ledger
    /// says are used up. Dates, coupons and whether it is enabled are not asked here. For offers
    /// shown before a cart has them (the product list), so that none is shown that `pay` would not
    /// give.
    public func openPromotions() throws -> (Int) -> Bool {
        var engine = PricingEngine(rules: rules)
        engine.ledger = try ledger()
        return engine.eligiblePromotions(for: customer)
    }

    /// The ledger's counts for this customer, read now, as the next payment will see them; nil
    /// when no promotion is limited. That payment first settles the interrupted orders (docs/store.md,
    /// "Paying against the ledger"): one whose charge did not go through is released, and holds
    /// nothing by then. So the cart is priced as `pay` will price it.
    func ledger() throws -> RedemptionCounts? {
        guard !limited.isEmpty else { return nil }
        var ledger = try orders.ledger(limited: limited, scope: .one(customer?.id))
        let limitedIDs = Set(limited)
        for order in ledger.stalled where order.redeemed.contains(where: limitedIDs.contains) {
            if try approvedCharge(of: order) == nil {
                ledger.counts.release(order.redeemed, customer: order.customer)
            }
        }
        return ledger.counts
    }

    /// The approved charge of `order`, if its charge went through: the gateway is asked by the
    /// order's id, its charge's idempotency key.
    func approvedCharge(of order: PendingOrder) throws -> (card: String, reference: String)? {
        guard let charge = try gateway.status(idempotencyKey: order.id), case .approved(let reference) = charge.outcome
        else { return nil }
        return (charge.card, reference)
    }

    /// `cart` priced against `ledger`, and what the ledger took from it.
    func quote(_ cart: Cart, ledger: RedemptionCounts?) throws -> Quote {
        var engine = PricingEngine(rules: rules)
        engine.ledger = ledger
        do {
            let receipt = try engine.price(cart, now: clock.now())
            return Quote(receipt: receipt, exhausted: try exhausted(cart, receipt, ledger: ledger))
        } catch {
            throw Failure(error)
        }
    }

    /// The used-up promotions that would apply to `cart` without the ledger, in file order, when
    /// the ledger raises its total (`receipt`, priced with it); else none.
    func exhausted(_ cart: Cart, _ receipt: Receipt, ledger: RedemptionCounts?) throws(PricingError)
        -> [UsedUpPromotion]
    {
        guard let ledger else { return [] }
        let usedUp = ledger.exhausted(in: rules, customer: cart.customer?.id)
        guard !usedUp.isEmpty else { return [] }
        let unlimited = try PricingEngine(rules: rules).price(cart, at: receipt.at, now: receipt.at)
        guard unlimited.total < receipt.total else { return [] }
        let applied = Set(Redemptions.redeemed(by: unlimited))
        return usedUp.map { rules.promotions[Int($0)] }.filter { applied.contains($0.id) }.map {
            UsedUpPromotion(id: $0.id, name: $0.name)
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
        var cart = builder.take(coupons: coupons)
        cart.customer = customer
        return cart
    }

    /// What adding a coupon did.
    public enum CouponOutcome: Sendable, Equatable {
        /// Added; the names of the active promotions it unlocks for the cart's customer, and of
        /// those it matches that the customer cannot have now: used up (their usage limit reached),
        /// limited per customer while the cart has none, or for other customer groups
        /// (docs/store.md). None at all: it matches nothing now.
        case added(
            unlocks: [String], usedUp: [String] = [], needsCustomer: [String] = [], notForCustomer: [String] = [])
        /// The cart presents it already (in some letter case).
        case alreadyPresent

        /// Why an added coupon unlocks nothing now, in words that follow "the coupon" (`cart coupon
        /// add`'s warning) or "it" (the shop's message): `matches no active promotion now`,
        /// `unlocks nothing now: "Spring" has reached its usage limit`. Nil when it unlocks
        /// something, or was there already.
        public var nothingUnlocked: String? {
            guard case .added(let unlocks, let usedUp, let needsCustomer, let notForCustomer) = self, unlocks.isEmpty
            else { return nil }
            func quoted(_ names: [String]) -> String {
                names.map { "\"\($0.forDisplay(limit: String.messageValueLimit))\"" }.joined(separator: ", ")
            }
            if !usedUp.isEmpty {
                return "unlocks nothing now: \(quoted(usedUp)) "
                    + (usedUp.count == 1 ? "has reached its usage limit" : "have reached their usage limits")
            }
            if !needsCustomer.isEmpty {
                return "unlocks nothing without a customer: \(quoted(needsCustomer)) "
                    + (needsCustomer.count == 1 ? "is" : "are") + " limited per customer, and the cart has no customer"
            }
            if !notForCustomer.isEmpty {
                return "unlocks nothing for this customer: \(quoted(notForCustomer)) "
                    + (notForCustomer.count == 1 ? "is" : "are") + " for other customers"
            }
            return "matches no active promotion now"
        }

        /// What the shop and `cart coupon add` say of promotions a coupon unlocks: `Coupon added: it
        /// unlocks "Spring sale".`, each name escaped for display (a promotion's name comes from the
        /// promotions file, and may hold a line break or a terminal's escape sequence).
        public static func unlockedSentence(_ names: [String]) -> String {
            "Coupon added: it unlocks "
                + names.map { "\"\($0.forDisplay(limit: String.messageValueLimit))\"" }.joined(separator: ", ") + "."
        }
    }

    /// Adds a coupon to the cart, and says what it unlocks now — never which other coupons exist.
    public func addCoupon(_ coupon: String) throws -> CouponOutcome {
        guard try cart.addCoupon(coupon) else { return .alreadyPresent }
        let now = clock.now()
        let key = CouponKey(coupon)
        let matched = rules.promotions.indices.filter { index in
            let promotion = rules.promotions[index]
            return promotion.isEnabled && promotion.isActive(at: now) && promotion.coupon.map(CouponKey.init) == key
        }
        guard !matched.isEmpty else { return .added(unlocks: []) }
        var engine = PricingEngine(rules: rules)
        engine.ledger = try ledger()
        let standings = engine.customerStandings(for: customer)
        var (unlocks, usedUp, needsCustomer, notForCustomer): ([String], [String], [String], [String]) = (
            [], [], [], []
        )
        for index in matched {
            let promotion = rules.promotions[index]
            switch standings(index) {
            case .eligible: unlocks.append(promotion.name)
            case .exhausted: usedUp.append(promotion.name)
            // Not theirs: for lack of a customer id (a per-customer limit), or of a group.
            case .notEligible
            where customer?.id == nil && promotion.usesPerCustomer != nil
                && promotion.customerGroups == nil:
                needsCustomer.append(promotion.name)
            case .notEligible: notForCustomer.append(promotion.name)
            }
        }
        return .added(unlocks: unlocks, usedUp: usedUp, needsCustomer: needsCustomer, notForCustomer: notForCustomer)
    }

    /// What a payment came to.
    public enum PaymentResult: Sendable, Equatable {
        case approved(OrderRecord)
        case declined(reason: String)
        case emptyCart
        /// Another payment of the customer is under way: nothing was charged.
        case inProgress
        /// The cart priced against the ledger does not come to the expected total: nothing was
        /// held or charged.
        case totalChanged(total: Int64, expected: Int64, currency: Currency)
    }

    /// A payment's result, and the interrupted orders completed before it.
    public struct Payment: Sendable, Equatable {
        public var result: PaymentResult
        /// Orders whose payment was interrupted after their charge went through, recorded now with
        /// the card that charge used (never the card of this payment), without charging again.
        public var recovered: [OrderRecord]
        /// Used-up promotions that would have applied without the ledger, when it raised the total.
        public var exhausted: [UsedUpPromotion]

        public init(result: PaymentResult, recovered: [OrderRecord] = [], exhausted: [UsedUpPromotion] = []) {
            self.result = result
            self.recovered = recovered
            self.exhausted = exhausted
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
        /// The ids of the used-up promotions that raised the total (``Payment/exhausted``).
        public var exhausted: [String] = []

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
            if let charge = try approvedCharge(of: order) {
                recovered.append(
                    try orders.complete(order, at: clock.now(), card: charge.card, reference: charge.reference))
            } else {
                try orders.release(order)
            }
        }
        return recovered
    }

    /// Pays for the cart with `card`, once: interrupted payments are settled first; then, in one
    /// transaction, the cart is priced against the ledger and its units go into a pending order that
    /// holds its redemptions (unless another payment of the customer is under way, or the total is
    /// not `expectedTotal`); the charge, for exactly that total, is keyed by that order's id, and an
    /// approval records the order while a decline puts the units back and releases the hold. An
    /// error after the charge went through is ``ChargedButUnrecorded``.
    public func pay(with card: PaymentCard, expectedTotal: Int64? = nil) throws -> Payment {
        let recovered = try settleInterrupted()
        var exhausted: [UsedUpPromotion] = []
        let placement: Placement
        do {
            placement = try orders.placeOrder(limited: limited) { contents, counts in
                let cart = try build(contents.entries, coupons: contents.coupons)
                let quote = try quote(cart, ledger: limited.isEmpty ? nil : counts)
                exhausted = quote.exhausted
                let receipt = quote.receipt
                if let expectedTotal, expectedTotal != receipt.total {
                    throw TotalChanged(total: receipt.total, expected: expectedTotal, currency: receipt.currency)
                }
                return PricedCart(
                    receiptJSON: ReceiptEncoder.render(receipt), total: receipt.total, currency: receipt.currency,
                    redeemed: Redemptions.redeemed(by: receipt, order: fileOrder))
            }
        } catch let changed as TotalChanged {
            return Payment(
                result: .totalChanged(total: changed.total, expected: changed.expected, currency: changed.currency),
                recovered: recovered, exhausted: exhausted)
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
                return Payment(result: .approved(record), recovered: recovered, exhausted: exhausted)
            } catch {
                var failure = ChargedButUnrecorded(
                    orderID: order.id, total: order.total, currency: order.currency, card: card.masked,
                    reference: reference, reason: "\(error)", recovered: recovered)
                failure.exhausted = exhausted.map(\.id)
                throw failure
            }
        case .declined(let reason):
            try orders.release(order)
            return Payment(result: .declined(reason: reason), recovered: recovered, exhausted: exhausted)
        }
    }

    /// The cart's total is not the one expected: thrown inside the placing transaction, which then
    /// records nothing.
    struct TotalChanged: Error {
        var total: Int64
        var expected: Int64
        var currency: Currency
    }
}

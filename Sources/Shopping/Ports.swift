import Pricing

/// A product in the cart, and how many.
public struct CartEntry: Sendable, Equatable {
    public var code: String
    public var quantity: Int64

    public init(code: String, quantity: Int64) {
        self.code = code
        self.quantity = quantity
    }
}

/// Where the cart lives between launches. Every change is atomic, whatever runs concurrently.
public protocol CartStore: AnyObject {
    /// The entries, in the order their products were first added.
    func entries() throws -> [CartEntry]
    func add(_ code: String, quantity: Int64) throws
    /// Removes `quantity` units, or the whole line when nil. Returns false when the product is not in the cart.
    @discardableResult func remove(_ code: String, quantity: Int64?) throws -> Bool
    /// Empties the cart: its products and its coupons.
    func clear() throws
    /// The coupons presented with the cart, in the spelling first added.
    func coupons() throws -> [String]
    /// Adds a coupon; false when the cart presents it already (in any letter case).
    @discardableResult func addCoupon(_ coupon: String) throws -> Bool
    /// Removes a coupon (any letter case); false when the cart does not present it.
    @discardableResult func removeCoupon(_ coupon: String) throws -> Bool
}

/// A completed purchase.
public struct OrderRecord: Sendable, Equatable {
    /// The shopper-facing order number: 1, 2, 3…
    public var number: Int
    /// The order's identity, also the payment's idempotency key.
    public var id: String
    public var at: Instant
    /// The receipt as SPEC §7 JSON.
    public var receiptJSON: String
    public var total: Int64
    public var currency: Currency
    /// The card as shoppers see it: `•••• 4242`. Never the number or the CVC.
    public var card: String
    /// The gateway's reference for the charge.
    public var reference: String

    public init(
        number: Int, id: String, at: Instant, receiptJSON: String, total: Int64, currency: Currency, card: String,
        reference: String
    ) {
        self.number = number
        self.id = id
        self.at = at
        self.receiptJSON = receiptJSON
        self.total = total
        self.currency = currency
        self.card = card
        self.reference = reference
    }
}

/// An order being paid: the cart as it was priced, and the order's identity.
public struct PendingOrder: Sendable, Equatable {
    public var id: String
    public var entries: [CartEntry]
    /// The coupons the cart presented.
    public var coupons: [String] = []
    public var receiptJSON: String
    public var total: Int64
    public var currency: Currency

    public init(id: String, entries: [CartEntry], receiptJSON: String, total: Int64, currency: Currency) {
        self.id = id
        self.entries = entries
        self.receiptJSON = receiptJSON
        self.total = total
        self.currency = currency
    }
}

/// Orders, and the transitions that must be atomic with the cart.
public protocol OrderBook: AnyObject {
    /// The pending order for the cart exactly as it is now (`entries` and `coupons`), created when
    /// there is none: paying the same cart again reuses its identity, so a retry never charges twice.
    func pendingOrder(
        for entries: [CartEntry], coupons: [String], receiptJSON: String, total: Int64, currency: Currency
    ) throws -> PendingOrder
    /// Pending orders left by an interrupted payment.
    func pendingOrders() throws -> [PendingOrder]
    /// Records the order as completed and takes its entries and coupons out of the cart, in one transaction.
    /// Completing an order twice returns the first record.
    func complete(_ order: PendingOrder, at: Instant, card: String, reference: String) throws -> OrderRecord
    /// Forgets a pending order that was never charged, or was declined.
    func discard(_ order: PendingOrder) throws
    /// Completed orders, oldest first.
    func orders() throws -> [OrderRecord]
}

/// What a gateway answers to a charge.
public enum ChargeOutcome: Sendable, Equatable {
    case approved(reference: String)
    case declined(reason: String)
}

/// Takes payments. A charge with an idempotency key already approved returns that approval and
/// charges nothing.
public protocol PaymentGateway: AnyObject {
    func charge(amount: Int64, currency: Currency, card: PaymentCard, idempotencyKey: String) throws -> ChargeOutcome
    /// The outcome of the last charge with this key, if any.
    func status(idempotencyKey: String) throws -> ChargeOutcome?
}

/// Where the simulated gateway keeps its charges, so that retries across launches stay idempotent.
public protocol ChargeLedger: AnyObject {
    func charge(forKey key: String) throws -> ChargeOutcome?
    func record(_ outcome: ChargeOutcome, forKey key: String, amount: Int64, currency: Currency, card: String) throws
}

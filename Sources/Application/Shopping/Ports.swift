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
    /// Adds units of a product, spelled as the catalog spells it. Refused with ``CartLimitExceeded``
    /// when the product would have more than ``Cart/itemQuantities``' largest quantity in the cart
    /// (counting the units an order being paid holds, which go back to the cart if it is declined).
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

/// An addition refused because the product would have more units in the cart than a cart line may.
public struct CartLimitExceeded: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: String
    /// Units of the product in the cart already (with those an order being paid holds).
    public var held: Int64
    public var adding: Int64

    public init(code: String, held: Int64, adding: Int64) {
        self.code = code
        self.held = held
        self.adding = adding
    }

    public var description: String {
        let limit = Cart.itemQuantities.upperBound
        return
            "cannot add \(adding) × \(code): the cart holds \(held) already, and a product may have at most \(limit) units in a cart; nothing was added"
    }
}

/// Units that would take the cart's subtotal past the largest amount: the cart could not be priced.
public struct CartTotalTooLarge: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: String
    public var adding: Int64
    public var currency: Currency

    public init(code: String, adding: Int64, currency: Currency) {
        self.code = code
        self.adding = adding
        self.currency = currency
    }

    public var description: String {
        "cannot add \(adding) × \(code.forDisplay(limit: String.messageValueLimit)): the cart would come to more than the largest amount, \(Amount.largest(minorDigits: currency.minorDigits)); nothing was added: add fewer units, or remove others first"
    }
}

/// A completed purchase.
public struct OrderRecord: Sendable, Equatable {
    /// The shopper-facing order number: 1, 2, 3…
    public var number: Int
    /// The order's identity, also the payment's idempotency key.
    public var id: String
    public var at: Instant
    /// The receipt as JSON (docs/receipts.md).
    public var receiptJSON: String
    public var total: Int64
    public var currency: Currency
    /// The card the charge used, as shoppers see it: `•••• 4242`. Never the number or the CVC.
    public var card: String
    /// The gateway's reference for the charge.
    public var reference: String
    /// The customer's id; nil for the anonymous customer.
    public var customer: String?
    /// The promotions the order redeemed (docs/store.md, "Usage limits").
    public var promotions: [String]

    public init(
        number: Int, id: String, at: Instant, receiptJSON: String, total: Int64, currency: Currency, card: String,
        reference: String, customer: String? = nil, promotions: [String] = []
    ) {
        self.customer = customer
        self.promotions = promotions
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

/// An order being paid: the cart's units and coupons it took, priced, and its identity (the
/// charge's idempotency key).
public struct PendingOrder: Sendable, Equatable {
    public var id: String
    public var entries: [CartEntry]
    /// The coupons the cart presented.
    public var coupons: [String] = []
    public var receiptJSON: String
    public var total: Int64
    public var currency: Currency
    /// The customer's id; nil for the anonymous customer.
    public var customer: String?
    /// The promotions it redeems, held while it is pending.
    public var redeemed: [String] = []

    public init(id: String, entries: [CartEntry], receiptJSON: String, total: Int64, currency: Currency) {
        self.id = id
        self.entries = entries
        self.receiptJSON = receiptJSON
        self.total = total
        self.currency = currency
    }
}

/// The cart priced for an order.
public struct PricedCart: Sendable, Equatable {
    public var receiptJSON: String
    public var total: Int64
    public var currency: Currency
    /// The promotions the order redeems (``Redemptions``).
    public var redeemed: [String]

    public init(receiptJSON: String, total: Int64, currency: Currency, redeemed: [String] = []) {
        self.receiptJSON = receiptJSON
        self.total = total
        self.currency = currency
        self.redeemed = redeemed
    }
}

/// What a customer's cart holds: its entries and the coupons it presents.
public struct CartContents: Sendable, Equatable {
    public var entries: [CartEntry]
    public var coupons: [String]

    public init(entries: [CartEntry], coupons: [String]) {
        self.entries = entries
        self.coupons = coupons
    }
}

/// What placing an order found.
public enum Placement: Sendable, Equatable {
    /// Recorded, holding the cart's units and coupons, held by this process until completed or released.
    case placed(PendingOrder)
    /// Nothing in the cart.
    case emptyCart
    /// Another payment of the customer is under way (in another process): nothing was placed.
    case inProgress
}

/// Orders, and the transitions that must be atomic with the cart. A pending order is *held* by the
/// process paying it (an operating-system lock, released when the process ends however it ends);
/// one no longer held is *interrupted*, and settled by the next payment. A pending order is never
/// charged twice: only the process that placed it charges it.
/// The redemption counts, and the interrupted orders among those they count.
public struct Ledger: Sendable {
    public var counts: RedemptionCounts
    public var stalled: [PendingOrder]

    public init(counts: RedemptionCounts, stalled: [PendingOrder] = []) {
        self.counts = counts
        self.stalled = stalled
    }
}

public protocol OrderBook: AnyObject {
    /// In one transaction: unless another order of the customer is under way, reads how often the
    /// `limited` promotions were redeemed (committed and held, all customers and this customer),
    /// prices the cart as it is against that (`price` gets its contents and the counts), and records
    /// a pending order that takes the cart's units and coupons out of it and holds its
    /// redemptions, held by this process. An error of `price` places nothing.
    func placeOrder(limited: [String], pricing price: (CartContents, RedemptionCounts) throws -> PricedCart) throws
        -> Placement
    /// Pending orders whose paying process has ended, now held by this process for settling
    /// (``complete(_:at:card:reference:)`` or ``release(_:)``). Orders being paid are left alone.
    func interruptedOrders() throws -> [PendingOrder]
    /// How often the `limited` promotions were redeemed by orders committed or pending (all
    /// customers together, and per customer for `scope`) and, read with them, the pending orders
    /// whose paying process has ended: what the next payment will settle, for showing the cart as that
    /// payment will price it. Nothing is written and no order is taken; whether an order is being
    /// paid is asked of its lock with a shared lock held for a moment, which
    /// ``interruptedOrders()`` waits for.
    func ledger(limited: [String], scope: CustomerScope) throws -> Ledger
    /// Records a held order as completed with the charge that paid it, in one transaction. If that
    /// fails the order stays pending, no longer held: the next payment settles it.
    func complete(_ order: PendingOrder, at: Instant, card: String, reference: String) throws -> OrderRecord
    /// Forgets a held order that was never charged, or was declined: its units and coupons go back
    /// to its customer's cart, and its redemptions are no longer held.
    func release(_ order: PendingOrder) throws
    /// Completed orders, oldest first.
    func orders() throws -> [OrderRecord]
}

/// What a gateway answers to a charge.
public enum ChargeOutcome: Sendable, Equatable {
    case approved(reference: String)
    case declined(reason: String)
}

/// A charge as the gateway recorded it: its outcome, and the card it used (masked).
public struct ChargeRecord: Sendable, Equatable {
    public var outcome: ChargeOutcome
    public var amount: Int64
    public var currency: Currency
    /// `•••• 4242`.
    public var card: String

    public init(outcome: ChargeOutcome, amount: Int64, currency: Currency, card: String) {
        self.outcome = outcome
        self.amount = amount
        self.currency = currency
        self.card = card
    }
}

/// Takes payments. A charge with an idempotency key already approved returns that approval and
/// charges nothing.
public protocol PaymentGateway: AnyObject {
    func charge(amount: Int64, currency: Currency, card: PaymentCard, idempotencyKey: String) throws -> ChargeOutcome
    /// The last charge with this key, if any, with the card it used.
    func status(idempotencyKey: String) throws -> ChargeRecord?
}

/// Where the simulated gateway keeps its charges, so that retries across launches stay idempotent.
public protocol ChargeLedger: AnyObject {
    func charge(forKey key: String) throws -> ChargeRecord?
    func record(_ outcome: ChargeOutcome, forKey key: String, amount: Int64, currency: Currency, card: String) throws
}

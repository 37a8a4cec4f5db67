@_exported import BatchPricing
@_exported import Explanations
@_exported import InputFiles
@_exported import Pricing
@_exported import PromotionDiff
@_exported import Promotions
@_exported import Receipts
import Synchronization

/// A store's catalog and promotions, loaded and compiled once, pricing carts: the engine the
/// `checkout` command prices and validates with, for a Swift server or app (on Linux).
///
///     let checkout = try Checkout(catalog: "Products.json", promotions: "Promotions.plist")
///     let receipt = try checkout.price(cart: #"["VOUCHER", "TSHIRT", "MUG"]"#)
///     print(checkout.text(receipt))  // or checkout.json(receipt)
///
/// A value: share it between threads; each ``price(cart:coupons:at:name:)`` call is independent.
/// docs/files.md says what catalogs, promotion files and carts hold; docs/pricing.md how a cart
/// is priced. Usage limits (`uses`, `uses_per_customer`) need the store's ledger, which this
/// type does not read: here every promotion is priced as if none had been redeemed.
public struct Checkout: Sendable {
    public let rules: PricingRules
    /// Cart readers of calls done, lent to later calls: a reader holds arrays as long as the
    /// catalog, too costly to make for each cart of a large catalog.
    private let readers = ReaderPool()

    /// Loads the catalog, then the promotions in its currency, and compiles them. Throws
    /// `PricingRulesError` for a catalog or promotions file that cannot be read or has errors
    /// (its diagnostics in `.promotionsInvalid`).
    public init(catalog: String, promotions: String) throws(PricingRulesError) {
        rules = try PricingRules.load(catalog: .file(catalog), promotions: .file(promotions))
    }

    public init(rules: PricingRules) {
        self.rules = rules
    }

    /// The cart in `json` (an array of codes, or an object with `items`, docs/files.md), priced at
    /// `instant` (default: the cart's own `at`, else now) with `coupons` presented besides its own.
    /// Throws `InputError` for a cart that cannot be read or priced, naming the item.
    public func price(cart json: String, coupons: [String] = [], at instant: Instant? = nil, name: String = "cart")
        throws(InputError) -> Receipt
    {
        try pricer(coupons: coupons, at: instant).price(read(json, name: name), name: name)
    }

    /// The cart in `json` priced as ``price(cart:coupons:at:name:)`` prices it, with why each
    /// promotion that concerns it did or did not apply (docs/explanations.md): the explanations
    /// of that very receipt.
    public func explain(cart json: String, coupons: [String] = [], at instant: Instant? = nil, name: String = "cart")
        throws(InputError) -> (receipt: Receipt, explanations: [Explanation])
    {
        let explained = try pricer(coupons: coupons, at: instant).explain(read(json, name: name), name: name)
        return (explained.receipt, explained.explanations)
    }

    /// Why each promotion that concerns the cart did or did not apply, at `receipt`'s instant.
    /// The cart is priced again: give the cart and the coupons `receipt` was priced with, or use
    /// ``explain(cart:coupons:at:name:)``, which prices and explains at once.
    public func explain(_ receipt: Receipt, cart json: String, coupons: [String] = []) throws(InputError)
        -> [Explanation]
    {
        try explain(cart: json, coupons: coupons, at: receipt.at).explanations
    }

    /// The receipt as `checkout price --format json` writes it.
    public func json(_ receipt: Receipt, explanations: [Explanation]? = nil) -> String {
        ReceiptEncoder.render(receipt, explanations: explanations, indented: true)
    }

    /// The receipt as `checkout price` writes it for people, without the near-miss hints that
    /// end a receipt there (they need the cart: ``text(cart:coupons:at:name:)``).
    public func text(_ receipt: Receipt) -> String { ReceiptText.render(receipt) }

    /// The cart in `json` priced and written as `checkout price` writes it for people, its
    /// near-miss hints included (`Add 1 more VOUCHER … save 5.00 €`, docs/explanations.md).
    public func text(cart json: String, coupons: [String] = [], at instant: Instant? = nil, name: String = "cart")
        throws(InputError) -> String
    {
        let pricer = pricer(coupons: coupons, at: instant)
        let cart = try read(json, name: name)
        return try pricer.text(of: cart, pricer.explain(cart, name: name))
    }

    /// A pricer for one call (carts are read by `read(_:name:)`: the pricer makes no reader).
    private func pricer(coupons: [String], at instant: Instant?) -> CartPricer {
        CartPricer(rules: rules.ruleSet, coupons: coupons, instant: instant, now: SystemClock().now())
    }

    /// The cart in `json`, read by a reader from the pool.
    private func read(_ json: String, name: String) throws(InputError) -> Cart {
        var reader: CartReader? = readers.take() ?? CartReader(catalog: rules.catalog)
        defer { readers.give(&reader) }
        return try reader!.read(Array(json.utf8), name: name)
    }
}

/// Cart readers lent from one call to the next: as many as calls ran at once, up to ``most``. A
/// reader is used by one call at a time, taken out under the lock and moved back in under it, so
/// no other copy of it is alive when the next call writes its arrays (which would copy them).
private final class ReaderPool: @unchecked Sendable {
    /// The most readers kept; calls beyond them at once make their own, freed after the call.
    static let most = 16
    private let lock = Mutex(())
    private var readers: [CartReader] = []

    func take() -> CartReader? { lock.withLock { _ in readers.popLast() } }

    /// Moves `reader` into the pool (or drops it when the pool is full), leaving nil.
    func give(_ reader: inout CartReader?) {
        lock.withLock { _ in
            guard let taken = reader.take(), readers.count < Self.most else { return }
            readers.append(taken)
        }
    }
}

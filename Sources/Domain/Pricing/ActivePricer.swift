/// One thread's pricer for the carts of a batch: the rules active at one instant (``ActiveRules``,
/// shared by the threads) and the thread's memory of best item rules, kept from cart to cart.
///
/// It gives the receipts ``PricingEngine/price(_:coupons:at:now:)`` gives, at a cost that does not
/// grow with the number of rules, and copies no shared reference per cart: the rule set's arrays and
/// the index are shared by every thread, and copying a reference to them changes its reference
/// count, a write to memory the other threads write too (with two threads, up to a fifth more time
/// per cart). A pricer is for one thread.
public struct ActivePricer {
    public let engine: PricingEngine
    private let chooser: IndexedChooser

    public init(engine: PricingEngine, active: ActiveRules) {
        self.engine = engine
        chooser = IndexedChooser(
            compiled: engine.rules.compiled, active: active,
            cache: BestItemRuleCache(productCount: engine.rules.catalog.products.count))
    }

    /// Prices `cart` as ``PricingEngine/price(_:coupons:at:now:)`` does; a cart priced at another
    /// instant than the index's takes the engine's general path. `storage`, the arrays of a receipt
    /// done with, lends them to this receipt (and is left empty).
    public func price(
        _ cart: Cart, coupons: [String] = [], at instant: Instant? = nil, now: Instant, storage: inout ReceiptStorage
    ) throws(PricingError) -> Receipt {
        let instant = instant ?? cart.at ?? now
        guard instant == chooser.active.instant else {
            return try engine.price(cart, coupons: coupons, at: instant, now: now)
        }
        var steps: [PricingStep]?
        // The chooser lent, not copied: a copy would count a reference to it for every cart.
        return try engine.price(cart, coupons: coupons, chooser: chooser, steps: &steps, storage: &storage)
    }

    /// As above, without storage to reuse.
    public func price(_ cart: Cart, coupons: [String] = [], at instant: Instant? = nil, now: Instant)
        throws(PricingError) -> Receipt
    {
        var storage = ReceiptStorage()
        return try price(cart, coupons: coupons, at: instant, now: now, storage: &storage)
    }
}

import Dispatch
import Explanations
import InputFiles
import Platform
import Pricing
import Receipts

/// Prices cart documents: reads one, resolves its items against the catalog and prices it with
/// the run's coupons and instant. One pricer serves many carts.
public struct CartPricer {
    public let engine: PricingEngine
    /// Coupons presented besides each cart's own (`--coupon`).
    public let coupons: [String]
    /// The instant to price at (`--at`); when nil, each cart's own `at`, else `now`.
    public let instant: Instant?
    public let now: Instant
    /// Made when the first cart's bytes are read: it holds arrays as long as the catalog, which a
    /// pricer given carts already read never needs.
    private var reader: CartReader?
    private let halves: CartHalves

    /// `ledger`: how often limited promotions were redeemed (`price --store`); nil: no limit binds.
    /// `halves`: whether a large cart is scanned on two cores (``CartHalves/onTwoCores`` when the
    /// caller has a core to spare); by default never.
    public init(
        rules: RuleSet, coupons: [String] = [], instant: Instant? = nil, now: Instant, ledger: RedemptionCounts? = nil,
        halves: CartHalves = .never
    ) {
        var engine = PricingEngine(rules: rules)
        engine.ledger = ledger
        self.engine = engine
        self.coupons = coupons
        self.instant = instant
        self.now = now
        self.halves = halves
    }

    /// The cart in `bytes`, read by this pricer's reader.
    private mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, name: String) throws(InputError) -> Cart {
        if reader == nil { reader = CartReader(catalog: engine.rules.catalog, halves: halves) }
        return try reader!.read(bytes, name: name)
    }

    /// The receipt of the cart in `bytes`, or why it cannot be priced; `name` is the file as
    /// messages show it.
    public mutating func price(_ bytes: UnsafeBufferPointer<UInt8>, name: String) -> Result<Receipt, InputError> {
        do {
            let cart = try read(bytes, name: name)
            return .success(try price(cart, name: name))
        } catch {
            return .failure(error)
        }
    }

    public mutating func price(_ bytes: [UInt8], name: String) -> Result<Receipt, InputError> {
        bytes.withUnsafeBufferPointer { price($0, name: name) }
    }

    public func price(_ cart: Cart, name: String) throws(InputError) -> Receipt {
        do {
            return try engine.price(cart, coupons: coupons, at: instant, now: now)
        } catch {
            var failure = InputError(file: name, error.description)
            failure.cartID = cart.id
            throw failure
        }
    }

    /// A receipt and why each promotion that concerns its cart did or did not apply.
    public struct Explained: Sendable {
        public var receipt: Receipt
        public var explanations: [Explanation]
    }

    /// The cart priced, with its explanations.
    public func explain(_ cart: Cart, name: String) throws(InputError) -> Explained {
        do {
            let (receipt, explanations) = try Explainer(engine: engine).explain(
                cart, coupons: coupons, at: instant, now: now)
            return Explained(receipt: receipt, explanations: explanations)
        } catch {
            var failure = InputError(file: name, error.description)
            failure.cartID = cart.id
            throw failure
        }
    }

    public mutating func explain(_ bytes: [UInt8], name: String) -> Result<Explained, InputError> {
        do {
            let cart = try bytes.withUnsafeBufferPointer { (bytes) throws(InputError) in try read(bytes, name: name) }
            return .success(try explain(cart, name: name))
        } catch {
            return .failure(error)
        }
    }

    /// The near-miss hints of a text receipt.
    public func hints(for cart: Cart, _ priced: Explained) -> [Hint] {
        Explainer(engine: engine).hints(
            for: cart, receipt: priced.receipt, explanations: priced.explanations, coupons: coupons)
    }

    /// `priced` (`cart`'s) as `checkout price` writes it for people: its near-miss hints last, and
    /// with `explained`, the explanations in words.
    public func text(of cart: Cart, _ priced: Explained, explained: Bool = false, style: TextStyle = .plain) -> String {
        ReceiptText.render(
            priced.receipt, hints: hints(for: cart, priced), explanations: explained ? priced.explanations : nil,
            style: style)
    }
}

extension CartHalves {
    /// Carts of 4 MiB or more scanned in two halves on two cores, on a machine that has them: for a
    /// run with a core to spare (a single cart, read while the rules compile; carts given one by
    /// one), not for a batch, whose workers have every core.
    public static let onTwoCores: CartHalves =
        Machine.processorCount > 1
        ? CartHalves(from: 4 << 20) { body in DispatchQueue.concurrentPerform(iterations: 2, execute: body) } : .never
}

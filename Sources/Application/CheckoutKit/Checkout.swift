@_exported import BatchPricing
@_exported import Explanations
@_exported import InputFiles
@_exported import Pricing
@_exported import PromotionDiff
@_exported import Promotions
@_exported import Receipts

/// A store's catalog and promotions, loaded and compiled once, pricing carts: the engine the
/// `checkout` command prices and validates with, for a Swift server or app.
///
///     let checkout = try Checkout(catalog: "Products.json", promotions: "Promotions.plist")
///     let receipt = try checkout.price(cart: #"["VOUCHER", "TSHIRT", "MUG"]"#)
///     print(checkout.text(receipt))  // or checkout.json(receipt)
///
/// A value: share it between threads; each ``price(cart:coupons:at:name:)`` call is independent.
/// docs/files.md says what catalogs, promotion files and carts hold; docs/pricing.md how a cart
/// is priced.
public struct Checkout: Sendable {
    public let rules: PricingRules

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
        var pricer = CartPricer(rules: rules.ruleSet, coupons: coupons, instant: instant, now: SystemClock().now())
        return try pricer.price(Array(json.utf8), name: name).get()
    }

    /// Why each promotion that concerns the cart did or did not apply (docs/explanations.md).
    public func explain(_ receipt: Receipt, cart json: String, coupons: [String] = []) throws(InputError)
        -> [Explanation]
    {
        var reader = CartReader(catalog: rules.catalog)
        let cart = try reader.read(Array(json.utf8), name: "cart")
        do {
            return try Explainer(engine: PricingEngine(rules: rules.ruleSet))
                .explain(cart, coupons: coupons, at: receipt.at, now: receipt.at).explanations
        } catch {
            throw InputError(file: "cart", error.description)
        }
    }

    /// The receipt as `checkout price --format json` writes it.
    public func json(_ receipt: Receipt, explanations: [Explanation]? = nil) -> String {
        ReceiptEncoder.render(receipt, explanations: explanations, indented: true)
    }

    /// The receipt as `checkout price` writes it for people.
    public func text(_ receipt: Receipt) -> String { ReceiptText.render(receipt) }
}

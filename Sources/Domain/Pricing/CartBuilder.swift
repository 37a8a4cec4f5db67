/// Builds carts from items with the rules every cart follows, wherever its items come from (a cart
/// file, the shop's stored cart): each code is a product of the catalog, each quantity is in
/// ``Cart/itemQuantities``, and units of one product merge into one line in order of first appearance.
public struct CartBuilder: Sendable {
    public let catalog: Catalog
    private var merger: CartLineMerger
    /// Makes "did you mean" for the catalog's codes (the pricing core has none of its own).
    private let makeSuggestions: CodeSuggester?
    /// "Did you mean", built the first time a code is unknown.
    private var suggest: (@Sendable (String) -> String?)?

    /// Given a catalog's codes, what suggests one of them for a code it lacks (or nil). `Suggestions`
    /// provides one (`CodeSuggestions.suggester`).
    public typealias CodeSuggester = @Sendable ([String]) -> @Sendable (String) -> String?

    /// Why an item cannot be added. Nothing of it is added.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// With the code most likely meant, when one is close.
        case unknownCode(String, suggestion: String?)
        case quantityOutOfRange(Int64)
        /// The line's total quantity would not fit in 64 bits.
        case lineTooLarge(code: String)

        public var description: String {
            switch self {
            case .unknownCode(let code, let suggestion):
                "unknown product code \"\(code.forDisplay(limit: String.messageValueLimit))\""
                    + (suggestion.map { "; did you mean \"\($0.forDisplay(limit: String.messageValueLimit))\"?" } ?? "")
            case .quantityOutOfRange(let quantity):
                "the quantity \(quantity) is out of range: use \(Cart.itemQuantities.lowerBound) to \(Cart.itemQuantities.upperBound)"
            case .lineTooLarge(let code):
                "the total quantity of \"\(code.forDisplay(limit: String.messageValueLimit))\" exceeds \(Int64.max)"
            }
        }
    }

    /// `suggestions`: how an unknown code gets its "did you mean" (nil: it gets none).
    public init(catalog: Catalog, suggestions: CodeSuggester?) {
        self.catalog = catalog
        merger = CartLineMerger(productCount: catalog.products.count)
        makeSuggestions = suggestions
    }

    /// The product with `code`, checked as an item would be.
    public mutating func product(_ code: String) throws(Problem) -> ProductID {
        guard let id = catalog.productID(for: code) else {
            if suggest == nil { suggest = makeSuggestions?(catalog.products.map(\.code)) }
            throw .unknownCode(code, suggestion: suggest?(code))
        }
        return id
    }

    /// Adds `quantity` units of the product with `code`.
    public mutating func add(_ code: String, quantity: Int64) throws(Problem) {
        let id = try product(code)
        guard Cart.itemQuantities.contains(quantity) else { throw .quantityOutOfRange(quantity) }
        guard merger.add(id, quantity: quantity) else { throw .lineTooLarge(code: code) }
    }

    /// The cart so far; the builder is empty afterwards, ready for the next one.
    public mutating func take(coupons: [String] = [], currency: Currency? = nil, at: Instant? = nil, id: CartID? = nil)
        -> Cart
    {
        Cart(lines: merger.takeLines(), coupons: coupons, currency: currency, at: at, id: id)
    }

    /// Drops what was added.
    public mutating func reset() {
        _ = merger.takeLines()
    }
}

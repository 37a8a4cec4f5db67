/// A valid promotion definition (docs/promotions-file.md): what it does (its ``Rule``, a kind and
/// its parameters), which products it targets, and when it applies.
public struct Promotion: Sendable, Equatable {
    public var id: String
    public var name: String
    public var rule: Rule
    /// Target product codes (`code`/`codes`); empty for cart promotions and promotions that name
    /// their products with selectors.
    public var codes: [String]
    /// The codes of the rewarded units, for kinds that reward other products than the ones bought
    /// (a buy-X-get-Y's `targets`); nil: its own products, or selectors in ``targetSelectors``.
    public var targets: [String]?
    /// `products`: the promotion's products by selectors instead of `codes`; for a cart
    /// promotion, the lines it works on (docs/selectors.md). Nil: `codes`, or every line of a cart.
    public var productSelectors: [ProductSelector]? {
        get { selection?.fields.productSelectors }
        set { changeSelection { $0.productSelectors = newValue } }
    }
    /// `targets` given as selectors.
    public var targetSelectors: [ProductSelector]? {
        get { selection?.fields.targetSelectors }
        set { changeSelection { $0.targetSelectors = newValue } }
    }
    /// `customer_groups`: a candidate only for a cart whose customer has one of them.
    public var customerGroups: [String]? {
        get { selection?.fields.customerGroups }
        set { changeSelection { $0.customerGroups = newValue } }
    }
    /// `uses`: at most this many orders may redeem it, all customers together (docs/store.md).
    public var uses: Int64? {
        get { selection?.fields.uses }
        set { changeSelection { $0.uses = newValue } }
    }
    /// `uses_per_customer`: at most this many orders of one customer id; a cart without one is not eligible.
    public var usesPerCustomer: Int64? {
        get { selection?.fields.usesPerCustomer }
        set { changeSelection { $0.usesPerCustomer = newValue } }
    }
    /// The five fields above, held apart: most files use none of them, and a promotion without
    /// them then carries one empty reference instead of 56 bytes (a large file holds hundreds of
    /// thousands of promotions, copied as rule sets are built).
    private var selection: Box?
    /// Active from this instant on (inclusive); nil: since always.
    public var start: Instant?
    /// Active until this instant (exclusive); nil: forever.
    public var end: Instant?
    /// Breaks ties between equal discounts: higher wins.
    public var priority: Int64
    public var isEnabled: Bool
    /// The coupon a cart must present for this promotion to apply (any letter case).
    public var coupon: String?

    public init(
        id: String, name: String, rule: Rule, codes: [String] = [], targets: [String]? = nil, start: Instant? = nil,
        end: Instant? = nil, priority: Int64 = 0, isEnabled: Bool = true, coupon: String? = nil,
        productSelectors: [ProductSelector]? = nil, targetSelectors: [ProductSelector]? = nil,
        customerGroups: [String]? = nil, uses: Int64? = nil, usesPerCustomer: Int64? = nil
    ) {
        selection =
            Selection(
                productSelectors: productSelectors, targetSelectors: targetSelectors, customerGroups: customerGroups,
                uses: uses, usesPerCustomer: usesPerCustomer
            ).nonEmpty
        self.id = id
        self.name = name
        self.rule = rule
        self.codes = codes
        self.targets = targets
        self.start = start
        self.end = end
        self.priority = priority
        self.isEnabled = isEnabled
        self.coupon = coupon
    }

    /// Its products, as it names them.
    public var products: ProductChoice { productSelectors.map(ProductChoice.selectors) ?? .codes(codes) }

    /// Its rewarded products when it names them apart: codes or selectors.
    public var rewards: ProductChoice? {
        targetSelectors.map(ProductChoice.selectors) ?? targets.map(ProductChoice.codes)
    }

    /// Whether it can run out (`uses`, `uses_per_customer`): such a promotion never shadows another.
    public var isLimited: Bool { uses != nil || usesPerCustomer != nil }

    /// Sets one of the selection fields: a new box (they are rarely set, and a box may be shared
    /// by copies of the promotion), none when every field is nil.
    private mutating func changeSelection(_ change: (inout Selection) -> Void) {
        var changed = selection?.fields ?? Selection()
        change(&changed)
        selection = changed.nonEmpty
    }

    /// `start ≤ instant < end`, a missing bound being open.
    public func isActive(at instant: Instant) -> Bool {
        (start.map { $0 <= instant } ?? true) && (end.map { instant < $0 } ?? true)
    }
}

extension Promotion {
    /// Selectors, customer groups and usage limits (docs/selectors.md, docs/store.md), in one
    /// immutable box behind a reference: Equatable by value.
    fileprivate struct Selection: Equatable, Sendable {
        var productSelectors: [ProductSelector]?
        var targetSelectors: [ProductSelector]?
        var customerGroups: [String]?
        var uses: Int64?
        var usesPerCustomer: Int64?

        /// Boxed, or nil when every field is nil.
        var nonEmpty: Box? {
            productSelectors == nil && targetSelectors == nil && customerGroups == nil && uses == nil
                && usesPerCustomer == nil ? nil : Box(self)
        }
    }

    fileprivate final class Box: Equatable, Sendable, CustomReflectable {
        let fields: Selection
        init(_ fields: Selection) { self.fields = fields }
        static func == (a: Box, b: Box) -> Bool { a === b || a.fields == b.fields }
        /// A failed expectation shows the fields, not the box.
        var customMirror: Mirror { Mirror(reflecting: fields) }
    }
}

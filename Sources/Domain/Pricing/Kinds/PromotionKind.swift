/// One kind of promotion (`combo`, `bulk`, …): everything that makes it what it is, in one file of
/// `Kinds/` — its keys and their decoding, what it costs a cart, how explanations find its missing
/// units, when it can never lower a price, and its words. ``PromotionKinds`` lists the kinds; every
/// other part of Checkout asks a promotion's kind instead of switching over kinds
/// (docs/architecture.md, "Adding a promotion kind").
public protocol PromotionKind: Sendable, Equatable {
    /// The `type` that names the kind in a promotions file.
    static var type: String { get }
    /// How the kind uses units (docs/pricing.md, "Units").
    static var scope: PromotionScope { get }
    /// What the kind does, in a receipt's words: "bulk price", "buy X get Y".
    static var label: String { get }
    /// The keys the kind takes besides the ones every promotion may hold; a key outside them is
    /// `promotion.invalid-value`.
    static var keys: Set<PromotionKey> { get }
    /// The kind's parameters read from `fields`, every problem reported there; nil when any.
    /// (Inlinable in each kind, so that it is specialized for the file decoder's fields.)
    static func decode(_ fields: inout some PromotionFields) -> Self?
    /// The kind with its parameters, as a promotion holds it.
    var rule: Promotion.Rule { get }

    /// The promotion in shoppers' words ("2 for 1", "any 3 for 20.00 €").
    func words(_ context: PromotionKindWords) -> String
    /// How explanations look for the units a cart lacks (docs/explanations.md).
    var missingUnits: MissingUnitsRule { get }
    /// With a catalog: why the promotion can never lower the price of some of its products.
    func noDiscountFindings(_ context: NoDiscountContext) -> [NoDiscountFinding]
}

extension PromotionKind {
    public func noDiscountFindings(_ context: NoDiscountContext) -> [NoDiscountFinding] { [] }
}

/// What a kind's words may mention besides its parameters.
public struct PromotionKindWords: Sendable {
    public var money: MoneyStyle
    /// The codes the promotion names.
    public var codes: [String]
    /// The codes it rewards, when it names them apart.
    public var rewards: [String]?
    /// The product the words are shown next to, if any.
    public var shownWith: String?
    /// The part of the cart a cart promotion works on, in words ("products not tagged sale"), when
    /// it names products (docs/selectors.md); nil: the whole cart.
    public var part: String?

    public init(
        money: MoneyStyle, codes: [String] = [], rewards: [String]? = nil, shownWith: String? = nil,
        part: String? = nil
    ) {
        self.money = money
        self.codes = codes
        self.rewards = rewards
        self.shownWith = shownWith
        self.part = part
    }
}

/// How a promotion uses units (docs/pricing.md, "Units").
public enum PromotionScope: Sendable {
    /// Works on the free units of one line at a time.
    case line
    /// Works on units of several lines at once, once per cart.
    case group
    /// Works on the cart's total and uses no units.
    case cart
}

/// How explanations find the least units a cart lacks for a promotion (docs/explanations.md).
public enum MissingUnitsRule: Sendable, Equatable {
    /// The least units that give it an application on the cart's units; at most `most` added.
    case firstApplication(atMost: Int64?)
    /// The least units that make it apply at least once (a buy-X-get-Y's k above 0). A rewarded
    /// unit listed at or below `worthlessAtOrBelow` is worth nothing: when no product it could
    /// reward is listed above it, no units make it apply.
    case firstGroup(worthlessAtOrBelow: Int64)
    /// Spend, not units (cart promotions).
    case spend
}

/// What a kind's no-discount check looks at: the list prices of the promotion's catalog products,
/// in the order it names them, and of its rewarded products (its own products when it has none);
/// codes as messages show them (control characters escaped), money formatted for messages.
///
/// A promotion whose products are selected (docs/selectors.md) is checked on the dearest product
/// it selects and the dearest it could reward: `products` and `rewards` then hold one product
/// each (rewards none when it could reward none), and `selected` says how many it selects. A
/// kind's reasons must hold for every cheaper product when they hold for a dearer one.
public struct NoDiscountContext: Sendable {
    public var products: [(code: String, price: Int64)]
    public var rewards: [(code: String, price: Int64)]
    /// The currency's minor digits, for ``money(_:)``.
    public var minorDigits: Int
    /// How many products the promotion selects, when selectors name them; nil for codes.
    public var selected: Int?

    public init(
        products: [(code: String, price: Int64)], rewards: [(code: String, price: Int64)], minorDigits: Int,
        selected: Int? = nil
    ) {
        self.products = products
        self.rewards = rewards
        self.minorDigits = minorDigits
        self.selected = selected
    }

    /// Whether `products` holds only the dearest of several products the promotion selects.
    public var dearestOfSeveral: Bool { (selected ?? 0) > 1 }

    /// An amount as messages write it: `19.99`.
    public func money(_ amount: Int64) -> String { Amount.format(amount, minorDigits: minorDigits) }
}

/// A reason a promotion can never lower a price, and where the file says it: at one of the
/// promotion's keys, or at its `product`-th code.
public struct NoDiscountFinding: Sendable, Equatable {
    public enum Site: Sendable, Equatable {
        case key(PromotionKey)
        case product(Int)
    }

    public var message: String
    public var site: Site

    public init(_ message: String, at site: Site) {
        self.message = message
        self.site = site
    }
}

/// A kind that works on one line's free units at a time.
public protocol LinePromotionKind: PromotionKind {
    /// The discount on a line of `quantity` free units at `unitPrice`; never more than their value,
    /// which the caller has checked fits in 64 bits.
    func discount(quantity: Int64, unitPrice: Int64) -> Int64
    /// Its discount in one of the forms the shadowed check compares (docs/validate.md).
    var shadowShape: ShadowShape { get }
}

/// A kind that works on units of several lines, once per cart.
protocol GroupPromotionKind: PromotionKind {
    /// The least units of its products, and of its rewarded products when it has them, a cart
    /// must hold for one application: the engine rules the promotion out for a cart without them.
    func unitsNeeded(hasRewards: Bool) -> (products: Int64, rewards: Int64)
    /// Its application on the `free` units of the lines it works on, or nil when it has none.
    /// `record` false works out the discount alone, allocating nothing.
    func application(lines: GroupApplication.Lines, free: [Int64], prices: [Int64], record: Bool)
        -> GroupApplication?
    /// How its discount goes to the lines whose units it used (docs/pricing.md, "Attributing a
    /// discount"): `parts` in line order.
    func shares(of application: GroupApplication, parts: [GroupApplication.Part]) -> [Int64]
    /// How many times it applies to the free units of its lines (a buy-X-get-Y's k), for kinds
    /// whose missing units are counted that way; nil for others.
    func applicationCount(lines: GroupApplication.Lines, free: [Int64]) -> Int64?
}

/// 1250 hundredths → "12.5%".
func percentWords(_ hundredths: Int64) -> String {
    var text = Amount.format(hundredths, minorDigits: 2)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text + "%"
}

/// ", once per order", ", at most twice per order", …
func timesWords(_ limit: Int64?) -> String {
    switch limit {
    case nil: ""
    case 1?: ", once per order"
    case 2?: ", at most twice per order"
    case let n?: ", at most \(n) times per order"
    }
}

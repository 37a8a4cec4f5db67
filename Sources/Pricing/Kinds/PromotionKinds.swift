/// The registry of promotion kinds: the one list of them, and the one place that turns a rule into
/// its kind. Adding a kind is a file in `Kinds/` plus a case here (docs/architecture.md).
public enum PromotionKinds {
    /// Every kind, in the order messages list them.
    public static let all: [any PromotionKind.Type] = [
        Combo.self, Bulk.self, PercentOff.self, AmountOff.self, CartOff.self, ProductBundle.self, BuyXGetY.self
    ]
}

extension Promotion {
    /// What a promotion does: its kind and the kind's parameters (amounts in minor units,
    /// percentages in hundredths of a percent).
    public enum Rule: Sendable, Equatable {
        case combo(Combo)
        case bulk(Bulk)
        case percent(PercentOff)
        case amount(AmountOff)
        case cart(CartOff)
        case bundle(ProductBundle)
        case bxgy(BuyXGetY)

        public init(_ kind: some PromotionKind) {
            switch kind {
            case let kind as Combo: self = .combo(kind)
            case let kind as Bulk: self = .bulk(kind)
            case let kind as PercentOff: self = .percent(kind)
            case let kind as AmountOff: self = .amount(kind)
            case let kind as CartOff: self = .cart(kind)
            case let kind as ProductBundle: self = .bundle(kind)
            case let kind as BuyXGetY: self = .bxgy(kind)
            default: preconditionFailure("\(Swift.type(of: kind)) is not listed in PromotionKinds")
            }
        }

        /// The kind and its parameters.
        public var kind: any PromotionKind {
            switch self {
            case .combo(let kind): kind
            case .bulk(let kind): kind
            case .percent(let kind): kind
            case .amount(let kind): kind
            case .cart(let kind): kind
            case .bundle(let kind): kind
            case .bxgy(let kind): kind
            }
        }

        /// The type as written in files.
        public var type: PromotionType { PromotionType(Swift.type(of: kind)) }

        public var isCartRule: Bool { type.scope == .cart }

        /// A line kind's discount on `quantity` free units of a line at `unitPrice`; 0 for other kinds.
        @inline(__always)
        func lineDiscount(quantity: Int64, unitPrice: Int64) -> Int64 {
            switch self {
            case .combo(let kind): kind.discount(quantity: quantity, unitPrice: unitPrice)
            case .bulk(let kind): kind.discount(quantity: quantity, unitPrice: unitPrice)
            case .percent(let kind): kind.discount(quantity: quantity, unitPrice: unitPrice)
            case .amount(let kind): kind.discount(quantity: quantity, unitPrice: unitPrice)
            case .cart, .bundle, .bxgy: 0
            }
        }

        /// A cart kind's discount on a cart total of `subtotal`; 0 for other kinds.
        @inline(__always)
        func cartDiscount(subtotal: Int64) -> Int64 {
            guard case .cart(let kind) = self else { return 0 }
            return kind.discount(subtotal: subtotal)
        }

        /// The cart kind's ranking for the index of active cart promotions.
        var cartRanking: (family: Int, value: Int64)? {
            guard case .cart(let kind) = self else { return nil }
            return kind.ranking
        }

        /// The cart kind's minimum total; 0 for other kinds.
        var cartMinimum: Int64 {
            guard case .cart(let kind) = self else { return 0 }
            return kind.minimum
        }

        /// A group kind's parameters, for the engine's group steps.
        var group: (any GroupPromotionKind)? {
            switch self {
            case .bundle(let kind): kind
            case .bxgy(let kind): kind
            case .combo, .bulk, .percent, .amount, .cart: nil
            }
        }

        /// A group kind's application (statically dispatched: the choice asks for it at every step).
        @inline(__always)
        func groupApplication(lines: GroupApplication.Lines, free: [Int64], prices: [Int64], record: Bool)
            -> GroupApplication?
        {
            switch self {
            case .bundle(let kind): kind.application(lines: lines, free: free, prices: prices, record: record)
            case .bxgy(let kind): kind.application(lines: lines, free: free, prices: prices, record: record)
            case .combo, .bulk, .percent, .amount, .cart: nil
            }
        }
    }
}

/// A promotion type as files name it (`combo`, `bxgy`…): its kind.
public struct PromotionType: Sendable, Hashable, CustomStringConvertible {
    public let kind: any PromotionKind.Type

    public init(_ kind: any PromotionKind.Type) {
        self.kind = kind
    }

    /// The type named `name`, compared byte by byte.
    public init?(name: String) {
        var name = name
        let found = name.withUTF8 { bytes in
            Self.names.firstIndex { $0.count == bytes.count && $0.elementsEqual(bytes) }
        }
        guard let found else { return nil }
        self = Self.allCases[found]
    }

    public static let allCases = PromotionKinds.all.map(PromotionType.init)
    private static let names = PromotionKinds.all.map { Array($0.type.utf8) }

    /// As written in files.
    public var rawValue: String { kind.type }
    public var scope: PromotionScope { kind.scope }
    /// In a receipt's words: "buy X get Y".
    public var label: String { kind.label }
    public var description: String { kind.type }

    public static func == (a: PromotionType, b: PromotionType) -> Bool {
        ObjectIdentifier(a.kind) == ObjectIdentifier(b.kind)
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(kind)) }
}

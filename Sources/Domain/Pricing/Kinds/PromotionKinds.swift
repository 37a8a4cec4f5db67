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

        /// A rule of `type` read from `fields` by its kind, every problem reported there; nil when any.
        /// (Dispatched here, each kind called directly, so that its inlinable decoding is
        /// specialized for the caller's fields.)
        @inlinable
        public static func decode(_ type: PromotionType, _ fields: inout some PromotionFields) -> Rule? {
            switch type {
            case .combo: Combo.decode(&fields).map(Rule.combo)
            case .bulk: Bulk.decode(&fields).map(Rule.bulk)
            case .percent: PercentOff.decode(&fields).map(Rule.percent)
            case .amount: AmountOff.decode(&fields).map(Rule.amount)
            case .cart: CartOff.decode(&fields).map(Rule.cart)
            case .bundle: ProductBundle.decode(&fields).map(Rule.bundle)
            case .bxgy: BuyXGetY.decode(&fields).map(Rule.bxgy)
            default: preconditionFailure("\(type) is not decoded by PromotionKinds")
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

        /// The type as written in files (without boxing the parameters: receipts ask it per line).
        public var type: PromotionType {
            switch self {
            case .combo: .combo
            case .bulk: .bulk
            case .percent: .percent
            case .amount: .amount
            case .cart: .cart
            case .bundle: .bundle
            case .bxgy: .bxgy
            }
        }

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

        /// A line kind's discount in the forms the shadowed check compares; nil for other kinds,
        /// whose discount is not a function of one line.
        public var shadowShape: ShadowShape? {
            switch self {
            case .combo(let kind): kind.shadowShape
            case .bulk(let kind): kind.shadowShape
            case .percent(let kind): kind.shadowShape
            case .amount(let kind): kind.shadowShape
            case .cart, .bundle, .bxgy: nil
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

/// A promotion type as files name it (`combo`, `bxgy`…): its kind, by its place in the registry.
public struct PromotionType: Sendable, Hashable, CustomStringConvertible {
    /// The kind's position in ``PromotionKinds/all``.
    @usableFromInline let index: UInt8

    public init(_ kind: any PromotionKind.Type) {
        let index = PromotionKinds.all.firstIndex { ObjectIdentifier($0) == ObjectIdentifier(kind) }
        precondition(index != nil, "\(kind) is not listed in PromotionKinds.all")
        self.index = UInt8(index!)
    }

    private init(index: Int) {
        self.index = UInt8(index)
    }

    /// The type named `name`, compared byte by byte.
    public init?(name: String) {
        var name = name
        let found = name.withUTF8 { bytes in
            Self.names.firstIndex { $0.count == bytes.count && $0.elementsEqual(bytes) }
        }
        guard let found else { return nil }
        self.init(index: found)
    }

    public static let allCases = PromotionKinds.all.indices.map(PromotionType.init(index:))
    private static let names = PromotionKinds.all.map { Array($0.type.utf8) }
    /// Per type, the known keys it may not hold, in the keys' order.
    private static let forbidden: [[PromotionKey]] = PromotionKinds.all.map { kind in
        PromotionKey.allCases.filter { !PromotionKey.common.contains($0) && !kind.keys.contains($0) }
    }

    public var kind: any PromotionKind.Type { PromotionKinds.all[Int(index)] }
    /// As written in files.
    public var rawValue: String { kind.type }
    public var scope: PromotionScope { kind.scope }
    /// In a receipt's words: "buy X get Y".
    public var label: String { kind.label }
    public var description: String { kind.type }
    /// The known keys a promotion of this type may not hold, in the keys' order.
    public var forbiddenKeys: [PromotionKey] { Self.forbidden[Int(index)] }
}

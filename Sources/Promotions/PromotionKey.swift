import Pricing

/// The keys one promotion `<dict>` may hold (SPEC §4, §10.1).
enum PromotionKey: Int, CaseIterable {
    case name, id, type, code, codes, quantity, paid, price, percent, amount, minimum, start, end, priority, enabled, coupon
    case limit, cap, get, targets

    var text: String { Self.texts[rawValue] }

    private static let texts = [
        "name", "id", "type", "code", "codes", "quantity", "paid", "price", "percent", "amount", "minimum", "start", "end",
        "priority", "enabled", "coupon", "limit", "cap", "get", "targets",
    ]
    private static let utf8Texts = texts.map { Array($0.utf8) }
    static let allTexts = texts

    /// The key spelled by these bytes, compared without building a String: keys of the same length
    /// are few.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        for candidate in Self.byLength[min(bytes.count, Self.byLength.count - 1)] where Self.utf8Texts[candidate.rawValue].elementsEqual(bytes) {
            self = candidate
            return
        }
        return nil
    }

    /// Keys by the length of their text; the last slot (longer than any key) is empty.
    private static let byLength: [[PromotionKey]] = {
        let longest = texts.map(\.utf8.count).max()!
        var table = [[PromotionKey]](repeating: [], count: longest + 2)
        for key in allCases { table[key.text.utf8.count].append(key) }
        return table
    }()
}

/// Which keys each promotion type takes (SPEC §4, §10.1), as data: a key outside a type's set is a
/// `promotion.invalid-value`; the decoder of each type checks its own required ones.
extension PromotionType {
    /// Keys every promotion may hold.
    static let commonKeys: Set<PromotionKey> = [.name, .id, .type, .start, .end, .priority, .enabled, .coupon]

    /// The keys a promotion of this type may hold besides the common ones.
    var ownKeys: Set<PromotionKey> {
        switch self {
        case .combo: [.code, .codes, .quantity, .paid]
        case .bulk: [.code, .codes, .quantity, .price]
        case .percent: [.code, .codes, .quantity, .percent, .cap]
        case .amount: [.code, .codes, .quantity, .amount]
        case .cart: [.percent, .amount, .minimum, .cap]
        case .bundle: [.code, .codes, .quantity, .price, .percent, .amount, .limit]
        case .bxgy: [.code, .codes, .quantity, .get, .targets, .percent, .price, .limit]
        }
    }

    /// Known keys a promotion of this type may not hold, in declaration order.
    var forbiddenKeys: [PromotionKey] { Self.forbiddenByType[Self.allCases.firstIndex(of: self)!] }

    /// Per type, in `allCases` order: worked out once from ``ownKeys``.
    private static let forbiddenByType: [[PromotionKey]] = allCases.map { type in
        let allowed = type.ownKeys.union(commonKeys)
        return PromotionKey.allCases.filter { !allowed.contains($0) }
    }
}

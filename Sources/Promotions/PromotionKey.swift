import Pricing

/// The keys one promotion `<dict>` may hold (SPEC §4, §10.1).
enum PromotionKey: Int, CaseIterable {
    case name, id, type, code, codes, quantity, paid, price, percent, amount, minimum, start, end, priority, enabled,
        coupon
    case limit, cap, get, targets

    /// The key as written in files.
    var text: String { spelling.description }

    private var spelling: StaticString {
        switch self {
        case .name: "name"
        case .id: "id"
        case .type: "type"
        case .code: "code"
        case .codes: "codes"
        case .quantity: "quantity"
        case .paid: "paid"
        case .price: "price"
        case .percent: "percent"
        case .amount: "amount"
        case .minimum: "minimum"
        case .start: "start"
        case .end: "end"
        case .priority: "priority"
        case .enabled: "enabled"
        case .coupon: "coupon"
        case .limit: "limit"
        case .cap: "cap"
        case .get: "get"
        case .targets: "targets"
        }
    }

    static let allTexts = allCases.map(\.text)

    /// The key spelled by these bytes, compared without building a String: the length and first
    /// byte leave one candidate.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let first = bytes.first else { return nil }
        let candidate: PromotionKey
        switch (bytes.count, first) {
        case (4, UInt8(ascii: "n")): candidate = .name
        case (2, UInt8(ascii: "i")): candidate = .id
        case (4, UInt8(ascii: "t")): candidate = .type
        case (4, UInt8(ascii: "c")): candidate = .code
        case (5, UInt8(ascii: "c")): candidate = .codes
        case (8, UInt8(ascii: "q")): candidate = .quantity
        case (4, UInt8(ascii: "p")): candidate = .paid
        case (5, UInt8(ascii: "p")): candidate = .price
        case (7, UInt8(ascii: "p")): candidate = .percent
        case (6, UInt8(ascii: "a")): candidate = .amount
        case (7, UInt8(ascii: "m")): candidate = .minimum
        case (5, UInt8(ascii: "s")): candidate = .start
        case (3, UInt8(ascii: "e")): candidate = .end
        case (8, UInt8(ascii: "p")): candidate = .priority
        case (7, UInt8(ascii: "e")): candidate = .enabled
        case (6, UInt8(ascii: "c")): candidate = .coupon
        case (5, UInt8(ascii: "l")): candidate = .limit
        case (3, UInt8(ascii: "c")): candidate = .cap
        case (3, UInt8(ascii: "g")): candidate = .get
        case (7, UInt8(ascii: "t")): candidate = .targets
        default: return nil
        }
        let text = candidate.spelling
        guard text.utf8CodeUnitCount == bytes.count else { return nil }
        for index in 1..<bytes.count where text.utf8Start[index] != bytes[index] { return nil }
        self = candidate
    }
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
    var forbiddenKeys: [PromotionKey] { Self.forbiddenByType[caseIndex] }

    /// The type's position in `allCases`, without building the array (per promotion decoded).
    private var caseIndex: Int {
        switch self {
        case .combo: 0
        case .bulk: 1
        case .percent: 2
        case .amount: 3
        case .cart: 4
        case .bundle: 5
        case .bxgy: 6
        }
    }

    /// The type `text` names, as `init(rawValue:)` finds it, compared byte by byte: a switch over
    /// strings compares each case in turn, at about 250 instructions per promotion decoded.
    init?(name text: String) {
        var text = text
        let found = text.withUTF8 { bytes -> PromotionType? in
            for (type, name) in Self.names where name.count == bytes.count && name.elementsEqual(bytes) {
                return type
            }
            return nil
        }
        guard let found else { return nil }
        self = found
    }

    private static let names: [(PromotionType, [UInt8])] = allCases.map { ($0, Array($0.rawValue.utf8)) }

    /// Per type, in `allCases` order: worked out once from ``ownKeys``.
    private static let forbiddenByType: [[PromotionKey]] = allCases.map { type in
        let allowed = type.ownKeys.union(commonKeys)
        return PromotionKey.allCases.filter { !allowed.contains($0) }
    }
}

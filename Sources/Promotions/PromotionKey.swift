/// The promotion types of SPEC §4.
public enum PromotionType: String, CaseIterable, Sendable {
    case combo, bulk, percent, amount, cart
}

/// The keys one promotion `<dict>` may hold (SPEC §4).
enum PromotionKey: Int, CaseIterable {
    case name, id, type, code, codes, quantity, paid, price, percent, amount, minimum, start, end, priority, enabled, coupon

    var text: String {
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
        default: return nil
        }
        guard candidate.matches(bytes) else { return nil }
        self = candidate
    }

    private func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let utf8 = PromotionKey.utf8Texts[rawValue]
        return bytes.count == utf8.count && bytes.elementsEqual(utf8)
    }

    private static let utf8Texts = allCases.map { Array($0.text.utf8) }

    /// Keys a promotion of this type may not hold.
    static func forbidden(for type: PromotionType) -> [PromotionKey] {
        switch type {
        case .combo: [.price, .percent, .amount, .minimum]
        case .bulk: [.paid, .percent, .amount, .minimum]
        case .percent: [.paid, .price, .amount, .minimum]
        case .amount: [.paid, .price, .percent, .minimum]
        case .cart: [.code, .codes, .quantity, .paid, .price]
        }
    }
}

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

    /// The key spelled by these bytes, compared without building a String.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        for key in PromotionKey.allCases where key.matches(bytes) {
            self = key
            return
        }
        return nil
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

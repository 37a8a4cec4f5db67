import Foundation

/// What a Foundation user writes to read carts with JSONDecoder: items as codes or {code, quantity}.
public enum CartItemRecord: Decodable {
    case code(String)
    case object(code: String, quantity: Int?)

    enum Keys: String, CodingKey { case code, quantity }

    public init(from decoder: Decoder) throws {
        if let code = try? decoder.singleValueContainer().decode(String.self) {
            self = .code(code)
            return
        }
        let object = try decoder.container(keyedBy: Keys.self)
        self = .object(
            code: try object.decode(String.self, forKey: .code),
            quantity: try object.decodeIfPresent(Int.self, forKey: .quantity))
    }

    /// The counts a Dictionary aggregation gives.
    public static func counts(_ items: [CartItemRecord]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for item in items {
            switch item {
            case .code(let code): counts[code, default: 0] += 1
            case .object(let code, let quantity): counts[code, default: 0] += quantity ?? 1
            }
        }
        return counts
    }
}

/// What a Foundation user writes to read promotions with PropertyListDecoder.
public struct PromotionRecord: Decodable {
    public var id: String?, name: String, type: String, code: String?, codes: [String]?, quantity: Int?, paid: Int?
    public var price: Double?, percent: Double?, amount: String?, minimum: Double?, start: Date?, end: Date?,
        priority: Int?, coupon: String?
}

public struct PromotionsRecord: Decodable {
    public var currency: String?
    public var promotions: [PromotionRecord]
}

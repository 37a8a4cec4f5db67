/// The keys a promotion `<dict>` may hold, in the order docs and "known keys" lists give them
/// (docs/promotions-file.md). Which of them a promotion takes depends on its kind
/// (``PromotionKind/keys``); the ones every promotion takes are ``common``.
public enum PromotionKey: Int, CaseIterable, Sendable {
    case name, id, type, code, codes, quantity, paid, price, percent, amount, minimum, start, end, priority, enabled,
        coupon
    case limit, cap, get, targets

    /// The key as written in files.
    public var text: String { Self.texts[rawValue] }

    /// Keys every promotion may hold.
    public static let common: Set<PromotionKey> = [.name, .id, .type, .start, .end, .priority, .enabled, .coupon]

    /// The keys that name an item promotion's products.
    public static let products: Set<PromotionKey> = [.code, .codes]

    public static let allTexts: [String] = allCases.map(\.spelling)

    private static let texts = allTexts

    private var spelling: String {
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

    /// The keys by length, each with its bytes: a key is found by comparing bytes with the few keys
    /// of its length, without building a String (this runs for every key of a file).
    private static let byLength: [[(key: PromotionKey, bytes: [UInt8])]] = {
        var table = [[(key: PromotionKey, bytes: [UInt8])]](
            repeating: [], count: 1 + allCases.map { $0.spelling.utf8.count }.max()!)
        for key in allCases { table[key.spelling.utf8.count].append((key, Array(key.spelling.utf8))) }
        return table
    }()

    /// The key spelled by these bytes.
    public init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count < Self.byLength.count else { return nil }
        for (key, spelling) in Self.byLength[bytes.count] where spelling.elementsEqual(bytes) {
            self = key
            return
        }
        return nil
    }
}

/// The keys a promotion `<dict>` may hold, in the order docs and "known keys" lists give them
/// (docs/promotions-file.md). Which of them a promotion takes depends on its kind
/// (``PromotionKind/keys``); the ones every promotion takes are ``common``.
public enum PromotionKey: Int, CaseIterable, Sendable {
    case name, id, type, code, codes, quantity, paid, price, percent, amount, minimum, start, end, priority, enabled,
        coupon
    case limit, cap, get, targets
    case products, customerGroups, uses, usesPerCustomer

    /// The key as written in files.
    public var text: String { Self.texts[rawValue] }

    /// Keys every promotion may hold.
    public static let common: Set<PromotionKey> = [
        .name, .id, .type, .start, .end, .priority, .enabled, .coupon, .customerGroups, .uses, .usesPerCustomer
    ]

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
        case .products: "products"
        case .customerGroups: "customer_groups"
        case .uses: "uses"
        case .usesPerCustomer: "uses_per_customer"
        }
    }

    /// The key spelled by these bytes: one slot of ``KeyLookup`` names the only candidate, whose
    /// bytes are then compared (this runs for every key of a file: no String is built).
    public init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let found = Self.lookup.key(bytes) else { return nil }
        self = found
    }

    private static let lookup = KeyLookup()
}

/// Keys by a hash of their length, first and last byte into 256 slots, checked when built: where
/// two keys would share a slot, the slot says so and both are compared.
private struct KeyLookup {
    static let empty: UInt8 = 0xFF
    static let shared: UInt8 = 0xFE
    var slots = [UInt8](repeating: KeyLookup.empty, count: 256)
    /// Every key's spelling, one after the other; key `k`'s is `bytes[starts[k]..<starts[k + 1]]`.
    var bytes: [UInt8] = []
    var starts: [Int] = [0]

    init() {
        for (raw, text) in PromotionKey.allTexts.enumerated() {
            let spelling = Array(text.utf8)
            bytes += spelling
            starts.append(bytes.count)
            let slot = Self.slot(count: spelling.count, first: spelling[0], last: spelling[spelling.count - 1])
            slots[slot] = slots[slot] == Self.empty ? UInt8(raw) : Self.shared
        }
    }

    /// Whether key `raw` is spelled `text`.
    @inline(__always)
    func spells(_ raw: Int, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[raw]
        guard starts[raw + 1] - start == text.count else { return false }
        return bytes.withUnsafeBufferPointer { bytes in
            for index in 0..<text.count where bytes[start + index] != text[index] { return false }
            return true
        }
    }

    @inline(__always)
    static func slot(count: Int, first: UInt8, last: UInt8) -> Int {
        (count &+ Int(first) &* 2 &+ Int(last) &* 9) & 255
    }

    @inline(__always)
    func key(_ bytes: UnsafeBufferPointer<UInt8>) -> PromotionKey? {
        guard let first = bytes.first, let last = bytes.last else { return nil }
        let candidate = slots[Self.slot(count: bytes.count, first: first, last: last)]
        switch candidate {
        case Self.empty: return nil
        case Self.shared: return PromotionKey.allCases.first { spells($0.rawValue, bytes) }
        default: return spells(Int(candidate), bytes) ? PromotionKey(rawValue: Int(candidate)) : nil
        }
    }
}

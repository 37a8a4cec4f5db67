/// Where a kind reads its keys, and where it reports what is wrong with them: the promotions file's
/// decoder gives one per promotion. Values of the wrong plist type, out of range or not exact are
/// reported by the reader itself (`promotion.invalid-value`); a kind reports what only it knows,
/// with ``reject(_:_:)`` and ``missing(_:needed:)``.
public protocol PromotionFields {
    /// The position of `key`'s `<key>` element among the promotion's, nil when absent.
    func order(of key: PromotionKey) -> Int?
    /// An `<integer>`; nil when absent or invalid (reported).
    mutating func integer(_ key: PromotionKey) -> Int64?
    /// Money in the file's currency, exact; at least `minimum`, or above 0 when `positive`; nil when
    /// absent or invalid (reported).
    mutating func money(_ key: PromotionKey, minimum: Int64?, positive: Bool) -> Int64?
    /// `percent`: a multiple of 0.01 in (0, 100], in hundredths of a percent; nil when absent or
    /// invalid (reported).
    mutating func percentage() -> Int64?
    /// Reports `promotion.invalid-value` at `key`'s value.
    mutating func reject(_ key: PromotionKey, _ message: String)
    /// Reports `promotion.missing-key` at the promotion: "missing `what`: `needed`".
    mutating func missing(_ what: String, needed: String)
}

extension PromotionFields {
    @inlinable public func has(_ key: PromotionKey) -> Bool { order(of: key) != nil }

    /// An integer the kind cannot do without.
    @inlinable public mutating func requiredInteger(_ key: PromotionKey, needed: String) -> Int64? {
        guard has(key) else { return missing(key, needed) }
        return integer(key)
    }

    /// Reports `key` missing; nil.
    @inlinable public mutating func missing(_ key: PromotionKey, _ needed: String) -> Int64? {
        missing("key `\(key.text)`", needed: needed)
        return nil
    }

    /// Money the kind cannot do without.
    @inlinable public mutating func requiredMoney(
        _ key: PromotionKey, minimum: Int64? = nil, positive: Bool = false, needed: String
    )
        -> Int64?
    {
        guard has(key) else { return missing(key, needed) }
        return money(key, minimum: minimum, positive: positive)
    }

    /// An optional integer ≥ 1 (`limit`, `get`): `.absent`, its value, or nil when invalid.
    @inlinable public mutating func optionalCount(_ key: PromotionKey, what: String) -> Int64?? {
        guard has(key) else { return .some(nil) }
        guard let value = integer(key) else { return nil }
        guard value >= 1 else {
            reject(key, "`\(key.text)` is \(what) and must be at least 1, not \(value)")
            return nil
        }
        return .some(value)
    }

    /// `cap`, an amount > 0: absent, its value, or nil when invalid.
    @inlinable public mutating func optionalCap() -> Int64?? {
        guard has(.cap) else { return .some(nil) }
        return money(.cap, minimum: nil, positive: true).map { .some($0) }
    }

    /// `quantity` of kinds for which it is a minimum quantity: optional (1), at least 1.
    @inlinable public mutating func minimumQuantity() -> Int64? {
        guard has(.quantity) else { return 1 }
        guard let t = integer(.quantity) else { return nil }
        guard t >= 1 else {
            reject(.quantity, "`quantity` is the minimum quantity and must be at least 1, not \(t)")
            return nil
        }
        return t
    }

    /// Which of the mutually exclusive `keys` the promotion holds. With more than one, the one
    /// written last is reported: "`kind` takes `takes` `price` or `percent`, not several".
    @inlinable public mutating func presence(of keys: [PromotionKey], kind: String, takes: String) -> KeyPresence {
        let present = keys.filter(has)
        guard present.count > 1 else { return present.first.map { .one($0) } ?? .none }
        let later = present.max { order(of: $0)! < order(of: $1)! }!
        let names = keys.map { "`\($0.text)`" }
        let list =
            names.count == 2
            ? names.joined(separator: " or ") : names.dropLast().joined(separator: ", ") + " or " + names.last!
        reject(later, "\(kind) takes \(takes) \(list), not several; remove one")
        return .several
    }
}

/// Which of several mutually exclusive keys a promotion holds.
public enum KeyPresence: Sendable, Equatable {
    case none
    case one(PromotionKey)
    case several
}

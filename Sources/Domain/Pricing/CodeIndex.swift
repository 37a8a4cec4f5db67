/// A catalog's codes → positions, for ``Catalog/productID(for:)``: a table keyed by the bytes of
/// the ASCII codes (a hash that costs a few cycles per byte, filled in the order of its slots so
/// that a million codes do not cost a million cache misses), and Swift's own dictionary for codes
/// with other characters.
///
/// It finds exactly what a `[String: ProductID]` finds: codes are equal when their strings are
/// (canonically equivalent), so the two parts are joined where a code with other characters
/// equals an ASCII one (`"\u{212A}"`, the Kelvin sign, is the letter `K`).
struct CodeIndex: Sendable {
    /// `tag << 32 | position + 1` per slot, 0 when empty.
    private let slots: [UInt64]
    private let mask: Int
    /// Codes that are not all ASCII.
    private let others: [String: ProductID]

    /// Two codes that are the same: the later one's position, and the first one's.
    struct Duplicate: Equatable {
        var index: Int
        var first: Int
    }

    /// The index of the products' codes, and the first code (in catalog order) that repeats an earlier one.
    /// Empty codes are left out.
    static func build(_ products: [Product]) -> (index: CodeIndex, duplicate: Duplicate?) {
        let codes = ProductCodes(products: products)
        var hashes = [UInt64](repeating: 0, count: codes.count)
        var ascii = [Bool](repeating: true, count: codes.count)
        var others: [String: ProductID] = [:]
        var duplicate: Duplicate?
        func found(_ index: Int, _ first: Int) {
            let pair = Duplicate(index: max(index, first), first: min(index, first))
            if duplicate == nil || pair.index < duplicate!.index { duplicate = pair }
        }
        var asciiCount = 0
        for position in codes.indices {
            var code = codes[position]
            ascii[position] = code.withUTF8 { utf8 in
                guard isASCII(utf8) else { return false }
                hashes[position] = productCodeHash(utf8)
                return true
            }
            if ascii[position] {
                if !codes[position].isEmpty { asciiCount += 1 }
            } else if let first = others.updateValue(position, forKey: code) {
                others[code] = first
                found(position, first)
            }
        }
        let capacity = HashTableFill.capacity(for: asciiCount)
        let mask = capacity - 1
        // Placed in catalog order within each region, so that of two equal codes the earlier is
        // placed first.
        let indexed = codes.indices.lazy.filter { ascii[$0] && !codes[$0].isEmpty }
        let order = HashTableFill.order(of: indexed, count: asciiCount, hashes: hashes, capacity: capacity)
        var slots = [UInt64](repeating: 0, count: capacity)
        for position in order.lazy.map(Int.init) {
            let hash = hashes[position]
            let tag = hash >> 32
            var slot = Int(truncatingIfNeeded: hash) & mask
            var placed = true
            while slots[slot] != 0 {
                if slots[slot] >> 32 == tag {
                    let other = Int(slots[slot] & 0xFFFF_FFFF) - 1
                    if codes[other] == codes[position] {
                        found(position, other)
                        placed = false
                        break
                    }
                }
                slot = (slot + 1) & mask
            }
            if placed { slots[slot] = tag << 32 | UInt64(position + 1) }
        }
        let index = CodeIndex(slots: slots, mask: mask, others: others)
        // A code with other characters may equal an ASCII one.
        for (code, position) in others {
            if let equal = asciiEquivalent(code), let first = index.asciiPosition(of: equal, in: codes) {
                found(position, first)
            }
        }
        return (index, duplicate)
    }

    private init(slots: [UInt64], mask: Int, others: [String: ProductID]) {
        self.slots = slots
        self.mask = mask
        self.others = others
    }

    /// The position among `products` (the ones the index was built from) of the code equal to `code`.
    func position(of code: String, in products: [Product]) -> Int? {
        let codes = ProductCodes(products: products)
        var text = code
        let ascii = text.withUTF8(isASCII)
        if ascii {
            if let found = asciiPosition(of: code, in: codes) { return found }
            return others.isEmpty ? nil : others[code]
        }
        if let found = others[code] { return found }
        guard let equal = Self.asciiEquivalent(code) else { return nil }
        return asciiPosition(of: equal, in: codes)
    }

    /// The position of an all-ASCII `code` among the ASCII codes.
    private func asciiPosition(of code: String, in codes: ProductCodes) -> Int? {
        var text = code
        let hash = text.withUTF8(productCodeHash)
        let tag = hash >> 32
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            if slots[slot] >> 32 == tag {
                let position = Int(slots[slot] & 0xFFFF_FFFF) - 1
                if codes[position] == code { return position }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The ASCII string equal to `text`, if there is one: each character is ASCII or equal to
    /// an ASCII character (a few symbols are, by canonical equivalence).
    private static func asciiEquivalent(_ text: String) -> String? {
        var result = ""
        for character in text {
            if character.isASCII {
                result.append(character)
            } else if let ascii = asciiCharacters.first(where: { $0 == character }) {
                result.append(ascii)
            } else {
                return nil
            }
        }
        return result
    }

    private static let asciiCharacters = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
}

/// The products' codes, by position.
private struct ProductCodes {
    let products: [Product]
    var count: Int { products.count }
    var indices: Range<Int> { products.indices }
    subscript(position: Int) -> String { products[position].code }
}

@inline(__always)
private func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in bytes where byte >= 0x80 { return false }
    return true
}

/// The hash the code tables use: FNV-1a over the code's UTF-8 bytes, then mixed (MurmurHash3's
/// finalizer) so that every bit of the input reaches the low bits that index a table: codes that
/// differ in one character, such as `P0000001` and `P0000002`, land far apart instead of in one
/// long run of probes. Inlinable: the cart scanner hashes every code it reads.
@inlinable @inline(__always)
public func productCodeHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    guard let base = bytes.baseAddress else { return finishProductCodeHash(h) }
    for i in 0..<bytes.count { h = (h ^ UInt64(base[i])) &* 0x100_0000_01B3 }
    return finishProductCodeHash(h)
}

/// MurmurHash3's finalizer.
@usableFromInline @inline(__always)
func finishProductCodeHash(_ h: UInt64) -> UInt64 {
    var h = h
    h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
    h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
    return h ^ (h >> 33)
}

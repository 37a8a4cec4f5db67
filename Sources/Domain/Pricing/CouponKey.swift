/// A coupon as coupons are compared (docs/pricing.md#coupons): without regard to ASCII letter case
/// (`spring10` is `SPRING10`), every other byte the same byte. No Unicode equivalence: `CAFÉ`
/// written with one code point is another coupon than `CAFE` and a combining accent, and the
/// Kelvin sign (U+212A) is not `K`.
public struct CouponKey: Hashable, Sendable {
    /// The coupon with its letters a–z upper-cased, compared byte for byte (``ExactText``).
    private let key: ExactText

    public init(_ coupon: String) {
        key = ExactText(asciiUppercased(coupon))
    }

    /// The coupon with its letters a–z upper-cased, and nothing else changed.
    public var text: String { key.text }
}

/// Upper-cases ASCII letters only, as coupon comparison requires.
func asciiUppercased(_ text: String) -> String {
    // Without building an array: a text with no lowercase letter is returned as it is, and a
    // short one (up to 15 bytes) is written in place, which allocates nothing.
    var text = text
    let upper = text.withUTF8 { utf8 -> String? in
        guard utf8.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return nil }
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            for (i, byte) in utf8.enumerated() {
                buffer[i] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
            }
            return utf8.count
        }
    }
    return upper ?? text
}

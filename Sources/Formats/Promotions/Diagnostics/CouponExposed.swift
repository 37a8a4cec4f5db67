import PlistReader
import Pricing

extension Diagnostic {
    /// A promotion that needs a coupon, whose id or name contains that coupon: explanations and
    /// receipts show ids and names, and would give the coupon away. The message never repeats it.
    static func couponExposed(inID: Bool, inName: Bool, at location: SourceLocation, promotion: String?) -> Diagnostic {
        let what = inID && inName ? "id and name contain" : inID ? "id contains" : "name contains"
        return Diagnostic(
            .couponExposed,
            "the promotion's \(what) its coupon (in some letter case): receipts and explanations show them, so anyone would learn the coupon; choose words that do not contain it",
            at: location, promotion: promotion)
    }

    /// `promotion.coupon-exposed` for each coupon-gated promotion of `promotions` whose id or name
    /// contains its coupon, ignoring letter case; at the promotion's `<dict>` and filed under it
    /// (`entry(index)`: its entry's position and place).
    static func couponsExposed(_ promotions: [Promotion], entry: (Int) -> (index: Int, location: SourceLocation))
        -> [Diagnostic]
    {
        var found: [Diagnostic] = []
        for index in promotions.indices {
            guard let coupon = promotions[index].coupon?.lowercased(), !coupon.isEmpty else { continue }
            let promotion = promotions[index]
            let inID = contains(promotion.id.lowercased(), coupon)
            let inName = contains(promotion.name.lowercased(), coupon)
            guard inID || inName else { continue }
            let (position, at) = entry(index)
            var diagnostic = Diagnostic.couponExposed(inID: inID, inName: inName, at: at, promotion: promotion.id)
            diagnostic.entry = position
            found.append(diagnostic)
        }
        return found
    }

    /// Whether `text` contains `part`, as `String.contains` answers (character by character): for
    /// printable ASCII, where every byte is a character of its own, by comparing bytes; else by
    /// `String.contains`.
    static func contains(_ text: String, _ part: String) -> Bool {
        var (text, part) = (text, part)
        let answer = text.withUTF8 { t in
            part.withUTF8 { p -> Bool? in
                func printableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
                    bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
                }
                guard printableASCII(t), printableASCII(p) else { return nil }
                guard !p.isEmpty else { return true }
                guard p.count <= t.count else { return false }
                for start in 0...(t.count - p.count) where t[start] == p[0] {
                    if UnsafeBufferPointer(rebasing: t[start..<(start + p.count)]).elementsEqual(p) { return true }
                }
                return false
            }
        }
        return answer ?? text.contains(part)
    }
}

import Pricing
import StrictJSON

/// Writes receipts as compact JSON bytes, byte for byte what ``ReceiptJSON`` writes, fast enough for
/// batches: each product's and each applied promotion's escaped text is built once and reused, and
/// amounts are formatted straight into the buffer. One encoder per thread.
public struct ReceiptEncoder {
    private let rules: RuleSet
    /// Per product: `{"code":"…","name":"…","quantity":`.
    private var products: [[UInt8]?]
    /// Per rule: `{"id":"…","name":"…","type":"…","discount":"`.
    private var promotions: [Int: [UInt8]] = [:]
    private var instant: (Instant, [UInt8])?

    public init(rules: RuleSet) {
        self.rules = rules
        products = [[UInt8]?](repeating: nil, count: rules.catalog.products.count)
    }

    /// The receipt indented, as `ReceiptJSON.render(receipt, pretty: true)` writes it.
    public mutating func encodeIndented(_ receipt: Receipt) -> [UInt8] {
        var compact: [UInt8] = []
        encode(receipt, into: &compact)
        var out: [UInt8] = []
        compact.withUnsafeBufferPointer { JSONIndenter.indent($0, into: &out) }
        return out
    }

    public mutating func encode(_ receipt: Receipt, into out: inout [UInt8]) {
        let digits = receipt.currency.minorDigits
        let k = Keys.shared
        out.append(contentsOf: k.currency)
        out.append(contentsOf: receipt.currency.code.utf8)
        out.append(contentsOf: k.at)
        if instant?.0 != receipt.at { instant = (receipt.at, Array(receipt.at.description.utf8)) }
        out.append(contentsOf: instant!.1)
        out.append(contentsOf: k.lines)
        var first = true
        for line in receipt.lines {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(contentsOf: productPrefix(line))
            appendInteger(line.quantity, to: &out)
            out.append(contentsOf: k.unitPrice)
            appendAmount(line.unitPrice, digits, to: &out)
            out.append(contentsOf: k.subtotal)
            appendAmount(line.subtotal, digits, to: &out)
            out.append(contentsOf: k.discount)
            appendAmount(line.discount, digits, to: &out)
            out.append(contentsOf: k.total)
            appendAmount(line.total, digits, to: &out)
            out.append(contentsOf: k.promotion)
            appendPromotion(line.promotion, digits, to: &out)
            out.append(contentsOf: k.cartDiscount)
            appendAmount(line.cartDiscount, digits, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: k.cartPromotion)
        appendPromotion(receipt.cartPromotion, digits, to: &out)
        out.append(contentsOf: k.receiptSubtotal)
        appendAmount(receipt.subtotal, digits, to: &out)
        out.append(contentsOf: k.itemDiscount)
        appendAmount(receipt.itemDiscount, digits, to: &out)
        out.append(contentsOf: k.receiptCartDiscount)
        appendAmount(receipt.cartDiscount, digits, to: &out)
        out.append(contentsOf: k.receiptDiscount)
        appendAmount(receipt.discount, digits, to: &out)
        out.append(contentsOf: k.receiptTotal)
        appendAmount(receipt.total, digits, to: &out)
        out.append(contentsOf: k.warnings)
        first = true
        for warning in receipt.warnings {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendString(warning, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        out.append(UInt8(ascii: "}"))
    }

    /// The receipt's fixed text, as bytes once and for all.
    private struct Keys: Sendable {
        let currency = Array(#"{"currency":""#.utf8)
        let at = Array(#"","at":""#.utf8)
        let lines = Array(#"","lines":["#.utf8)
        let unitPrice = Array(#","unit_price":"#.utf8)
        let subtotal = Array(#","subtotal":"#.utf8)
        let discount = Array(#","discount":"#.utf8)
        let total = Array(#","total":"#.utf8)
        let promotion = Array(#","promotion":"#.utf8)
        let cartDiscount = Array(#","cart_discount":"#.utf8)
        let cartPromotion = Array(#"],"cart_promotion":"#.utf8)
        let receiptSubtotal = Array(#","subtotal":"#.utf8)
        let itemDiscount = Array(#","item_discount":"#.utf8)
        let receiptCartDiscount = Array(#","cart_discount":"#.utf8)
        let receiptDiscount = Array(#","discount":"#.utf8)
        let receiptTotal = Array(#","total":"#.utf8)
        let warnings = Array(#","warnings":["#.utf8)
        let null = Array("null".utf8)
        static let shared = Keys()
    }

    private mutating func productPrefix(_ line: Receipt.Line) -> [UInt8] {
        if let cached = products[line.product] { return cached }
        var prefix = Array(#"{"code":"#.utf8)
        appendString(line.code, to: &prefix)
        prefix.append(contentsOf: #","name":"#.utf8)
        appendString(line.name, to: &prefix)
        prefix.append(contentsOf: #","quantity":"#.utf8)
        products[line.product] = prefix
        return prefix
    }

    private mutating func appendPromotion(_ applied: AppliedPromotion?, _ digits: Int, to out: inout [UInt8]) {
        guard let applied else {
            out.append(contentsOf: Keys.shared.null)
            return
        }
        if let index = applied.ruleIndex, let cached = promotions[index] {
            out.append(contentsOf: cached)
        } else {
            var prefix = Array(#"{"id":"#.utf8)
            appendString(applied.id, to: &prefix)
            prefix.append(contentsOf: #","name":"#.utf8)
            appendString(applied.name, to: &prefix)
            prefix.append(contentsOf: #","type":"#.utf8)
            appendString(applied.type, to: &prefix)
            prefix.append(contentsOf: #","discount":"#.utf8)
            if let index = applied.ruleIndex { promotions[index] = prefix }
            out.append(contentsOf: prefix)
        }
        appendAmount(applied.discount, digits, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}

/// `"74.50"`: an amount as a JSON string with exactly `digits` decimals.
@inline(__always)
func appendAmount(_ value: Int64, _ digits: Int, to out: inout [UInt8]) {
    var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 20 digits, a point and a sign fit
    withUnsafeMutableBytes(of: &buffer) { raw in
        var magnitude = value.magnitude
        var i = raw.count
        var produced = 0
        repeat {
            i -= 1
            raw[i] = UInt8(truncatingIfNeeded: magnitude % 10) + 48
            magnitude /= 10
            produced += 1
            if produced == digits {
                i -= 1
                raw[i] = UInt8(ascii: ".")
            }
        } while magnitude > 0 || produced <= digits
        if raw[i] == UInt8(ascii: ".") {
            i -= 1
            raw[i] = UInt8(ascii: "0")
        }
        if value < 0 {
            i -= 1
            raw[i] = UInt8(ascii: "-")
        }
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[i...]))
        out.append(UInt8(ascii: "\""))
    }
}

@inline(__always)
func appendInteger(_ value: Int64, to out: inout [UInt8]) {
    if value >= 0, value < 10 {
        out.append(UInt8(value) + 48)
        return
    }
    out.append(contentsOf: String(value).utf8)
}

/// A JSON string literal, escaped exactly as ``JSONWriter`` escapes.
func appendString(_ value: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var plain = true
    for byte in value.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xE2 {
        plain = false
        break
    }
    if plain {
        out.append(contentsOf: value.utf8)
    } else {
        out.append(contentsOf: JSONWriter.escaped(value).utf8)
    }
    out.append(UInt8(ascii: "\""))
}

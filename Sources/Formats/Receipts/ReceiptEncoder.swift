import Buffers
import Explanations
import Pricing
import StrictJSON

/// The one writer of receipts as JSON (docs/receipts.md, docs/receipts.md#lines, docs/files.md#cart-ids): keys in the contract's order, amounts
/// as decimal strings with the currency's minor digits, compact (one line, for NDJSON) or indented
/// by two spaces. Fast enough for batches: each product's and each applied promotion's escaped text
/// is built once into one arena and copied from there, constants are static strings, amounts are
/// formatted in place. One encoder per thread.
public struct ReceiptEncoder {
    private let storage = Storage()
    /// Per product id: the fragment's start << 32 | length, or -1.
    private var products: [Int64] = []
    /// Per rule index: the fragment's start << 32 | length (never 0), or 0 before the rule is first
    /// written; grown to the largest index seen. An array, not a dictionary: hashing the index cost
    /// more than the rest of finding the fragment, once per promotion written.
    private var promotions: [Int64] = []
    private var instant: (Instant, [UInt8])?
    /// The encoder's bytes, freed with it. Used by one thread at a time.
    private final class Storage {
        /// Cached fragments, back to back: products' `{"code":"…","name":"…","quantity":` and
        /// promotions' `{"id":"…","name":"…","type":"…","discount":`.
        @exclusivity(unchecked) var fragments = RawBuffer<UInt8>(capacity: 1 << 16)
        @exclusivity(unchecked) var scratch = RawBuffer<UInt8>(capacity: 1 << 12)

        deinit {
            fragments.deallocate()
            scratch.deallocate()
        }
    }

    public init() {}

    /// The receipt as one JSON document, indented, or compact on one line; with `explanations`, they
    /// are its last member.
    public static func render(_ receipt: Receipt, explanations: [Explanation]? = nil, indented: Bool = false) -> String
    {
        var encoder = ReceiptEncoder()
        let bytes =
            indented
            ? encoder.encodeIndented(receipt, explanations: explanations)
            : encoder.encode(receipt, explanations: explanations)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `{"id": …, "line": N, "error": "..."}`, compact: a cart that could not be priced, in its place.
    public static func renderError(line: Int, id: CartID? = nil, message: String) -> String {
        var out = RawBuffer<UInt8>(capacity: 64 + message.utf8.count)
        defer { out.deallocate() }
        appendError(line: line, id: id, message: message, to: &out)
        return String(decoding: out.elements, as: UTF8.self)
    }

    public static func appendError(line: Int, id: CartID?, message: String, to out: inout RawBuffer<UInt8>) {
        out.append(UInt8(ascii: "{"))
        if let id {
            out.append(#""id":"#)
            appendID(id, to: &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(#""line":"#)
        appendInteger(Int64(line), to: &out)
        out.append(#","error":"#)
        appendString(message, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The receipt indented by two spaces.
    public mutating func encodeIndented(_ receipt: Receipt, explanations: [Explanation]? = nil) -> [UInt8] {
        let compact = encode(receipt, explanations: explanations)
        var out: [UInt8] = []
        compact.withUnsafeBufferPointer { JSONIndenter.indent($0, into: &out) }
        return out
    }

    /// The receipt, compact.
    public mutating func encode(_ receipt: Receipt, explanations: [Explanation]? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(receipt, explanations: explanations, into: &bytes)
        return bytes
    }

    public mutating func encode(_ receipt: Receipt, explanations: [Explanation]? = nil, into out: inout [UInt8]) {
        var buffer = storage.scratch
        buffer.removeAll()
        encode(receipt, explanations: explanations, into: &buffer)
        storage.scratch = buffer  // it may have grown
        out.append(contentsOf: buffer.elements)
    }

    public mutating func encode(
        _ receipt: Receipt, explanations: [Explanation]? = nil, into out: inout RawBuffer<UInt8>
    ) {
        let digits = receipt.currency.minorDigits
        if let id = receipt.id {
            out.append(#"{"id":"#)
            Self.appendID(id, to: &out)
            out.append(#","currency":""#)
        } else {
            out.append(#"{"currency":""#)
        }
        out.append(utf8: receipt.currency.code)
        out.append(#"","at":""#)
        if instant?.0 != receipt.at { instant = (receipt.at, Array(receipt.at.description.utf8)) }
        instant!.1.withUnsafeBufferPointer { out.append(contentsOf: $0) }
        out.append(#"","lines":["#)
        // The lines are read in place: copying one would retain its strings.
        receipt.lines.withUnsafeBufferPointer { lines in
            for index in lines.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendProductPrefix(lines, index, to: &out)
                appendInteger(lines[index].quantity, to: &out)
                out.append(#","unit_price":"#)
                appendAmount(lines[index].unitPrice, digits, to: &out)
                out.append(#","subtotal":"#)
                appendAmount(lines[index].subtotal, digits, to: &out)
                let itemDiscount = lines[index].promotions.discount
                let cartDiscount = lines[index].cartDiscount
                out.append(#","discount":"#)
                appendAmount(itemDiscount + cartDiscount, digits, to: &out)
                out.append(#","total":"#)
                appendAmount(lines[index].subtotal - itemDiscount - cartDiscount, digits, to: &out)
                out.append(#","promotion":"#)
                let promotions = UnsafePointer(lines.baseAddress! + index).pointer(to: \.promotions)!
                if let largest = promotions.pointee.largestIndex {
                    appendPromotion(promotions, at: largest, digits, units: false, to: &out)
                } else {
                    out.append("null")
                }
                out.append(#","cart_discount":"#)
                appendAmount(cartDiscount, digits, to: &out)
                out.append(#","promotions":["#)
                for position in 0..<promotions.pointee.count {
                    if position > 0 { out.append(UInt8(ascii: ",")) }
                    appendPromotion(promotions, at: position, digits, units: true, to: &out)
                }
                if let rate = lines[index].taxRate {
                    appendLiteral(#"],"tax_rate":"#, to: &out)
                    appendRate(rate, to: &out)
                    out.append(UInt8(ascii: "}"))
                } else {
                    out.append("]}")
                }
            }
        }
        out.append(#"],"cart_promotion":"#)
        appendPromotion(receipt.cartPromotion, digits, to: &out)
        out.append(#","subtotal":"#)
        appendAmount(receipt.subtotal, digits, to: &out)
        out.append(#","item_discount":"#)
        appendAmount(receipt.itemDiscount, digits, to: &out)
        out.append(#","cart_discount":"#)
        appendAmount(receipt.cartDiscount, digits, to: &out)
        out.append(#","discount":"#)
        appendAmount(receipt.discount, digits, to: &out)
        out.append(#","total":"#)
        appendAmount(receipt.total, digits, to: &out)
        if let taxes = receipt.taxes { appendTaxes(taxes, digits, to: &out) }
        out.append(#","warnings":["#)
        var first = true
        for warning in receipt.warnings {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendWarning(warning, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        if let explanations { appendExplanations(explanations, digits, to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// `,"tax":…,"taxes":[{"rate", "base", "tax"}]` (docs/taxes.md). The fixed parts are copied a
    /// word at a time (a call to memcpy for a few bytes cost more than the copy).
    private func appendTaxes(_ taxes: ReceiptTaxes, _ digits: Int, to out: inout RawBuffer<UInt8>) {
        appendLiteral(#","tax":"#, to: &out)
        appendAmount(taxes.tax, digits, to: &out)
        appendLiteral(#","taxes":["#, to: &out)
        var first = true
        for entry in taxes.rates {
            appendLiteral(first ? #"{"rate":"# : #",{"rate":"#, to: &out)
            first = false
            appendRate(entry.rate, to: &out)
            appendLiteral(#","base":"#, to: &out)
            appendAmount(entry.base, digits, to: &out)
            appendLiteral(#","tax":"#, to: &out)
            appendAmount(entry.tax, digits, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `,"explanations":[{"id", "name", "type", "status", …}]`: the extra members of each status.
    private func appendExplanations(_ explanations: [Explanation], _ digits: Int, to out: inout RawBuffer<UInt8>) {
        out.append(#","explanations":["#)
        for (index, explanation) in explanations.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(#"{"id":"#)
            appendString(explanation.id, to: &out)
            out.append(#","name":"#)
            appendString(explanation.name, to: &out)
            out.append(#","type":""#)
            out.append(utf8: explanation.type.rawValue)
            out.append(#"","status":""#)
            out.append(utf8: explanation.status.rawValue)
            out.append(UInt8(ascii: "\""))
            switch explanation.status {
            case .notStarted:
                out.append(#","start":""#)
                out.append(utf8: explanation.start?.description ?? "")
                out.append(UInt8(ascii: "\""))
            case .ended:
                out.append(#","end":""#)
                out.append(utf8: explanation.end?.description ?? "")
                out.append(UInt8(ascii: "\""))
            case .applied:
                out.append(#","discount":"#)
                appendAmount(explanation.discount ?? 0, digits, to: &out)
            case .outranked:
                out.append(#","by":"#)
                if let by = explanation.by { appendString(by, to: &out) } else { out.append("null") }
            case .belowThreshold:
                out.append(#","missing":"#)
                switch explanation.missing {
                case .units(let code, let units)?:
                    out.append(#"{"code":"#)
                    appendString(code, to: &out)
                    out.append(#","units":"#)
                    appendInteger(units, to: &out)
                    out.append(UInt8(ascii: "}"))
                case .amount(let amount)?:
                    out.append(#"{"amount":"#)
                    appendAmount(amount, digits, to: &out)
                    out.append(UInt8(ascii: "}"))
                case nil:
                    out.append("null")
                }
            case .disabled, .needsCoupon, .notEligible, .exhausted, .noDiscount:
                break
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A string id as an escaped JSON string; an integer id as its literal's digits.
    static func appendID(_ id: CartID, to out: inout RawBuffer<UInt8>) {
        switch id {
        case .string(let text): appendString(text, to: &out)
        case .integer(let digits): out.append(utf8: digits)
        }
    }

    private mutating func appendProductPrefix(
        _ lines: UnsafeBufferPointer<Receipt.Line>, _ index: Int, to out: inout RawBuffer<UInt8>
    ) {
        let product = lines[index].product
        if product >= products.count {
            products.append(contentsOf: repeatElement(-1, count: product + 1 - products.count))
        }
        var span = products[product]
        if span < 0 {
            let start = storage.fragments.count
            storage.fragments.append(#"{"code":"#)
            appendString(lines[index].code, to: &storage.fragments)
            storage.fragments.append(#","name":"#)
            appendString(lines[index].name, to: &storage.fragments)
            storage.fragments.append(#","quantity":"#)
            span = Int64(start) << 32 | Int64(storage.fragments.count - start)
            products[product] = span
        }
        out.append(contentsOf: storage.fragments.elements(Int(span >> 32), count: Int(span & 0xFFFF_FFFF)))
    }

    /// The cached fragment of rule `index`, if it was written before.
    @inline(__always)
    private func cachedPromotion(_ index: Int) -> Int64? {
        guard index >= 0, index < promotions.count else { return nil }
        let span = promotions[index]
        return span == 0 ? nil : span
    }

    /// A line's promotion at `position`, from its cached fragment when it has one: no promotion copied.
    private mutating func appendPromotion(
        _ promotions: UnsafePointer<LinePromotions>, at position: Int, _ digits: Int, units: Bool,
        to out: inout RawBuffer<UInt8>
    ) {
        guard let index = promotions.pointee.ruleIndex(at: position), let span = cachedPromotion(index) else {
            let promotion = promotions.pointee[position]
            return appendPromotion(promotion, digits, units: units ? promotion.units : nil, to: &out)
        }
        out.append(contentsOf: storage.fragments.elements(Int(span >> 32), count: Int(span & 0xFFFF_FFFF)))
        appendAmount(promotions.pointee.discount(at: position), digits, to: &out)
        if units {
            out.append(#","units":"#)
            appendInteger(promotions.pointee.units(at: position), to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"id":…,"name":…,"type":…,"discount":…}`, with `"units"` for an entry of a line's `promotions`; `null` for none.
    private mutating func appendPromotion(
        _ applied: AppliedPromotion?, _ digits: Int, units: Int64? = nil, to out: inout RawBuffer<UInt8>
    ) {
        guard let applied else { return out.append("null") }
        if let index = applied.ruleIndex, let span = cachedPromotion(index) {
            out.append(contentsOf: storage.fragments.elements(Int(span >> 32), count: Int(span & 0xFFFF_FFFF)))
        } else {
            let start = storage.fragments.count
            storage.fragments.append(#"{"id":"#)
            appendString(applied.id, to: &storage.fragments)
            storage.fragments.append(#","name":"#)
            appendString(applied.name, to: &storage.fragments)
            storage.fragments.append(#","type":""#)
            storage.fragments.append(utf8: applied.type.rawValue)
            storage.fragments.append(#"","discount":"#)
            let length = storage.fragments.count - start
            if let index = applied.ruleIndex, index >= 0 {
                if index >= promotions.count {
                    promotions.append(contentsOf: repeatElement(0, count: index + 1 - promotions.count))
                }
                promotions[index] = Int64(start) << 32 | Int64(length)
            }
            out.append(contentsOf: storage.fragments.elements(start, count: length))
        }
        appendAmount(applied.discount, digits, to: &out)
        if let units {
            out.append(#","units":"#)
            appendInteger(units, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// `"74.50"`: an amount as a JSON string with exactly `digits` decimals, written in place: the
/// length first, then the digits from the last one back.
@inline(__always)
func appendAmount(_ value: Int64, _ digits: Int, to out: inout RawBuffer<UInt8>) {
    var magnitude = value.magnitude
    var significant = 1
    var rest = magnitude / 10
    while rest > 0 {
        significant += 1
        rest /= 10
    }
    let digitCount = max(significant, digits + 1)
    let length = digitCount + (digits > 0 ? 1 : 0) + (value < 0 ? 1 : 0) + 2
    out.appendUninitialized(length) { p in
        var i = length - 1
        p[i] = UInt8(ascii: "\"")
        for _ in 0..<digits {
            i -= 1
            p[i] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 48
            magnitude /= 10
        }
        if digits > 0 {
            i -= 1
            p[i] = UInt8(ascii: ".")
        }
        repeat {
            i -= 1
            p[i] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 48
            magnitude /= 10
        } while magnitude > 0
        if value < 0 {
            i -= 1
            p[i] = UInt8(ascii: "-")
        }
        p[0] = UInt8(ascii: "\"")
    }
}

/// A short literal's bytes, copied by loads and stores of words.
@inline(__always)
func appendLiteral(_ text: StaticString, to out: inout RawBuffer<UInt8>) {
    out.appendBytes(text.utf8Start, text.utf8CodeUnitCount)
}

/// `"21.00"`: a tax rate (hundredths of a percent, 0...10000) as a JSON string with two decimals,
/// written in place without a loop over its digits.
@inline(__always)
func appendRate(_ rate: Int64, to out: inout RawBuffer<UInt8>) {
    let whole = Int(truncatingIfNeeded: rate / 100)
    let cents = Int(truncatingIfNeeded: rate % 100)
    guard (0...100).contains(whole), cents >= 0 else { return appendAmount(rate, 2, to: &out) }
    let digits = whole >= 100 ? 3 : whole >= 10 ? 2 : 1
    out.appendUninitialized(digits + 5) { p in
        p[0] = UInt8(ascii: "\"")
        if digits == 3 {
            p[1] = UInt8(ascii: "1")
            p[2] = UInt8(ascii: "0")
            p[3] = UInt8(ascii: "0")
        } else if digits == 2 {
            p[1] = UInt8(truncatingIfNeeded: whole / 10) &+ 48
            p[2] = UInt8(truncatingIfNeeded: whole % 10) &+ 48
        } else {
            p[1] = UInt8(truncatingIfNeeded: whole) &+ 48
        }
        p[digits + 1] = UInt8(ascii: ".")
        p[digits + 2] = UInt8(truncatingIfNeeded: cents / 10) &+ 48
        p[digits + 3] = UInt8(truncatingIfNeeded: cents % 10) &+ 48
        p[digits + 4] = UInt8(ascii: "\"")
    }
}

@inline(__always)
func appendInteger(_ value: Int64, to out: inout RawBuffer<UInt8>) {
    if value >= 0, value < 10 {
        out.append(UInt8(value) + 48)
        return
    }
    out.append(utf8: String(value))
}

/// A warning's text as a JSON string literal, written in pieces (no string is built for it): its
/// fixed text escaped once, what it is about escaped as it is written.
func appendWarning(_ warning: ReceiptWarning, to out: inout RawBuffer<UInt8>) {
    switch warning {
    case .unmatchedCoupon(let coupon):
        out.append(UInt8(ascii: "\""))
        out.append(utf8: escapedUnmatchedCoupon.before)
        appendStringContent(coupon, to: &out)
        out.append(utf8: escapedUnmatchedCoupon.after)
        out.append(UInt8(ascii: "\""))
    case .couponLimitReached(let coupon):
        out.append(utf8: "\"coupon \\\"")
        appendStringContent(coupon, to: &out)
        out.append(utf8: "\\\" has reached its usage limit\"")
    }
}

private let escapedUnmatchedCoupon = (
    before: JSONWriter.escaped(ReceiptWarning.unmatchedCouponText.before),
    after: JSONWriter.escaped(ReceiptWarning.unmatchedCouponText.after)
)

/// A JSON string literal, escaped as ``JSONWriter`` escapes: quotes, backslashes, control
/// characters, DEL and U+2028/U+2029.
func appendString(_ value: String, to out: inout RawBuffer<UInt8>) {
    out.append(UInt8(ascii: "\""))
    appendStringContent(value, to: &out)
    out.append(UInt8(ascii: "\""))
}

/// What goes between a JSON string literal's quotes, escaped as ``appendString(_:to:)`` escapes.
func appendStringContent(_ value: String, to out: inout RawBuffer<UInt8>) {
    var plain = true
    for byte in value.utf8
    where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xE2 {
        plain = false
        break
    }
    out.append(utf8: plain ? value : JSONWriter.escaped(value))
}

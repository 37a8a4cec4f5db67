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
    /// The same for lines with a tax rate, whose fragments hold it, and the rate each holds.
    private var taxedProducts: [(span: Int64, rate: Int64)] = []
    /// Per rule index: the fragment's start << 32 | length (never 0), or 0 before the rule is first
    /// written; grown to the largest index seen. An array, not a dictionary: hashing the index cost
    /// more than the rest of finding the fragment, once per promotion written.
    private var promotions: [Int64] = []
    private var instant: (Instant, [UInt8])?
    /// The encoder's bytes, freed with it. Used by one thread at a time.
    private final class Storage {
        /// Cached fragments, back to back: products' `{"code":"…","name":"…","quantity":` (with
        /// `"tax_rate":"21.00",` before `"quantity"` for a line with a rate) and promotions'
        /// `{"id":"…","name":"…","type":"…","discount":`.
        @exclusivity(unchecked) var fragments = RawBuffer<UInt8>(capacity: 1 << 16)
        /// The fragments' count when the last one was finished (`finishFragment`): they must not
        /// have grown since when one is copied.
        var finished = 0
        @exclusivity(unchecked) var scratch = RawBuffer<UInt8>(capacity: 1 << 12)
        /// The tax rates' fragments (docs/taxes.md), in a table of ``RateFragments/slots`` slots
        /// keyed by the rate: a tax entry's start `,{"rate":"21.00","base":`, written once per rate
        /// met and then copied a word at a time (formatting the rate for every entry cost more than
        /// the rest of its tax).
        let rates = RateFragments()

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
                out.append("]}")
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

    /// `,"tax":…,"taxes":[{"rate", "base", "tax"}]` (docs/taxes.md), written in one stretch of the
    /// output made room for once: each entry's start, with its rate, comes from the rates' table,
    /// and the fixed parts are copied a word at a time.
    @inline(__always)
    private func appendTaxes(_ taxes: ReceiptTaxes, _ digits: Int, to out: inout RawBuffer<UInt8>) {
        let rates = storage.rates
        // A currency has at most 3 digits (room ≤ 27), and an array's count times 40 + 2 × room
        // cannot overflow.
        let room = amountRoom(digits)
        taxes.rates.withUnsafeBufferPointer { entries in
            // `,"tax":` and `,"taxes":[`, then per entry its start (32 bytes copied), `,"tax":` and
            // `}`, and `]`; with room for each amount.
            out.appendAtMost(18 &+ room &+ entries.count &* (40 &+ 2 &* room)) { start in
                var p = start
                p += writeLiteral(#","tax":"#, at: p)
                p += writeAmount(taxes.tax, digits, at: p)
                p += writeLiteral(#","taxes":["#, at: p)
                for index in entries.indices {
                    let slot = rates.slot(entries[index].rate)
                    // The first entry's start without its comma.
                    let skip = index == 0 ? 1 : 0
                    WordCopy.copyVectors(
                        2, UnsafeRawPointer(slot + RateFragments.entryStart) + skip, to: UnsafeMutableRawPointer(p))
                    p += RateFragments.entryStartLength(slot) &- skip
                    p += writeAmount(entries[index].base, digits, at: p)
                    p += writeLiteral(#","tax":"#, at: p)
                    p += writeAmount(entries[index].tax, digits, at: p)
                    p[0] = UInt8(ascii: "}")
                    p += 1
                }
                p[0] = UInt8(ascii: "]")
                return (p - start) &+ 1
            }
        }
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

    /// `{"code":…,"name":…,"quantity":`, with `"tax_rate":…,` before `"quantity"` when the line has
    /// a rate (docs/receipts.md#lines): a product's rate comes with it, so it is written once, with
    /// its code and name, not for every line.
    @inline(__always)
    private mutating func appendProductPrefix(
        _ lines: UnsafeBufferPointer<Receipt.Line>, _ index: Int, to out: inout RawBuffer<UInt8>
    ) {
        let span: Int64
        if case .some(let rate) = lines[index].taxRate {
            span = taxedPrefix(lines, index, rate: rate)
        } else {
            let product = lines[index].product
            if product >= products.count {
                products.append(contentsOf: repeatElement(-1, count: product + 1 - products.count))
            }
            if products[product] < 0 { products[product] = writePrefix(lines, index, rate: nil) }
            span = products[product]
        }
        appendFragment(span, to: &out)
    }

    /// The span of a line's prefix with its rate; written again if the product's cached one holds
    /// another rate (a line made through the API may give a product any rate).
    @inline(__always)
    private mutating func taxedPrefix(_ lines: UnsafeBufferPointer<Receipt.Line>, _ index: Int, rate: Int64) -> Int64 {
        let product = lines[index].product
        if product >= taxedProducts.count {
            taxedProducts.append(
                contentsOf: repeatElement((span: Int64(-1), rate: Int64(0)), count: product + 1 - taxedProducts.count))
        }
        let cached = taxedProducts[product]
        if cached.span >= 0, cached.rate == rate { return cached.span }
        let span = writePrefix(lines, index, rate: rate)
        taxedProducts[product] = (span, rate)
        return span
    }

    /// Writes a line's prefix into the fragments and returns its span.
    @inline(never)
    private func writePrefix(_ lines: UnsafeBufferPointer<Receipt.Line>, _ index: Int, rate: Int64?) -> Int64 {
        let start = storage.fragments.count
        storage.fragments.append(#"{"code":"#)
        appendString(lines[index].code, to: &storage.fragments)
        storage.fragments.append(#","name":"#)
        appendString(lines[index].name, to: &storage.fragments)
        if let rate {
            // docs/taxes.md: a percent with two decimals, written as an amount of two is.
            storage.fragments.append(#","tax_rate":"#)
            appendAmount(rate, 2, to: &storage.fragments)
        }
        storage.fragments.append(#","quantity":"#)
        return finishFragment(from: start)
    }

    /// Ends the fragment written into the fragments from `start` and returns its span (start << 32
    /// | length). Every writer of a fragment ends with it: the bytes past the fragments' end are
    /// kept at zero for ``fragmentSlack`` bytes, so that ``appendFragment(_:to:)`` may read that far
    /// past any fragment's start and stay within memory the fragments allocated and set.
    private func finishFragment(from start: Int) -> Int64 {
        let length = storage.fragments.count - start
        storage.fragments.appendAtMost(Self.fragmentSlack) { end in
            end.initialize(repeating: 0, count: Self.fragmentSlack)
            return 0
        }
        storage.finished = storage.fragments.count
        return Int64(start) << 32 | Int64(length)
    }

    /// The longest fragment copied without `memcpy`.
    private static let fragmentSlack = 128

    /// Appends a fragment (its start << 32 | length): one of up to 128 bytes by a fixed copy of 96
    /// bytes, and 32 more past 96, without a call to `memcpy` and its branches on the length, once
    /// per line and per promotion written. The bytes copied past its end lie past `out`'s count,
    /// in the room `appendAtMost` made, and are written over by what comes next. 96: most
    /// products' and promotions' fragments, with a line's `"tax_rate"` too, are 50 to 90 bytes long.
    @inline(__always)
    private func appendFragment(_ span: Int64, to out: inout RawBuffer<UInt8>) {
        let start = Int(truncatingIfNeeded: span >> 32)
        let count = Int(truncatingIfNeeded: span & 0xFFFF_FFFF)
        guard count <= Self.fragmentSlack else {
            return out.append(contentsOf: storage.fragments.elements(start, count: count))
        }
        // Within the fragments' bytes: `finishFragment` keeps 128 past the last one's end.
        assert(storage.fragments.count == storage.finished, "a fragment written without finishFragment")
        let source = UnsafeRawPointer(storage.fragments.elements(start, count: count).baseAddress.unsafelyUnwrapped)
        out.appendAtMost(Self.fragmentSlack) { target in
            WordCopy.copyVectors(6, source, to: UnsafeMutableRawPointer(target))
            if count > 96 { WordCopy.copyVectors(2, source + 96, to: UnsafeMutableRawPointer(target + 96)) }
            return count
        }
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
        appendFragment(span, to: &out)
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
            appendFragment(span, to: &out)
        } else {
            let start = storage.fragments.count
            storage.fragments.append(#"{"id":"#)
            appendString(applied.id, to: &storage.fragments)
            storage.fragments.append(#","name":"#)
            appendString(applied.name, to: &storage.fragments)
            storage.fragments.append(#","type":""#)
            storage.fragments.append(utf8: applied.type.rawValue)
            storage.fragments.append(#"","discount":"#)
            let span = finishFragment(from: start)
            if let index = applied.ruleIndex, index >= 0 {
                if index >= promotions.count {
                    promotions.append(contentsOf: repeatElement(0, count: index + 1 - promotions.count))
                }
                promotions[index] = span
            }
            appendFragment(span, to: &out)
        }
        appendAmount(applied.discount, digits, to: &out)
        if let units {
            out.append(#","units":"#)
            appendInteger(units, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// `"74.50"`: an amount as a JSON string with exactly `digits` decimals, written in place.
@inline(__always)
func appendAmount(_ value: Int64, _ digits: Int, to out: inout RawBuffer<UInt8>) {
    out.appendAtMost(amountRoom(digits)) { writeAmount(value, digits, at: $0) }
}

/// The most bytes ``writeAmount(_:_:at:)`` writes: quotes, sign, point and up to 20 digits, or
/// `digits` + 1.
@inline(__always)
func amountRoom(_ digits: Int) -> Int { 24 + max(digits, 0) }

/// Writes `"74.50"` at `p` and returns its length (at most ``amountRoom(_:)``).
@inline(__always)
func writeAmount(_ value: Int64, _ digits: Int, at p: UnsafeMutablePointer<UInt8>) -> Int {
    // 0.00 to 99.99 (a negative amount is a very large unsigned one).
    if digits == 2, UInt64(bitPattern: value) < 10_000 {
        return writeSmallCents(UInt32(truncatingIfNeeded: value), at: p)
    }
    if digits == 2, value.magnitude < 100_000_000 {
        return writeCents(UInt32(truncatingIfNeeded: value.magnitude), negative: value < 0, at: p)
    }
    return writeAnyAmount(value, digits, at: p)
}

/// Any amount with any number of decimals: the length first, then the digits from the last one back.
@inline(never)
func writeAnyAmount(_ value: Int64, _ digits: Int, at p: UnsafeMutablePointer<UInt8>) -> Int {
    var magnitude = value.magnitude
    var significant = 1
    var rest = magnitude / 10
    while rest > 0 {
        significant += 1
        rest /= 10
    }
    let digitCount = max(significant, digits + 1)
    let length = digitCount + (digits > 0 ? 1 : 0) + (value < 0 ? 1 : 0) + 2
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
    return length
}

/// `"174.50"`, `"-0.05"`: an amount of two decimals below 1,000,000.00 that ``writeSmallCents``
/// does not take (from 100.00, or negative), its digits written two at a time from a table of the
/// pairs 00 to 99, with no loop over them but the one over the whole part's pairs. Returns its
/// length (at most 12). Out of line: every amount's call site inlines only the one-word writer.
@inline(never)
private func writeCents(_ magnitude: UInt32, negative: Bool, at p: UnsafeMutablePointer<UInt8>) -> Int {
    var whole = magnitude / 100
    let cents = magnitude &- whole &* 100
    let wholeDigits =
        whole < 100 ? (whole < 10 ? 1 : 2) : whole < 10_000 ? (whole < 1000 ? 3 : 4) : (whole < 100_000 ? 5 : 6)
    let length = wholeDigits &+ (negative ? 6 : 5)
    let pairs = UnsafeRawPointer(digitPairs.utf8Start)
    let bytes = UnsafeMutableRawPointer(p)
    p[0] = UInt8(ascii: "\"")
    p[1] = UInt8(ascii: "-")  // written over by the first digit when positive
    bytes.storeBytes(
        of: pairs.loadUnaligned(fromByteOffset: Int(cents) &* 2, as: UInt16.self), toByteOffset: length &- 3,
        as: UInt16.self)
    p[length &- 4] = UInt8(ascii: ".")
    p[length &- 1] = UInt8(ascii: "\"")
    var end = length &- 4  // the whole part ends before the point
    while whole >= 100 {
        let pair = whole % 100
        whole /= 100
        end &-= 2
        bytes.storeBytes(
            of: pairs.loadUnaligned(fromByteOffset: Int(pair) &* 2, as: UInt16.self), toByteOffset: end,
            as: UInt16.self)
    }
    if whole >= 10 {
        bytes.storeBytes(
            of: pairs.loadUnaligned(fromByteOffset: Int(whole) &* 2, as: UInt16.self), toByteOffset: end &- 2,
            as: UInt16.self)
    } else {
        p[end &- 1] = UInt8(truncatingIfNeeded: whole) &+ 48
    }
    return length
}

/// `"0.00"` to `"99.99"` in a currency of two decimals (most taxes, and most prices and
/// discounts): the text made in one word, `"dd.cc"` with the whole part's leading zero shifted out
/// when it has one digit, and stored at once — no branch on the amount's length (which varies from
/// cart to cart: mispredicted). Stores 8 bytes, within the room every amount is given
/// (``amountRoom(_:)``, 24 or more); returns the length (6 or 7).
@inline(__always)
private func writeSmallCents(_ magnitude: UInt32, at p: UnsafeMutablePointer<UInt8>) -> Int {
    let whole = magnitude / 100
    let cents = magnitude &- whole &* 100
    let pairs = UnsafeRawPointer(digitPairs.utf8Start)
    let wholePair = UInt64(UInt16(littleEndian: pairs.loadUnaligned(fromByteOffset: Int(whole) &* 2, as: UInt16.self)))
    let centsPair = UInt64(UInt16(littleEndian: pairs.loadUnaligned(fromByteOffset: Int(cents) &* 2, as: UInt16.self)))
    // Bytes from the lowest: the whole part's two digits, ".", the cents' two, and the closing quote.
    let body = wholePair | 0x2E << 16 | centsPair << 24 | 0x22 << 40
    // One digit before the point: its leading zero (the lowest byte) shifted out.
    let oneDigit: UInt64 = whole < 10 ? 1 : 0
    let text = 0x22 | (body >> (oneDigit &<< 3)) << 8
    UnsafeMutableRawPointer(p).storeBytes(of: text.littleEndian, as: UInt64.self)
    return 7 &- Int(truncatingIfNeeded: oneDigit)
}

/// "00", "01", … "99", back to back.
private let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

/// A short literal's bytes, copied by loads and stores of words.
@inline(__always)
func appendLiteral(_ text: StaticString, to out: inout RawBuffer<UInt8>) {
    out.appendBytes(text.utf8Start, text.utf8CodeUnitCount)
}

/// Writes a literal of 4 to 16 bytes at `p` by two loads and stores that overlap (reading nothing
/// outside it) and returns its length.
@inline(__always)
private func writeLiteral(_ text: StaticString, at p: UnsafeMutablePointer<UInt8>) -> Int {
    let count = text.utf8CodeUnitCount
    precondition(count >= 4 && count <= 16)
    WordCopy.copy(UnsafeRawPointer(text.utf8Start), to: UnsafeMutableRawPointer(p), count: count)
    return count
}

/// The JSON fragments of the tax rates an encoder met (docs/taxes.md): a table of slots keyed by
/// the rate, each slot 7 words: the rate it holds, the length of its fragment (zero: the slot holds
/// none), a tax entry's start `,{"rate":"21.00","base":` in 32 bytes with their unused bytes zero,
/// and a word of zeros (the entry start is also read from its second byte, without the comma). A
/// slot another rate takes is written again: only its bytes, never the output, depend on which
/// rates came first.
final class RateFragments {
    static let slots = 64
    static let words = 7
    /// Where a slot's entry start begins, in words.
    static let entryStart = 2
    private let table: UnsafeMutablePointer<UInt64>

    init() {
        table = .allocate(capacity: Self.slots * Self.words)
        table.initialize(repeating: 0, count: Self.slots * Self.words)
    }

    deinit { table.deallocate() }

    /// The slot holding `rate`'s fragment, written first if it holds another rate.
    @inline(__always)
    func slot(_ rate: Int64) -> UnsafeMutablePointer<UInt64> {
        // Fibonacci hashing: rates are mostly whole percents, multiples of 100, whose low bits
        // alone would share few slots.
        let slot =
            table + Int(truncatingIfNeeded: (UInt64(bitPattern: rate) &* 0x9E37_79B9_7F4A_7C15) >> 58) * Self.words
        // Any rate can be given through the API, so no rate marks an empty slot: its length does.
        if slot[0] != UInt64(bitPattern: rate) || slot[1] == 0 { Self.fill(slot, rate) }
        return slot
    }

    @inline(__always)
    static func entryStartLength(_ slot: UnsafeMutablePointer<UInt64>) -> Int { Int(truncatingIfNeeded: slot[1]) }

    /// Writes `rate`'s fragment into `slot`, in place: no allocation, however often two rates of
    /// one batch that share a slot take turns.
    @inline(never)
    private static func fill(_ slot: UnsafeMutablePointer<UInt64>, _ rate: Int64) {
        slot.update(repeating: 0, count: words)
        let bytes = UnsafeMutableRawPointer(slot)
        // `"21.00"`, as amounts are written; a rate (0...10000) is at most 8 bytes ("100.00" quoted).
        let entryLength = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: amountRoom(2)) { text in
            let rateLength = writeAmount(rate, 2, at: text.baseAddress!)
            // The fragment fits in its 32 bytes: 17 + 15.
            precondition(rateLength <= 15)
            func put(_ piece: UnsafeRawPointer, _ count: Int, at p: inout UnsafeMutableRawPointer) {
                p.copyMemory(from: piece, byteCount: count)
                p += count
            }
            let start: StaticString = #",{"rate":"#
            let base: StaticString = #","base":"#
            var entry = bytes + entryStart * 8
            put(start.utf8Start, start.utf8CodeUnitCount, at: &entry)
            put(text.baseAddress!, rateLength, at: &entry)
            put(base.utf8Start, base.utf8CodeUnitCount, at: &entry)
            return entry - (bytes + entryStart * 8)
        }
        slot[1] = UInt64(entryLength)
        slot[0] = UInt64(bitPattern: rate)
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

/// Exact conversion between decimal text and integer counts of minor units.
///
/// Text follows JSON number syntax, `-?digits[.digits][(e|E)[+-]digits]`, with surrounding
/// whitespace ignored; leading zeros are accepted. The conversion is exact: `1.95e1` in a currency of
/// 2 minor digits is 1950, and `19.999` is refused rather than rounded.
public enum Amount {
    /// Why a text is not an amount.
    public enum ParseError: Error, Equatable, Sendable {
        /// Not number syntax (empty, letters, `NaN`, a trailing dot...).
        case notANumber
        /// A number, but not a whole count of minor units with this many digits.
        case notWholeMinorUnits(minorDigits: Int)
        /// Beyond a signed 64-bit count of minor units.
        case outOfRange
    }

    /// Parses decimal text into minor units with `minorDigits` decimal places.
    public static func parse(_ text: String, minorDigits: Int) -> Result<Int64, ParseError> {
        var text = text
        return text.withUTF8 { parse($0, minorDigits: minorDigits) }
    }

    /// Parses decimal text, given as UTF-8 bytes, into minor units with `minorDigits` decimal places.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, minorDigits: Int) -> Result<Int64, ParseError> {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        var i = start
        var negative = false
        if i < end, bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        // The significant digits, integer part then fraction, as one digit string.
        let integerStart = i
        while i < end, isDigit(bytes[i]) { i += 1 }
        let integerEnd = i
        guard integerEnd > integerStart else { return .failure(.notANumber) }
        var fractionStart = i
        var fractionEnd = i
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            fractionStart = i
            while i < end, isDigit(bytes[i]) { i += 1 }
            fractionEnd = i
            guard fractionEnd > fractionStart else { return .failure(.notANumber) }
        }
        var exponent = 0
        if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var exponentNegative = false
            if i < end, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            let exponentStart = i
            while i < end, isDigit(bytes[i]) {
                // Saturate: any exponent this large is out of range or not whole anyway.
                exponent = min(exponent * 10 + Int(bytes[i] &- 48), 1_000_000_000)
                i += 1
            }
            guard i > exponentStart else { return .failure(.notANumber) }
            if exponentNegative { exponent = -exponent }
        }
        guard i == end else { return .failure(.notANumber) }

        // value = digits × 10^scale, digits = integer part followed by fraction part.
        let scale = exponent - (fractionEnd - fractionStart) + minorDigits
        // The digit string is the integer part followed by the fraction part, read where it is
        // (no array per amount: this runs for every amount of a promotions file).
        let integerCount = integerEnd - integerStart
        let total = integerCount + (fractionEnd - fractionStart)
        func digit(_ k: Int) -> UInt8 {
            k < integerCount ? bytes[integerStart + k] &- 48 : bytes[fractionStart + k - integerCount] &- 48
        }
        // From its first non-zero digit.
        var first = 0
        while first < total, digit(first) == 0 { first += 1 }
        if first == total { return .success(0) }
        let count = total - first
        var kept = count
        if scale < 0 {
            // The last -scale digits are below one minor unit: they must all be zero.
            let dropped = -scale
            if dropped > count { return .failure(.notWholeMinorUnits(minorDigits: minorDigits)) }
            for k in (total - dropped)..<total where digit(k) != 0 {
                return .failure(.notWholeMinorUnits(minorDigits: minorDigits))
            }
            kept = count - dropped
        }
        let zeros = max(scale, 0)
        guard kept + zeros <= 19 else { return .failure(.outOfRange) }
        var magnitude: UInt64 = 0
        for k in first..<(first + kept) { magnitude = magnitude * 10 + UInt64(digit(k)) }
        for _ in 0..<zeros { magnitude *= 10 }  // at most 19 digits: fits in UInt64
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return .failure(.outOfRange) }
            return .success(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        }
        guard magnitude <= UInt64(Int64.max) else { return .failure(.outOfRange) }
        return .success(Int64(magnitude))
    }

    /// Parses an integer written in decimal (`-?digits`, surrounding whitespace ignored).
    public static func parseInteger(_ text: String) -> Result<Int64, ParseError> {
        var text = text
        return text.withUTF8 { parseInteger($0) }
    }

    /// Parses an integer written in decimal, given as UTF-8 bytes.
    public static func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Int64, ParseError> {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        var i = start
        let negative = i < end && bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < end else { return .failure(.notANumber) }
        var magnitude: UInt64 = 0
        while i < end {
            guard isDigit(bytes[i]) else { return .failure(.notANumber) }
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[i] &- 48))
            if o1 || o2 { return .failure(.outOfRange) }
            magnitude = sum
            i += 1
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return .failure(.outOfRange) }
            return .success(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        }
        guard magnitude <= UInt64(Int64.max) else { return .failure(.outOfRange) }
        return .success(Int64(magnitude))
    }

    /// Formats minor units as a decimal string with exactly `minorDigits` decimals: `"74.50"`, `"1200"`.
    public static func format(_ minorUnits: Int64, minorDigits: Int) -> String {
        var digits = String(minorUnits.magnitude)
        if minorDigits > 0 {
            if digits.count <= minorDigits {
                digits = String(repeating: "0", count: minorDigits - digits.count + 1) + digits
            }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -minorDigits))
        }
        return minorUnits < 0 ? "-" + digits : digits
    }

    /// The largest amount, formatted for messages.
    public static func largest(minorDigits: Int) -> String { format(Int64.max, minorDigits: minorDigits) }
}

@inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }
@inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

extension Amount.ParseError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notANumber: "is not a number"
        case .notWholeMinorUnits(let digits):
            digits == 0
                ? "is not a whole number of minor units (the currency has no decimals)"
                : "is not a whole number of minor units (at most \(digits) significant decimal places)"
        case .outOfRange: "is out of range"
        }
    }
}

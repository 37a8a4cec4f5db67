/// A strict RFC 8259 parser: one value, no trailing commas, no comments, no leading zeros, no
/// NaN; strings must be valid UTF-8 with paired surrogates; and, beyond the RFC, a key repeated in
/// one object is refused (a pricing tool must not guess which one counts) and nesting is bounded.
public struct JSONParser {
    /// Deepest nesting of arrays and objects accepted.
    public var maxDepth: Int

    public init(maxDepth: Int = 128) {
        self.maxDepth = maxDepth
    }

    public func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var scanner = Scanner(bytes: bytes, maxDepth: maxDepth)
        scanner.skipWhitespace()
        if scanner.atEnd { throw scanner.error("the input is empty; expected a JSON value") }
        let value = try scanner.value(depth: 0)
        scanner.skipWhitespace()
        guard scanner.atEnd else { throw scanner.error("unexpected \(scanner.describeCurrent()) after the JSON value") }
        return value
    }

    public func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> JSONValue in try parse(buffer) }
    }

    public func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// The recursive-descent scanner behind ``JSONParser``.
struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    var atEnd: Bool { position >= bytes.count }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONSyntaxError(message: message, line: line, column: column, offset: offset)
    }

    func describeCurrent() -> String {
        guard !atEnd else { return "end of input" }
        let byte = bytes[position]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard !atEnd else { throw error("unexpected end of input; expected a JSON value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected \(describeCurrent()); expected a JSON value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let start = position
        for i in 0..<word.utf8CodeUnitCount {
            guard position < bytes.count, bytes[position] == word.utf8Start[i] else {
                throw error("invalid literal; expected \(word)", at: start)
            }
            position += 1
        }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= maxDepth else { throw error("arrays and objects nest deeper than \(maxDepth) levels") }
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        var keys: Set<String> = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()); expected a member name in double quotes")
            }
            let keyStart = position
            let key = try string()
            guard keys.insert(key).inserted else {
                throw error("duplicate key \"\(key)\" in one object; keep only one", at: keyStart)
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after the member name")
            }
            position += 1
            skipWhitespace()
            members.append((key, try value(depth: depth)))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input; expected ',' or '}'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            throw error("unexpected \(describeCurrent()); expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= maxDepth else { throw error("arrays and objects nest deeper than \(maxDepth) levels") }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input; expected ',' or ']'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            throw error("unexpected \(describeCurrent()); expected ',' or ']'")
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, returned as written.
    mutating func number() throws(JSONSyntaxError) -> String {
        let start = position
        func digits() -> Int {
            let from = position
            while position < bytes.count, bytes[position] &- 48 < 10 { position += 1 }
            return position - from
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, bytes[position] &- 48 < 10 else {
            throw error("a number needs digits after '-'", at: start)
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, bytes[position] &- 48 < 10 {
                throw error("numbers may not have leading zeros", at: start)
            }
        } else {
            _ = digits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("a number needs digits after '.'", at: start) }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw error("a number needs digits in its exponent", at: start) }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// A string literal: escapes decoded, UTF-8 validated.
    mutating func string() throws(JSONSyntaxError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes, ASCII or valid UTF-8 copied as is.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
                try validateUTF8(text, offset: start)
                position += 1
                return String(decoding: text, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        var out: [UInt8] = Array(bytes[start..<position])
        try validateUTF8(UnsafeBufferPointer(rebasing: bytes[start..<position]), offset: start)
        while true {
            guard position < bytes.count else { throw error("unterminated string", at: start - 1) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &out)
            case 0..<0x20:
                throw error("control character 0x\(String(byte, radix: 16, uppercase: true)) in a string; escape it")
            default:
                let runStart = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "\""),
                    bytes[position] != UInt8(ascii: "\\"), bytes[position] >= 0x20
                {
                    position += 1
                }
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
                try validateUTF8(run, offset: runStart)
                out.append(contentsOf: run)
            }
        }
    }

    mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        let start = position
        position += 1
        guard position < bytes.count else { throw error("unterminated escape", at: start) }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(escapeStart: start)
            if (0xD800..<0xDC00).contains(scalar) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else {
                    throw error(
                        "unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", at: start)
                }
                position += 2
                let low = try hex4(escapeStart: position - 2)
                guard (0xDC00..<0xE000).contains(low) else {
                    throw error(
                        "unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", at: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error(
                    "unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", at: start)
            }
            out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))' in a string", at: start)
        }
    }

    mutating func hex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("\\u needs four hex digits", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 55
            default: throw error("\\u needs four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    func validateUTF8(_ text: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONSyntaxError) {
        if let bad = invalidUTF8Offset(text) { throw error("invalid UTF-8 in a string", at: offset + bad) }
    }
}

/// The offset of the first byte that does not belong to well-formed UTF-8 (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF), or nil.
public func invalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = 0
    let n = bytes.count
    while i < n {
        let b0 = bytes[i]
        if b0 < 0x80 {
            i += 1
            continue
        }
        func continuation(_ k: Int) -> Bool { i + k < n && bytes[i + k] & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            guard continuation(1) else { return i }
            i += 2
        case 0xE0...0xEF:
            guard continuation(1), continuation(2) else { return i }
            let b1 = bytes[i + 1]
            if b0 == 0xE0, b1 < 0xA0 { return i }  // overlong
            if b0 == 0xED, b1 >= 0xA0 { return i }  // surrogate
            i += 3
        case 0xF0...0xF4:
            guard continuation(1), continuation(2), continuation(3) else { return i }
            let b1 = bytes[i + 1]
            if b0 == 0xF0, b1 < 0x90 { return i }  // overlong
            if b0 == 0xF4, b1 >= 0x90 { return i }  // above U+10FFFF
            i += 4
        default:
            return i
        }
    }
    return nil
}

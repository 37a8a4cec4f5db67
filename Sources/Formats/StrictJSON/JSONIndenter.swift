/// Re-indents compact JSON by two spaces per level, exactly as ``JSONWriter`` writes it when pretty:
/// `"key": value`, one member or element per line, empty arrays and objects as `[]` and `{}`.
/// The input must be valid compact JSON (as the writers produce).
public enum JSONIndenter {
    public static func indent(_ compact: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.reserveCapacity(out.count + compact.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        var i = 0
        func newline(_ out: inout [UInt8]) {
            out.append(UInt8(ascii: "\n"))
            for _ in 0..<(depth * 2) { out.append(UInt8(ascii: " ")) }
        }
        while i < compact.count {
            let byte = compact[i]
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                i += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                out.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(byte)
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if i + 1 < compact.count, compact[i + 1] == close {
                    out.append(close)
                    i += 1
                } else {
                    depth += 1
                    newline(&out)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline(&out)
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newline(&out)
            case UInt8(ascii: ":"):
                out.append(byte)
                out.append(UInt8(ascii: " "))
            default:
                out.append(byte)
            }
            i += 1
        }
    }
}

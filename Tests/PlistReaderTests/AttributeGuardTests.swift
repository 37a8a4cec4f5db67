import Testing

@testable import PlistReader

/// The count of each tag's attributes before libxml2 reads it (docs/safety.md), fed as libxml2's
/// reads come: in chunks of any size.
@Suite("Attribute guard")
struct AttributeGuardTests {
    /// Where the guard stops `text` fed in chunks of `chunk` bytes; nil when it does not.
    func stop(_ text: String, chunk: Int) -> String? {
        var guardian = AttributeGuard()
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            let found = bytes[start..<end].withUnsafeBytes { guardian.check($0) }
            if let found { return "\(found.line):\(found.column)" }
            start = end
        }
        return nil
    }

    @Test("more than 256 attributes stop at the tag's `<` (line, column in characters), however the bytes come")
    func counts() {
        let many = (0...256).map { "a\($0)='v'" }.joined(separator: "\n ")
        let enough = (1...256).map { "a\($0)=\"=>'\"" }.joined(separator: " ")
        for chunk in [1, 3, 64, 1 << 16] {
            #expect(stop("<plist>\n  é<dict \(many)/>", chunk: chunk) == "2:4", "chunk \(chunk)")
            // Quoted `=`, `>` and the other quote count nothing; 256 are allowed.
            #expect(stop("<plist><dict \(enough)/></plist>", chunk: chunk) == nil, "chunk \(chunk)")
            // Comments, processing instructions and end tags are not tags.
            let equals = String(repeating: "=", count: 300)
            #expect(stop("<!-- \(equals) --><?pi \(equals)?><plist></plist \(equals)>", chunk: chunk) == nil)
        }
    }
}

import Promotions
import Testing

@Suite("xml.malformed") struct XMLMalformedTests {
    @Test("a mismatched tag stops reading, at libxml2's line and column")
    func mismatchedTag() {
        let xml = arrayPlist("<dict>\n  <key>name</key><string>A</strin>\n</dict>")
        let file = load(xml)
        #expect(found(xml) == ["xml.malformed@5:35 -"])
        #expect(
            file.diagnostics.first?.message == "malformed XML: Opening and ending tag mismatch: string line 5 and strin"
        )
        #expect(file.diagnostics.first?.severity == .error)
    }

    @Test("an empty or truncated file is malformed")
    func emptyAndTruncated() {
        #expect(found("").first?.hasPrefix("xml.malformed@") == true)
        #expect(found("<plist><array><dict>").first?.hasPrefix("xml.malformed@1:") == true)
    }
}

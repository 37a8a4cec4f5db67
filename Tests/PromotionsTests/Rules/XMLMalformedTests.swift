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

    @Test("a byte that is not UTF-8: one line, as reporters write one per line, saying to save the file as UTF-8")
    func notUTF8() {
        var bytes = Array(arrayPlist("<dict><key>name</key><string>X</string></dict>").utf8)
        bytes.insert(0xFF, at: bytes.firstIndex(of: UInt8(ascii: "X"))! + 1)
        let file = PromotionFile.load(bytes: bytes, name: "Promotions.plist", checks: PromotionChecks())
        #expect(file.diagnostics.map { "\($0.id)@\($0.location)" } == ["xml.malformed@4:31"])  // at the byte
        #expect(
            file.diagnostics.first?.message
                == "malformed XML: the file is not UTF-8 here (Bytes: 0xFF 0x3C 0x2F 0x73): save it as UTF-8, e.g. with `iconv -f ISO-8859-1 -t UTF-8` (an encoding declaration is ignored)"
        )
    }

    @Test("a NUL byte after the root element (libxml2 takes it for the end of the file): malformed, at the NUL")
    func nulAfterTheRoot() {
        for (tail, at) in [("\0", "1:24"), ("\n\n  \0<<< not XML &&&", "3:3"), ("<!-- c -->\0", "1:34")] {
            let bytes = Array(("<plist><array/></plist>" + tail).utf8)
            let file = PromotionFile.load(bytes: bytes, name: "Promotions.plist", checks: PromotionChecks())
            #expect(file.diagnostics.map { "\($0.id)@\($0.location)" } == ["xml.malformed@\(at)"], "\(tail)")
            #expect(
                file.diagnostics.first?.message
                    == "malformed XML: a NUL byte (U+0000) after the root element, which XML does not allow: remove it and what follows it"
            )
        }
        // Without the NUL: well-formed, nothing to say.
        #expect(found("<plist><array/></plist>\n\n") == [])
    }
}

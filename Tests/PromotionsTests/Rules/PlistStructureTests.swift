import Promotions
import Testing

@Suite("plist.structure") struct PlistStructureTests {
    @Test("a promotion that is not a dict")
    func notADict() {
        let xml = arrayPlist("<string>VOUCHER</string>")
        #expect(found(xml) == ["plist.structure@4:1 -"])
        #expect(messages(xml) == ["each promotion must be a <dict>, not a <string>"])
    }

    @Test("a root that is neither an array nor a dict")
    func scalarRoot() {
        #expect(found("<plist>\n<string>x</string></plist>") == ["plist.structure@2:1 -"])
    }

    @Test("a key without a value, and an unknown element")
    func readerProblems() {
        let xml = arrayPlist("<dict>\n<key>name</key>\n<key>type</key><strin>cart</strin>\n</dict>")
        let ids = load(xml).diagnostics.map { "\($0.id)@\($0.location)" }
        #expect(
            ids == [
                "promotion.missing-key@4:1", "promotion.missing-key@4:1", "plist.structure@5:1", "plist.structure@6:16"
            ])
    }

    @Test("`promotions` that is not an array")
    func promotionsNotArray() {
        let xml = "<plist><dict>\n<key>promotions</key>\n<dict/>\n</dict></plist>"
        #expect(found(xml) == ["plist.structure@3:1 -"])
    }
}

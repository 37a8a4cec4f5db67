import Promotions
import Testing

@Suite("promotion.duplicate-key") struct DuplicateKeyTests {
    @Test("a repeated key, at the repeat; the first value counts")
    func repeatedKey() {
        let xml = arrayPlist(
            "<dict><key>name</key><string>x</string><key>type</key><string>cart</string>\n<key>amount</key><integer>1</integer>\n  <key>amount</key><integer>2</integer></dict>"
        )
        let file = load(xml)
        #expect(found(xml) == ["promotion.duplicate-key@6:3 x"])
        #expect(file.diagnostics.first?.message == "key `amount` appears twice (first at line 5); keep only one")
        #expect(file.promotions.isEmpty)
    }

    @Test("a repeated root key")
    func rootKey() {
        #expect(
            found("<plist><dict><key>promotions</key><array/>\n<key>promotions</key><array/></dict></plist>") == [
                "promotion.duplicate-key@2:1 -"
            ])
    }
}

import Promotions
import Testing

@Suite("promotion.duplicate-id") struct DuplicateIDTests {
    let cart = "<key>type</key><string>cart</string><key>amount</key><integer>1</integer>"

    @Test("two promotions named alike, without ids: at the later name")
    func defaultedFromName() {
        let xml = arrayPlist(
            "<dict><key>name</key><string>Sale</string>\(cart)</dict>\n<dict>\n<key>name</key><string>Sale</string>\(cart)</dict>"
        )
        #expect(found(xml) == ["promotion.duplicate-id@6:16 Sale"])
        #expect(
            messages(xml) == [
                "duplicate promotion id `Sale` (its id defaults to its name): the promotion at line 4 already uses it; give each promotion a unique `id`"
            ])
    }

    @Test("explicit ids: at the later id; equal names with distinct ids are fine")
    func explicitIDs() {
        let xml = arrayPlist(
            """
            <dict><key>id</key><string>a</string><key>name</key><string>Sale</string>\(cart)</dict>
            <dict><key>id</key><string>b</string><key>name</key><string>Sale</string>\(cart)</dict>
            <dict><key>name</key><string>Other</string><key>id</key><string>a</string>\(cart)</dict>
            """)
        #expect(found(xml) == ["promotion.duplicate-id@6:57 a"])
    }
}

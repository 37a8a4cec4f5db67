import Promotions
import Testing

@Suite("promotion.unknown-type") struct UnknownTypeTests {
    @Test("an unknown type, at its string, with a hint when close")
    func unknownType() {
        let xml = arrayPlist(
            "<dict><key>name</key><string>x</string>\n<key>type</key>\n  <string>bulck</string><key>code</key><string>A</string></dict>"
        )
        #expect(found(xml) == ["promotion.unknown-type@6:3 x"])
        #expect(
            messages(xml) == [
                "unknown promotion type `bulck`; expected one of combo, bulk, percent, amount, cart, bundle, bxgy; did you mean `bulk`?"
            ])
        #expect(
            messages(
                arrayPlist(
                    "<dict><key>name</key><string>x</string><key>type</key><string>bogo</string><key>code</key><string>A</string></dict>"
                ))
                == ["unknown promotion type `bogo`; expected one of combo, bulk, percent, amount, cart, bundle, bxgy"])
    }
}

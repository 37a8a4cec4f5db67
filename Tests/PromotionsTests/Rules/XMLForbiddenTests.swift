import Promotions
import Testing

@Suite("xml.forbidden") struct XMLForbiddenTests {
    @Test("an entity declaration is refused at its line")
    func entityDeclaration() {
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY a \"aaaa\">\n]>\n<plist><array/></plist>"
        #expect(found(xml) == ["xml.forbidden@3:1 -"])
        #expect(messages(xml) == ["forbidden XML: entity declarations are not allowed (entity \"a\")"])
    }

    @Test("an external DTD other than Apple's is refused")
    func externalDTD() {
        let xml =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist SYSTEM \"http://example.com/evil.dtd\">\n<plist><array/></plist>"
        #expect(found(xml).map { $0.prefix(15) } == ["xml.forbidden@2"])
    }

    @Test("nesting beyond the limit is refused")
    func depth() {
        let xml = "<plist>" + String(repeating: "<array>", count: 1000)
        #expect(messages(xml) == ["forbidden XML: elements nest deeper than 64 levels"])
    }
}

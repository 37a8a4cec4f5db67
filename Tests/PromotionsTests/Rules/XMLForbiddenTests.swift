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

    @Test("an element with more than 256 attributes is refused at its `<`, before libxml2 checks them two by two")
    func manyAttributes() {
        func plist(_ count: Int) -> String {
            let attributes = (0..<count).map { "a\($0)=\"x>y\"" }.joined(separator: " ")
            return "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array>\n  <dict \(attributes)/></array></plist>"
        }
        #expect(found(plist(257)) == ["xml.forbidden@3:3 -"])
        #expect(
            messages(plist(257)) == [
                "forbidden XML: an element with more than 256 attributes (property list elements have none but <plist>'s version)"
            ])
        // 256 are read: the dict is a promotion without its keys.
        #expect(found(plist(256)).allSatisfy { $0.hasPrefix("promotion.missing-key@3:3") })
    }
}

import StrictJSON
import Testing

@Suite("Strict JSON")
struct JSONParserTests {
    let parser = JSONParser()

    @Test("values, with numbers kept exactly as written")
    func values() throws {
        #expect(
            try parser.parse(#" {"a": [1, -0.5, 1e2, 19.99, true, false, null], "b": "x"} "#)
                == .object([
                    (
                        "a",
                        .array([
                            .number("1"), .number("-0.5"), .number("1e2"), .number("19.99"), .bool(true), .bool(false),
                            .null
                        ])
                    ),
                    ("b", .string("x"))
                ]))
        #expect(try parser.parse("[]") == .array([]))
        #expect(try parser.parse("{}") == .object([]))
        #expect(try parser.parse("\"\"") == .string(""))
        #expect(try parser.parse("0") == .number("0"))
    }

    @Test("escapes, including surrogate pairs")
    func escapes() throws {
        #expect(try parser.parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{08}\u{0C}\n\r\t"))
        #expect(try parser.parse(#""\u00e9\u20AC\ud83d\ude00""#) == .string("é€😀"))
        #expect(try parser.parse("\"é€😀\"") == .string("é€😀"))
    }

    @Test(
        "what RFC 8259 refuses, at the right place",
        arguments: [
            ("", "line 1, column 1: the input is empty; expected a JSON value"),
            ("[1,]", "line 1, column 4: unexpected ']'; expected a JSON value"),
            ("{\"a\":1,}", "line 1, column 8: unexpected '}'; expected a member name in double quotes"),
            ("[01]", "line 1, column 2: numbers may not have leading zeros"),
            ("[1.]", "line 1, column 2: a number needs digits after '.'"),
            ("[.5]", "line 1, column 2: unexpected '.'; expected a JSON value"),
            ("[NaN]", "line 1, column 2: unexpected 'N'; expected a JSON value"),
            ("[+1]", "line 1, column 2: unexpected '+'; expected a JSON value"),
            ("[1e]", "line 1, column 2: a number needs digits in its exponent"),
            ("[tru]", "line 1, column 2: invalid literal; expected true"),
            ("{'a': 1}", "line 1, column 2: unexpected '''; expected a member name in double quotes"),
            ("[1] [2]", "line 1, column 5: unexpected '[' after the JSON value"),
            ("[1\n,\n2", "line 3, column 2: unexpected end of input; expected ',' or ']'"),
            ("\"abc", "line 1, column 1: unterminated string"),
            ("\"a\tb\"", "line 1, column 3: control character 0x9 in a string; escape it"),
            (#""\x""#, "line 1, column 2: invalid escape '\\x' in a string"),
            (#""\ud83d""#, "line 1, column 2: unpaired surrogate \\uD83D in a string"),
            (#""\ude00""#, "line 1, column 2: unpaired surrogate \\uDE00 in a string"),
            (#""\u12""#, "line 1, column 2: \\u needs four hex digits"),
            ("{\"a\": 1, \"a\": 2}", "line 1, column 10: duplicate key \"a\" in one object; keep only one"),
            ("// c\n[]", "line 1, column 1: unexpected '/'; expected a JSON value"),
            ("[1]\u{0}", "line 1, column 4: unexpected byte 0x0 after the JSON value")
        ])
    func refuses(input: String, message: String) {
        #expect(throws: JSONSyntaxError.self) { try parser.parse(input) }
        do {
            _ = try parser.parse(input)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test(
        "invalid UTF-8 is refused",
        arguments: [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0xE2, 0x82, 0x22], [0x22, 0x61, 0x5C, 0x6E, 0xFF, 0x22]
        ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONSyntaxError.self) { try parser.parse(bytes) }
    }

    @Test("deep nesting is refused without exhausting the stack")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000)
        let error = #expect(throws: JSONSyntaxError.self) { try parser.parse(deep) }
        #expect(error?.message == "arrays and objects nest deeper than 128 levels")
        #expect(throws: Never.self) {
            try parser.parse(String(repeating: "[", count: 128) + String(repeating: "]", count: 128))
        }
    }
}

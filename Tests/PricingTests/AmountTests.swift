import Pricing
import Testing

@Suite("Amounts: exact decimal text ↔ minor units")
struct AmountTests {
    func cents(_ text: String, _ digits: Int = 2) -> Result<Int64, Amount.ParseError> {
        Amount.parse(text, minorDigits: digits)
    }

    @Test(
        "every spelling of an amount converts exactly",
        arguments: [
            ("5", 500), ("5.00", 500), ("5.0", 500), ("19.0", 1900), ("7.5", 750), ("1.95e1", 1950), ("19.99", 1999),
            (" 5 ", 500), ("\n19.99\t", 1999), ("0", 0), ("-0", 0), ("0.000e5", 0), ("1E+2", 10_000), ("1e-2", 1),
            ("19.9900", 1999), ("0019.99", 1999), ("-3.25", -325), ("0.01", 1), ("100000000000000000e-18", 10),
            ("92233720368547758.07", Int64.max), ("-92233720368547758.08", Int64.min)
        ] as [(String, Int64)])
    func converts(text: String, expected: Int64) {
        #expect(cents(text) == .success(expected))
    }

    @Test(
        "a value that is not whole minor units is refused, not rounded",
        arguments: ["19.999", "0.001", "1e-3", "0.0050001"])
    func notWhole(text: String) {
        #expect(cents(text) == .failure(.notWholeMinorUnits(minorDigits: 2)))
    }

    @Test(
        "non-numbers are refused",
        arguments: ["", " ", "NaN", "Infinity", "1.", ".5", "+5", "1e", "1e+", "5 €", "0x10", "1,5", "--1", "1.2.3"])
    func notANumber(text: String) {
        #expect(cents(text) == .failure(.notANumber))
    }

    @Test(
        "values beyond 64 bits are refused",
        arguments: ["1e400", "92233720368547758.08", "-92233720368547758.09", "99999999999999999999", "1e17"])
    func outOfRange(text: String) {
        #expect(cents(text) == .failure(.outOfRange))
    }

    @Test("currencies with 0 and 3 minor digits")
    func otherDigits() {
        #expect(cents("1200", 0) == .success(1200))
        #expect(cents("1200.0", 0) == .success(1200))
        #expect(cents("1200.5", 0) == .failure(.notWholeMinorUnits(minorDigits: 0)))
        #expect(cents("1.250", 3) == .success(1250))
        #expect(cents("1.2505", 3) == .failure(.notWholeMinorUnits(minorDigits: 3)))
    }

    @Test("formatting has exactly the currency's minor digits")
    func formatting() {
        #expect(Amount.format(7450, minorDigits: 2) == "74.50")
        #expect(Amount.format(5, minorDigits: 2) == "0.05")
        #expect(Amount.format(0, minorDigits: 2) == "0.00")
        #expect(Amount.format(-5, minorDigits: 2) == "-0.05")
        #expect(Amount.format(1200, minorDigits: 0) == "1200")
        #expect(Amount.format(3375, minorDigits: 3) == "3.375")
        #expect(Amount.format(Int64.min, minorDigits: 2) == "-92233720368547758.08")
        #expect(Amount.largest(minorDigits: 2) == "92233720368547758.07")
    }

    @Test("integers")
    func integers() {
        #expect(Amount.parseInteger(" 42 ") == .success(42))
        #expect(Amount.parseInteger("-7") == .success(-7))
        #expect(Amount.parseInteger("9223372036854775808") == .failure(.outOfRange))
        #expect(Amount.parseInteger("-9223372036854775808") == .success(Int64.min))
        #expect(Amount.parseInteger("2.0") == .failure(.notANumber))
        #expect(Amount.parseInteger("") == .failure(.notANumber))
        #expect(Amount.parseInteger("-") == .failure(.notANumber))
    }

    @Test("currencies know their minor digits")
    func currencies() {
        #expect(Currency(code: "EUR")?.minorDigits == 2)
        #expect(Currency(code: "JPY")?.minorDigits == 0)
        #expect(Currency(code: "KWD")?.minorDigits == 3)
        #expect(Currency(code: "ISK")?.minorDigits == 0)
        #expect(Currency(code: "eur") == nil)
        #expect(Currency(code: "EURO") == nil)
        #expect(Currency(code: "") == nil)
    }
}

@Suite("Instants: RFC 3339")
struct InstantTests {
    @Test("parses Z, offsets and fractions, and prints UTC to the second")
    func parsing() throws {
        #expect(try Instant(rfc3339: "1970-01-01T00:00:00Z") == Instant(seconds: 0))
        #expect(try Instant(rfc3339: "2026-11-21T10:00:00Z").seconds == 1_795_255_200)
        #expect(try Instant(rfc3339: "2026-11-21T11:00:00+01:00") == Instant(rfc3339: "2026-11-21T10:00:00Z"))
        #expect(try Instant(rfc3339: "2026-11-21T05:30:00-04:30").description == "2026-11-21T10:00:00Z")
        #expect(
            try Instant(rfc3339: "2026-11-21t10:00:00.75z") == Instant(seconds: 1_795_255_200, nanoseconds: 750_000_000)
        )
        #expect(try Instant(rfc3339: "2026-11-21T10:00:00.999999999Z").description == "2026-11-21T10:00:00Z")
        #expect(try Instant(rfc3339: "2024-02-29T00:00:00Z").description == "2024-02-29T00:00:00Z")
        #expect(try Instant(rfc3339: "0000-01-01T00:00:00Z").description == "0000-01-01T00:00:00Z")
        #expect(try Instant(rfc3339: "9999-12-31T23:59:59Z").description == "9999-12-31T23:59:59Z")
        #expect(try Instant(rfc3339: "1969-12-31T23:59:59Z") == Instant(seconds: -1))
    }

    @Test(
        "refuses what is not an RFC 3339 date-time",
        arguments: [
            "", "2026-11-21", "2026-11-21T10:00:00", "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-11-21T24:00:00Z", "2026-11-21T10:60:00Z", "2026-11-21T10:00:60Z", "2026-11-21T10:00:00+1:00",
            "2026-11-21T10:00:00.Z", "2026-11-21T10:00:00Zjunk", "0000-01-01T00:00:00+01:00", "26-11-21T10:00:00Z"
        ])
    func refuses(text: String) {
        #expect(throws: Instant.ParseError.self) { try Instant(rfc3339: text) }
    }

    @Test("the message says what is expected")
    func message() {
        let error = #expect(throws: Instant.ParseError.self) { try Instant(rfc3339: "tomorrow") }
        #expect(
            error?.description
                == "\"tomorrow\" is not an RFC 3339 date-time (not in the form YYYY-MM-DDTHH:MM:SS followed by Z or an offset; expected e.g. 2026-11-21T10:00:00Z)"
        )
    }
}

/// A point in time: whole seconds since 1970-01-01T00:00:00Z and a fraction in nanoseconds.
///
/// Instants are read from and written as RFC 3339 text. They compare exactly, so activation windows
/// (`start ≤ instant < end`) hold at the exact second.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var seconds: Int64
    public var nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (a: Instant, b: Instant) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    /// Why a text is not an RFC 3339 instant.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Parses RFC 3339: `2026-11-21T10:00:00Z`, `2026-11-21T11:00:00+01:00`, `2026-11-21T10:00:00.250Z`.
    /// `T` and `Z` may be lower case. Years run from 0000 to 9999 in UTC.
    public init(rfc3339 text: String) throws(ParseError) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result<Instant, ParseError> { () throws(ParseError) in try Instant(rfc3339: bytes) }
        }
        self = try result.get()
    }

    /// Parses RFC 3339 text given as UTF-8 bytes, without copying them.
    public init(rfc3339 b: UnsafeBufferPointer<UInt8>) throws(ParseError) {
        func fail(_ why: String) -> ParseError {
            ParseError(
                description:
                    "\"\(String(decoding: b, as: UTF8.self))\" is not an RFC 3339 date-time (\(why); expected e.g. 2026-11-21T10:00:00Z)"
            )
        }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard isDigit(b[i]) else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard b.count >= 20, let year = number(0, 4), b[4] == UInt8(ascii: "-"), let month = number(5, 2),
            b[7] == UInt8(ascii: "-"), let day = number(8, 2),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
            let hour = number(11, 2), b[13] == UInt8(ascii: ":"), let minute = number(14, 2),
            b[16] == UInt8(ascii: ":"), let second = number(17, 2)
        else { throw fail("not in the form YYYY-MM-DDTHH:MM:SS followed by Z or an offset") }
        guard (1...12).contains(month) else { throw fail("month \(month) does not exist") }
        guard (1...daysIn(month: month, year: year)).contains(day) else {
            throw fail("day \(day) does not exist in that month")
        }
        guard hour < 24, minute < 60, second < 60 else { throw fail("time of day out of range") }
        var i = 19
        var nanoseconds = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            var scale = 100_000_000
            while i < b.count, isDigit(b[i]) {
                nanoseconds += Int(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { throw fail("a fraction of a second needs digits") }
        }
        var offset = 0
        guard i < b.count else { throw fail("the time zone is missing") }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            guard let oh = number(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let om = number(i + 4, 2),
                oh < 24, om < 60
            else { throw fail("the offset must be +HH:MM or -HH:MM") }
            offset = (oh * 60 + om) * 60 * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        } else {
            throw fail("the time zone must be Z or an offset")
        }
        guard i == b.count else { throw fail("unexpected text after the time zone") }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
        let instant = Instant(seconds: seconds, nanoseconds: Int32(nanoseconds))
        guard instant >= Instant.earliest, instant <= Instant.latest else {
            throw fail("the year in UTC must be 0000 to 9999")
        }
        self = instant
    }

    static let earliest = Instant(seconds: Int64(daysFromCivil(year: 0, month: 1, day: 1)) * 86_400)
    static let latest = Instant(
        seconds: Int64(daysFromCivil(year: 9999, month: 12, day: 31)) * 86_400 + 86_399, nanoseconds: 999_999_999)

    /// RFC 3339 in UTC to the second: `2026-11-21T09:00:00Z`.
    public var description: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civilFromDays(Int(days))
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }
}

private func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

private func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
}

func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

import Platform
import Pricing
import ReferenceModels
import SeededRandom
import Testing

@testable import Promotions

/// A large file is read by two parsers, each from one half; what they report must be exactly what
/// one parser reading the whole file reports, whatever the file holds where it is cut.
@Suite("Reading a file with two parsers")
struct TwoParserTests {
    /// A random promotions file in a random layout, with the traps a cut can fall into.
    struct RandomFile {
        var rng: SplitMix

        mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
        mutating func pick<T>(_ options: [T]) -> T { options[Int(rng.next() % UInt64(options.count))] }

        mutating func promotion(_ i: Int, _ ids: Int, _ nl: String, _ indent: String) -> String {
            let id = chance(85) ? "<key>id</key><string>p\(Int(rng.next() % UInt64(ids)))</string>" : ""
            let name = chance(95) ? "<key>name</key><string>N\(i % 7)</string>" : ""
            var body: String
            switch rng.next() % 8 {
            case 0:
                body =
                    "<key>type</key><string>combo</string><key>code</key><string>\(pick(["A", "B", "Z", "a"]))</string><key>quantity</key><integer>2</integer><key>paid</key><integer>\(rng.next() % 3)</integer>"
            case 1:
                body =
                    "<key>type</key><string>bulk</string><key>codes</key><array>\(nl)\(indent)<string>A</string>\(nl)\(indent)<string>B</string>\(nl)\(indent)</array><key>quantity</key><integer>3</integer><key>price</key><real>1.\(rng.next() % 1000)</real>"
            case 2:
                body = "<key>type</key><string>cart</string><key>percent</key><real>\(rng.next() % 120).5</real>"
            case 3:
                // A dict nested in a promotion, laid out like promotions: a cut may fall inside it.
                body =
                    "<key>type</key><string>percent</string><key>code</key><string>A</string><key>percent</key><integer>10</integer><key>extra</key><array>\(nl)<dict><key>a</key><true/></dict>\(nl)<dict><key>b</key><false/></dict>\(nl)</array>"
            case 4:
                body =
                    "<key>type</key><string>amount</string><key>code</key><string>B</string><key>amount</key><string>0.\(rng.next() % 100)</string><key>end</key><date>2026-0\(1 + rng.next() % 9)-01T00:00:00Z</date>"
            case 5:
                body = "<key>type</key><string>bogo</string><key>code</key><string>A</string><key>dangling</key>"
            case 6:
                body =
                    "<key>type</key><string>bundle</string><key>codes</key><array><string>A</string><string>B</string></array><key>price</key><integer>\(rng.next() % 400)</integer>"
            default:
                body =
                    "<key>type</key><string>percent</string><key>code</key><string>A</string><key>percent</key><integer>10</integer><key>percent</key><integer>20</integer>"
            }
            return "<dict>\(nl)\(indent)\(id)\(name)\(body)\(nl)</dict>"
        }

        /// The file, and whether it is meant to be read in halves (a layout with line breaks).
        /// A file of `promotions` promotions (default: 20 to 219) and a few traps.
        mutating func make(promotions: Int? = nil) -> [UInt8] {
            let nl = pick(["\n", "\r\n", "\n\n", "\r"])
            let indent = pick(["", "\t", "    "])
            let count = promotions ?? 20 + Int(rng.next() % 200)
            let ids = max(1, count * Int(1 + rng.next() % 3) / 2)
            var elements: [String] = []
            for i in 0..<count { elements.append(promotion(i, ids, nl, indent)) }
            // Now and then, somewhere, one of the things a cut must not be fooled by.
            for _ in 0..<Int(rng.next() % 3) where chance(40) {
                let trap = pick([
                    "<string>not a promotion</string>", "stray text", "<!-- </dict>\(nl)<dict> -->", "<dict/>",
                    "<dict><key>x</key></array>", "<key>k</key>", "\r \r",
                    "<dict><key>a</key><string>x\ry</string></dict>"
                ])
                elements.insert(trap, at: Int(rng.next() % UInt64(elements.count)))
            }
            let currency = pick([
                "", "<key>currency</key><string>JPY</string>", "<key>currency</key><string>EUR</string>",
                "<key>currency</key><string>KWD</string>"
            ])
            let trailer = pick([
                "", "<key>currency</key><string>JPY</string>", "<key>version</key><integer>1</integer>",
                "<key>promotions</key><array/>", "<key>colour</key><string>red</string>"
            ])
            let array = "<array>\(nl)" + elements.joined(separator: nl + indent) + "\(nl)</array>"
            var text: String
            switch rng.next() % 4 {
            case 0: text = "<plist version=\"1.0\">\(nl)\(array)\(nl)</plist>\(nl)"
            case 1:
                text =
                    "<plist xmlns:x=\"urn:x\"><dict>\(currency)<key>promotions</key>\(array)\(trailer)</dict></plist>"
            default:
                text =
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\(nl)<plist version=\"1.0\">\(nl)<dict>\(nl)\(currency)\(nl)<key>promotions</key>\(nl)\(array)\(nl)\(trailer)</dict>\(nl)</plist>\(nl)"
            }
            var bytes = Array(text.utf8)
            if chance(10) { bytes = [0xEF, 0xBB, 0xBF] + bytes }
            if chance(5) { bytes += Array("<extra/>".utf8) }
            return bytes
        }
    }

    @Test("gives exactly what one parser gives, on 1,000 random files")
    func differential() {
        var random = RandomFile(rng: SplitMix(seed: 12))
        let catalog = try! Catalog(
            currency: .euro,
            products: [Product(code: "A", name: "A", price: 100), Product(code: "B", name: "B", price: 50)]
        )
        var halves = 0
        for round in 0..<1_000 {
            let bytes = random.make()
            var checks = PromotionChecks(expiryInstant: try! Instant(rfc3339: "2026-05-01T00:00:00Z"))
            // The halves merged, and the checks after reading run, on two threads at once.
            checks.parts = .atOnce(width: 2)
            if round % 3 == 0 {
                checks.catalog = catalog
                checks.checksProducts = true
            }
            let one = PromotionFile.load(bytes: bytes, name: "r.plist", checks: checks.reading(.oneThread))
            let two = PromotionFile.load(bytes: bytes, name: "r.plist", checks: checks.reading(.twoParsers))
            if two.readInHalves { halves += 1 }
            #expect(two.diagnostics == one.diagnostics, "round \(round)")
            #expect(two.promotions == one.promotions, "round \(round)")
            #expect(two.entries == one.entries, "round \(round)")
            #expect(two.currency == one.currency, "round \(round)")
            if two.diagnostics != one.diagnostics {
                print(String(decoding: bytes, as: UTF8.self))
                break
            }
        }
        // Many files are cut; those with only CRs for line breaks, with a namespace, or with a trap
        // before the cut are read whole.
        #expect(halves > 300)
    }

    @Test("files over a megabyte, read from disk by two parsers, give what one parser gives")
    func filesOnDisk() throws {
        var random = RandomFile(rng: SplitMix(seed: 99))
        let stem = "/tmp/checkout-two-parsers-\(Machine.monotonicNanoseconds())"
        var halves = 0
        for round in 0..<12 {
            let bytes = random.make(promotions: 6_000)
            #expect(bytes.count > 1 << 20)
            let path = "\(stem)-\(round).plist"
            try FileSystem.write(bytes, to: path)
            defer { FileSystem.remove(path) }
            let checks = PromotionChecks(expiryInstant: try! Instant(rfc3339: "2026-05-01T00:00:00Z"))
            let one = PromotionFile.load(bytes: bytes, name: path, checks: checks.reading(.oneThread))
            let two = try PromotionFile.load(
                contentsOf: path,
                checks: checks.reading(
                    PromotionReading(secondThreadFrom: PromotionReading.default.secondThreadFrom, halvingFrom: 0)))
            if two.readInHalves { halves += 1 }
            #expect(two.diagnostics == one.diagnostics, "round \(round)")
            #expect(two.promotions == one.promotions, "round \(round)")
            #expect(two.entries == one.entries, "round \(round)")
            #expect(two.currency == one.currency, "round \(round)")
        }
        #expect(halves >= 3)
    }

    @Test("an id used in both halves is reported at its later use, which is dropped")
    func duplicateAcrossHalves() throws {
        var lines = ["<plist><array>"]
        for i in 0..<40 {
            let id = i == 3 || i == 30 || i == 35 ? "same" : "p\(i)"
            lines.append(
                "<dict><key>id</key><string>\(id)</string><key>name</key><string>N</string><key>type</key><string>cart</string><key>percent</key><integer>5</integer></dict>"
            )
        }
        lines.append("</array></plist>")
        let bytes = Array(lines.joined(separator: "\n").utf8)
        let two = PromotionFile.load(bytes: bytes, name: "d.plist", checks: PromotionChecks().reading(.twoParsers))
        #expect(two.readInHalves)
        #expect(two.promotions.count == 38)
        #expect(two.promotions.filter { $0.id == "same" }.count == 1)
        #expect(
            two.diagnostics.map { "\($0.location.line) \($0.notes.map(\.location.line)) \($0.entry ?? -1)" } == [
                "32 [5] 30", "37 [5] 35"
            ])
        #expect(two.diagnostics.first?.message.contains("the promotion at line 5 already uses it") == true)
    }
}

extension TwoParserTests {
    @Test("shadowed promotions after a dropped repeat point at their own <dict>, read by two parsers or one")
    func shadowedAfterDroppedRepeat() {
        // Every 10 % on A is shadowed by the 20 % on A in the first line; an id used in both halves
        // drops the later promotion, so the second half's promotions are one fewer than its entries.
        // The repeat comes after the second half's first run of 4,096 promotions.
        var lines = ["<plist><array>"]
        func promotion(_ id: String, _ percent: Int) -> String {
            "<dict><key>id</key><string>\(id)</string><key>name</key><string>\(id)</string><key>type</key><string>percent</string><key>percent</key><integer>\(percent)</integer><key>code</key><string>A</string></dict>"
        }
        lines.append(promotion("top", 20))
        for i in 0..<20_000 { lines.append(promotion(i == 10 || i == 15_000 ? "same" : "p\(i)", 10)) }
        lines.append("</array></plist>")
        let bytes = Array(lines.joined(separator: "\n").utf8)
        var checks = PromotionChecks(
            catalog: try! Catalog(products: [Product(code: "A", name: "A", price: 1_000)]), checksProducts: true)
        let one = PromotionFile.load(bytes: bytes, name: "s.plist", checks: checks.reading(.oneThread))
        checks.parts = .backwards(width: 3)
        let two = PromotionFile.load(bytes: bytes, name: "s.plist", checks: checks.reading(.twoParsers))
        #expect(two.readInHalves)
        #expect(two.diagnostics == one.diagnostics)
        let shadowed = two.diagnostics.filter { $0.rule == .shadowed }
        // 19,999 promotions shadowed (the repeat at line 15,003 is an error, not a promotion), each at its line.
        #expect(shadowed.count == 19_999)
        #expect(shadowed.map(\.location.line) == Array(3...15_002) + Array(15_004...20_002))
        #expect(
            shadowed.map(\.promotion) == (0..<20_000).filter { $0 != 15_000 }.map { $0 == 10 ? "same" : "p\($0)" })
        #expect(shadowed.allSatisfy { $0.notes.map(\.location.line) == [2] })
    }
}

extension PromotionChecks {
    /// These checks, the file read as `reading` says.
    func reading(_ reading: PromotionReading) -> PromotionChecks {
        var checks = self
        checks.reading = reading
        return checks
    }
}

extension PromotionReading {
    /// Two parsers whatever the file's size, whenever the file can be cut.
    static let twoParsers = PromotionReading(secondThreadFrom: 0, halvingFrom: 0)
}

/// SplitMix64, for reproducible random files.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

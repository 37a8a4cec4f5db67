import Foundation
import Testing

/// Hostile promotion files and carts: each must end in a clean message and the right exit code, in
/// well under a second and under 100 MiB, and never show anything it should not have read.
@Suite("Hostile input", .serialized)
struct HostileInputTests {
    static let directory: URL = {
        let dir = try! temporaryDirectory([
            "shop.json": "[\"MUG\"]",
            "Products.json":
                #"{"products": [{"code": "MUG", "name": "Mug", "price": 7.5}, {"code": "GOLD", "price": "92233720368547758.07"}]}"#
        ])
        func write(_ name: String, _ bytes: [UInt8]) {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data(bytes))
        }
        func write(_ name: String, _ text: String) { write(name, Array(text.utf8)) }
        let lol = (2...9).map { "<!ENTITY lol\($0) \"" + String(repeating: "&lol\($0 - 1);", count: 10) + "\">" }
            .joined(separator: "\n")
        write(
            "billion-laughs.plist",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY lol1 \"lol\">\n\(lol)\n]>\n<plist><string>&lol9;</string></plist>\n"
        )
        write(
            "quadratic.plist",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY a \"\(String(repeating: "a", count: 50_000))\">]>\n<plist><string>"
                + String(repeating: "&a;", count: 50_000) + "</string></plist>\n")
        write(
            "passwd-entity.plist",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<plist><array><dict><key>name</key><string>&xxe;</string></dict></array></plist>\n"
        )
        write(
            "dtd-file.plist",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist SYSTEM \"file:///etc/passwd\">\n<plist><array/></plist>\n")
        write(
            "dtd-http.plist",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist PUBLIC \"-//Evil//DTD\" \"http://192.0.2.1/evil.dtd\">\n<plist><array/></plist>\n"
        )
        write(
            "deep.plist",
            "<plist>" + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000)
                + "</plist>")
        write("deep.json", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
        write(
            "huge-text.plist",
            "<plist><array><dict><key>name</key><string>" + String(repeating: "x", count: 64 << 20)
                + "</string></dict></array></plist>")
        write(
            "bad-utf8.plist",
            [UInt8]("<plist><array><dict><key>name</key><string>".utf8) + [0xC3, 0x28, 0xFF]
                + [UInt8]("</string></dict></array></plist>".utf8))
        write("bad-utf8.json", [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])
        write("nul.plist", [UInt8]("<plist><array>".utf8) + [0] + [UInt8]("</array></plist>".utf8))
        write("nul.json", [0x5B, 0x22, 0x4D, 0x00, 0x22, 0x5D])
        write("truncated.plist", "<plist><array><dict><key>name</key><str")
        write("truncated.json", "[\"MUG\", {\"code\": \"MU")
        write("empty.plist", "")
        write("empty.json", "")
        write(
            "range.plist",
            "<plist><array><dict><key>name</key><string>r</string><key>type</key><string>bulk</string><key>code</key><string>MUG</string><key>quantity</key><integer>9223372036854775808</integer><key>price</key><real>1e400</real></dict></array></plist>"
        )
        write("quantity-big.json", #"[{"code": "MUG", "quantity": 9223372036854775808}]"#)
        write("quantity-fraction.json", #"[{"code": "MUG", "quantity": 2.5}]"#)
        write("quantity-negative.json", #"[{"code": "MUG", "quantity": -3}]"#)
        write("quantity-exponent.json", #"[{"code": "MUG", "quantity": 1e400}]"#)
        write("overflow.json", #"[{"code": "GOLD", "quantity": 2}]"#)
        write("sets-price.json", #"{"items": [{"code": "MUG", "price": 0.01}]}"#)
        write("price-1e400.json", #"{"products": [{"code": "A", "price": 1e400}]}"#)
        var longLine = Array(repeating: UInt8(ascii: " "), count: 6 << 20)
        longLine.append(contentsOf: Array("\n[\"MUG\"]\n".utf8))
        write("long-line.ndjson", longLine)
        return dir
    }()

    func run(_ arguments: [String], stdoutPath: String? = nil) throws -> MeasuredRun {
        let run = try measuredCheckout(arguments, in: Self.directory, stdoutPath: stdoutPath)
        // A bound on blow-ups (an entity bomb, a quadratic parse take minutes), not a speed target:
        // generous enough for a loaded machine, where these runs took just over 1 s.
        #expect(run.seconds < 10, "\(arguments) took \(run.seconds) s")
        #expect(run.peakMegabytes < 100, "\(arguments) used \(run.peakMegabytes) MB")
        #expect(!run.stdout.contains("root:") && !run.stderr.contains("root:"))
        return run
    }

    @Test(
        "promotion files: entity bombs, external entities and DTDs, deep nesting, huge text, bad bytes, truncation",
        arguments: [
            ("billion-laughs.plist", "xml.forbidden", "entity declarations are not allowed"),
            ("quadratic.plist", "xml.forbidden", "entity declarations are not allowed"),
            ("passwd-entity.plist", "xml.forbidden", "entity declarations are not allowed"),
            ("dtd-file.plist", "xml.forbidden", "only Apple's plist DTD is allowed"),
            ("dtd-http.plist", "xml.forbidden", "only Apple's plist DTD is allowed"),
            ("deep.plist", "xml.forbidden", "elements nest deeper than 64 levels"),
            ("huge-text.plist", "xml.forbidden", "is longer than 1048576 bytes"),
            ("bad-utf8.plist", "xml.malformed", ""),
            ("nul.plist", "xml.malformed", ""),
            ("truncated.plist", "xml.malformed", ""),
            ("empty.plist", "xml.malformed", ""),
            ("range.plist", "promotion.invalid-value", "is out of range")
        ])
    func promotionFiles(file: String, id: String, message: String) throws {
        let validate = try run(["validate", file])
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("[\(id)]"), "\(validate.stdout)")
        #expect(message.isEmpty || validate.stdout.contains(message))
        let price = try run(["price", "shop.json", "--catalog", "Products.json", "--promotions", file])
        #expect(price.status == 65)
        #expect(price.stdout == "")
        #expect(price.stderr.contains("[\(id)]"))
    }

    @Test(
        "carts: deep nesting, bad bytes, truncation, numbers out of range, fractional and negative quantities, overflow, prices",
        arguments: [
            ("deep.json", "arrays and objects nest deeper than 128 levels"),
            ("bad-utf8.json", "invalid UTF-8 in a string"),
            ("nul.json", "control character 0x0 in a string"),
            ("truncated.json", "unterminated string"),
            ("empty.json", "the input is empty"),
            ("quantity-big.json", #"must be a whole number from 1 to 1000000000, not 9223372036854775808"#),
            ("quantity-fraction.json", #"must be an integer literal such as 3, not 2.5"#),
            ("quantity-negative.json", #"must be a whole number from 1 to 1000000000, not -3"#),
            ("quantity-exponent.json", #"must be an integer literal such as 3, not 1e400"#),
            ("overflow.json", #""GOLD": 2 × 92233720368547758.07 exceeds the largest amount, 92233720368547758.07"#),
            ("sets-price.json", "a cart cannot set prices")
        ])
    func carts(file: String, message: String) throws {
        let price = try run(
            ["price", file, "--catalog", "Products.json", "--promotions", "Rules.plist.missing-is-fine"].dropLast(2) + [
                "--promotions", Self.emptyRules
            ])
        #expect(price.status == 65)
        #expect(price.stdout == "")
        #expect(price.stderr.hasPrefix("error: \(file): "))
        #expect(price.stderr.contains(message), "\(price.stderr)")
    }

    static let emptyRules: String = {
        let path = directory.appendingPathComponent("none.plist").path
        _ = FileManager.default.createFile(atPath: path, contents: Data("<plist><array/></plist>".utf8))
        return path
    }()

    @Test("a catalog price out of range")
    func catalogOutOfRange() throws {
        let run = try run(["price", "shop.json", "--catalog", "price-1e400.json", "--promotions", Self.emptyRules])
        #expect(run.status == 65)
        #expect(
            run.stderr
                == "error: price-1e400.json: products[0] (\"A\"): \"price\" 1e400 is out of range (the largest amount is 92233720368547758.07)\n"
        )
    }

    @Test("a batch line beyond the limit is an error in its place; the next line is priced, memory stays flat")
    func longBatchLine() throws {
        let run = try run([
            "price", "long-line.ndjson", "--catalog", "Products.json", "--promotions", Self.emptyRules, "--format",
            "json",
            "--max-file-size", "\(1 << 20)"
        ])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines.first
                == #"{"line":1,"error":"the line is longer than 1048576 bytes, the longest a line of a batch may be (16 MiB, or --max-file-size when lower)"}"#
        )
        #expect(lines.last?.hasPrefix(#"{"currency":"EUR""#) == true)
    }

    @Test("limits are options: a smaller file size, a larger text length")
    func limitOptions() throws {
        let small = try run([
            "price", "shop.json", "--catalog", "Products.json", "--promotions", Self.emptyRules, "--max-file-size", "4"
        ])
        #expect(small.status == 65)
        #expect(
            small.stderr.contains("larger than the limit of 4 bytes") || small.stderr.contains("larger than 4 bytes"))
        let text = try measuredCheckout(
            ["validate", "huge-text.plist", "--max-text-length", "\(80 << 20)", "--reporter", "json"],
            in: Self.directory)
        #expect(text.status == 1)
        #expect(text.stdout.contains("promotion.missing-key"))  // read whole, then checked: no type
        #expect(try run(["validate", "deep.plist", "--max-depth", "1"]).status == 64)
    }

    @Test("a full disk ends with a message and exit 74, never a receipt cut short")
    func fullDisk() throws {
        let run = try run(
            ["price", "shop.json", "--catalog", "Products.json", "--promotions", Self.emptyRules],
            stdoutPath: "/dev/full")
        #expect(run.status == 74)
        #expect(run.stderr == "error: cannot write the output: No space left on device\n")
    }
}

import Foundation
import Testing

@Suite("checkout bench, end to end")
struct BenchCommandTests {
    @Test("times every phase on a tiny workload, as text and as JSON, and emits the files")
    func tinyWorkload() throws {
        let dir = try temporaryDirectory()
        let text = try checkout([
            "bench", "--lines", "200", "--promotions", "50", "--products", "10", "--batch-carts", "30"
        ])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "checkout bench: 10 products, 50 promotions, 200 cart lines, 30 batch carts (seed 42)")
        #expect(
            lines.dropFirst(2).prefix(6).map { String($0.prefix(14)).trimmingCharacters(in: .whitespaces) }
                == ["parse rules", "compile", "read cart", "price", "write receipt", "price batch"])
        #expect(lines.last?.hasPrefix("cart total: ") == true)

        let json = try checkout([
            "bench", "--lines", "200", "--promotions", "50", "--products", "10", "--format", "json", "--emit", dir.path
        ])
        #expect(json.status == 0)
        let report = try self.json(json.stdout)
        #expect(
            (report["phases"] as? [[String: Any]])?.map { $0["name"] as? String } == [
                "parse rules", "compile", "read cart", "price", "write receipt"
            ])
        #expect((report["parameters"] as? [String: Any])?["lines"] as? Int == 200)
        // The same seed gives the same files, and checkout prices the emitted cart to the same total.
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(files == ["Products.json", "Promotions.plist", "cart.json"])
        let priced = try checkout(
            [
                "price", "cart.json", "--catalog", "Products.json", "--promotions", "Promotions.plist",
                "--at", "2026-06-01T12:00:00Z", "--format", "json"
            ], in: dir)
        #expect(try self.json(priced.stdout)["total"] as? String == report["cart_total"] as? String)
    }

    @Test("--sweep runs checkout on every point and writes the CSV and the SVG")
    func sweep() throws {
        let dir = try temporaryDirectory()
        let run = try checkout(["bench", "--sweep", dir.path, "--sweep-max", "3", "--repeats", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let csv = try String(contentsOf: dir.appendingPathComponent("sweep.csv"), encoding: .utf8)
        #expect(run.stdout.hasPrefix(csv))
        let rows = csv.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(
            rows.first == ["axis", "lines", "promotions", "carts", "price_seconds", "process_seconds", "peak_kilobytes"]
        )
        // Lines 10^3; promotions 10, 100, 1000 against a batch of 1000 carts; a batch of 10^3 carts.
        #expect(
            rows.dropFirst().map { $0.prefix(4) }
                == [
                    ["lines", "1000", "1000", "0"], ["promotions", "1", "10", "1000"],
                    ["promotions", "1", "100", "1000"],
                    ["promotions", "1", "1000", "1000"], ["carts", "1", "1000", "1000"]
                ].map { $0[...] })
        for row in rows.dropFirst() {
            // Pricing is a part of the whole run; a checkout process holds at least its code.
            let price = Double(row[4]) ?? 0
            let process = Double(row[5]) ?? 0
            #expect(price > 0 && price < process, "\(row)")
            #expect((Int(row[6]) ?? 0) > 5_000, "\(row)")
        }
        #expect(run.stdout.contains("promotions: pricing time ∝ n^"))
        let svg = try String(contentsOf: dir.appendingPathComponent("sweep.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
        // The generated files are gone; only the results stay.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["sweep.csv", "sweep.svg", "work"]
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("work").path).isEmpty)
    }

    @Test("refuses nonsense sizes")
    func usage() throws {
        #expect(try checkout(["bench", "--products", "0"]).status == 64)
        #expect(try checkout(["bench", "--lines", "-1"]).status == 64)
    }

    func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }
}

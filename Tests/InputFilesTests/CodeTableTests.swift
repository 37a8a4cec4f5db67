import Pricing
import SeededRandom
import Testing
import Workloads

@testable import InputFiles

/// The code table keys codes by their first and last 8 bytes (and a long code's middle): checked
/// against a dictionary of byte arrays on codes of every length from 1 to 40 bytes, drawn from so few
/// characters that many share their first or last 8 bytes, looked up as they are and changed by one
/// byte, shortened or lengthened, from buffers that end right after the code, from buffers with
/// bytes after it, and (codes under 8 bytes) from inside a word with other bytes above them.
@Suite("Code table")
struct CodeTableTests {
    static func randomCode(_ random: inout SplitMix64) -> String {
        let alphabet: [String] = ["A", "B", "0", "1", "-", "é"]
        let length = 1 + Int(random.next() % 40)
        // Mostly one letter repeated with a few others, so that heads and tails repeat across codes.
        return (0..<length).map { _ in random.next() % 4 == 0 ? alphabet[Int(random.next() % 6)] : "A" }.joined()
    }

    /// Looks `bytes` up as a code at the end of a buffer (nothing readable after it) and followed by
    /// `after`.
    static func lookups(_ table: ByteLookup, _ bytes: [UInt8], after: [UInt8]) -> (Int, Int) {
        let alone = bytes.withUnsafeBufferPointer { buffer in
            // An empty array has no address; a code is never empty, but a shortened one may be.
            buffer.baseAddress.map { table.lookup($0, buffer.count, readable: buffer.count) ?? -1 } ?? -1
        }
        let followed = (bytes + after).withUnsafeBufferPointer { buffer in
            table.lookup(buffer.baseAddress!, bytes.count, readable: buffer.count) ?? -1
        }
        return (alone, followed)
    }

    @Test("finds every code and nothing else, on 300 random catalogs")
    func againstDictionary() throws {
        var random = SplitMix64(seed: 41)
        var probes = 0
        var hits = 0
        for _ in 0..<300 {
            var codes: [String] = []
            var seen = Set<[UInt8]>()
            for _ in 0..<(1 + Int(random.next() % 200)) {
                let code = Self.randomCode(&random)
                if seen.insert(Array(code.utf8)).inserted { codes.append(code) }
            }
            let catalog = try Catalog(products: codes.map { Product(code: $0, name: $0, price: 1) })
            let table = catalog.codes.bytes
            var reference: [[UInt8]: Int] = [:]
            for (id, code) in codes.enumerated() { reference[Array(code.utf8)] = id }
            #expect(table.longestCode == reference.keys.map(\.count).max())
            for code in codes {
                let bytes = Array(code.utf8)
                var candidates = [bytes, Array(bytes.dropLast()), bytes + [UInt8(ascii: "A")]]
                var changed = bytes
                changed[Int(random.next() % UInt64(bytes.count))] ^= UInt8(1 << (random.next() % 7))
                candidates.append(changed)
                let after = (0..<Int(random.next() % 12)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                for candidate in candidates {
                    let expected = reference[candidate] ?? -1
                    let (alone, followed) = Self.lookups(table, candidate, after: after)
                    #expect(alone == expected, "\(candidate)")
                    #expect(followed == expected, "\(candidate) + \(after)")
                    if candidate.count < 8 {
                        // As the scanner finds a short code: inside a word, bytes after it above.
                        var word = random.next()
                        for (i, byte) in candidate.enumerated() {
                            word = word & ~(0xFF << (8 * UInt64(i))) | UInt64(byte) << (8 * UInt64(i))
                        }
                        #expect(
                            (table.lookup(word: word, count: candidate.count) ?? -1) == expected,
                            "\(candidate) in a word")
                    }
                    probes += 1
                    if expected >= 0 { hits += 1 }
                }
            }
        }
        // Each code was found as itself; the changed spellings mostly missed.
        #expect(probes > 100_000)
        #expect(hits > probes / 4 && hits < probes / 2)
    }

    @Test("codes of exactly 8 and 16 bytes, and ones differing only in their middle")
    func wordBoundaries() throws {
        let codes = [
            "ABCDEFGH", "ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOQ", "ABCDEFGH12345678", "ABCDEFGHx1234567",
            "ABCDEFGH-middle-1-IJKLMNOP", "ABCDEFGH-middle-2-IJKLMNOP", "ABCDEFG", "BCDEFGH"
        ]
        let table = try Catalog(products: codes.map { Product(code: $0, name: $0, price: 1) }).codes.bytes
        for (id, code) in codes.enumerated() {
            #expect(Self.lookups(table, Array(code.utf8), after: []) == (id, id), "\(code)")
        }
        for missing in ["ABCDEFGH-middle-3-IJKLMNOP", "ABCDEFGHIJKLMNOR", "ABCDEFGHI", "ABCDEF", "ABCDEFG\0"] {
            #expect(Self.lookups(table, Array(missing.utf8), after: Array("\"}".utf8)) == (-1, -1), "\(missing)")
        }
    }

    @Test("the generator's catalog of 3,000 codes: each found, near misses not")
    func generatorCatalog() throws {
        let catalog = try CatalogFile.decode(
            Workload(.init(products: 3_000, promotions: 0, lines: 0)).catalogJSON(), name: "c")
        let table = catalog.codes.bytes
        for (id, product) in catalog.products.enumerated() {
            let found = Array(product.code.utf8).withUnsafeBufferPointer {
                table.lookup($0.baseAddress!, $0.count, readable: $0.count)
            }
            #expect(found == id)
        }
        for missing in ["", "P", "P30000", "p0001", "P0001 "] {
            let found = Array(missing.utf8).withUnsafeBufferPointer {
                table.lookup($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count, readable: $0.count)
            }
            #expect(found == nil, "\(missing)")
        }
    }
}

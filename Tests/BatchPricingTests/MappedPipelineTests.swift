import InputFiles
import Platform
import Pricing
import PromotionDiff
import Promotions
import Receipts
import SeededRandom
import Testing
import Workloads

@testable import BatchPricing

/// The mapped pipeline (every stage on every worker) against the streaming one and against pricing
/// one line after the other, on random batches cut into random blocks.
@Suite("Batches from a mapped file")
struct MappedPipelineTests {
    static let workload = Workload(.init(products: 30, promotions: 200, lines: 0, batchCarts: 400, seed: 11))
    static let catalog = try! CatalogFile.decode(workload.catalogJSON(), name: "Products.json")
    static let rules = RuleSet(
        promotions: PromotionFile.load(
            bytes: workload.promotionsPlist(), name: "p", checks: PromotionChecks(catalog: catalog)
        ).promotions, catalog: catalog)
    static let carts = String(decoding: workload.batchNDJSON(), as: UTF8.self).split(separator: "\n").map(String.init)

    /// A random batch: carts, broken and blank lines, CRLF ends, lines too long, with or without a
    /// final line break.
    static func randomBatch(_ random: inout SplitMix64, maxLineLength: Int) -> [UInt8] {
        var text = ""
        for _ in 0..<random.next(below: 60) {
            switch random.next(below: 10) {
            case 0: text += "   "
            case 1: text += #"["NOPE"]"#
            case 2: text += "{" + String(repeating: " ", count: maxLineLength) + "}"
            case 4 where random.next(below: 4) == 0: text += String(repeating: " ", count: maxLineLength + 1)
            case 3: text += carts[random.next(below: carts.count)] + "\r"
            default: text += carts[random.next(below: carts.count)]
            }
            text += random.next(below: 8) == 0 ? "\n\n" : "\n"
        }
        if random.next(below: 3) == 0, text.hasSuffix("\n") { text.removeLast() }
        return Array(text.utf8)
    }

    /// Line after line, straight from the rules of a batch: a receipt or an error entry per non-blank line.
    static func reference(_ input: [UInt8], pricer: BatchPricer) -> (String, Int) {
        var sequential = CartPricer(rules: rules, instant: pricer.instant, now: pricer.now)
        var out = ""
        var failures = 0
        let lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            // Too long comes first: a blank line too long is refused like any other.
            guard line.count > pricer.maxLineLength || line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D })
            else { continue }
            let result: Result<Receipt, InputError> =
                line.count > pricer.maxLineLength
                ? .failure(InputError(file: "b", pricer.tooLongMessage))
                : sequential.price(Array(line), name: "b")
            switch (result, pricer.format) {
            case (.success(let receipt), .json): out += ReceiptEncoder.render(receipt) + "\n"
            case (.success(let receipt), .text): out += ReceiptText.renderLine(receipt, label: "b:\(index + 1)")
            case (.failure(let error), _):
                failures += 1
                out += pricer.renderError(line: index + 1, id: error.cartID, message: error.detail, name: "b")
            }
        }
        return (out, failures)
    }

    @Test("the same output and failures for any block size, thread count and format, 1,500 random batches")
    func differential() throws {
        var random = SplitMix64(seed: 2026)
        let at = try Instant(rfc3339: "2026-06-01T12:00:00Z")
        for _ in 0..<1_500 {
            var pricer = BatchPricer(
                rules: Self.rules, instant: at, now: at, format: random.next(below: 2) == 0 ? .json : .text,
                workers: 1 + random.next(below: 4))
            pricer.blockSize = 1 + random.next(below: 600)
            pricer.maxLineLength = 80 + random.next(below: 200)
            let input = Self.randomBatch(&random, maxLineLength: pricer.maxLineLength)
            let (expected, expectedFailures) = Self.reference(input, pricer: pricer)
            let mapped = CollectingSink()
            let mappedFailures = pricer.run(input, name: "b", to: mapped)
            let streamed = CollectingSink()
            let streamedFailures = pricer.runStreaming(input, name: "b", to: streamed)
            let context = "block size \(pricer.blockSize), \(pricer.workers) workers, \(pricer.format)"
            #expect(firstDifference(String(decoding: mapped.bytes, as: UTF8.self), expected) == nil, "\(context)")
            #expect(firstDifference(String(decoding: streamed.bytes, as: UTF8.self), expected) == nil, "\(context)")
            #expect(mappedFailures == expectedFailures)
            #expect(streamedFailures == expectedFailures)
            if mapped.bytes != Array(expected.utf8) || streamed.bytes != Array(expected.utf8) { return }
        }
    }

    /// The first line where two outputs differ, both versions, or nil.
    func firstDifference(_ actual: String, _ expected: String) -> String? {
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(a.count, e.count) where index >= a.count || index >= e.count || a[index] != e[index] {
            let got = index < a.count ? String(a[index].prefix(160)) : "(none)"
            let want = index < e.count ? String(e[index].prefix(160)) : "(none)"
            return "line \(index + 1): got \(got), expected \(want)"
        }
        return nil
    }

    @Test("blocks are the lines that start in their bytes; line breaks are counted exactly")
    func blocks() {
        let text = Array("ab\ncd\n\nefgh\nij".utf8)
        text.withUnsafeBufferPointer { bytes in
            // Offsets 0-3, 4-7, 8-11, 12-13: lines start at 0, 3 | 6, 7 | none | 12.
            let ranges = (0..<4).map { MappedBlocks.range(of: $0, in: bytes, blockSize: 4) }
            #expect(ranges == [0..<6, 6..<12, 12..<12, 12..<14])
            #expect(
                ranges.map { MappedBlocks.lineBreaks(in: UnsafeBufferPointer(rebasing: bytes[$0])) } == [2, 2, 0, 0])
            #expect(MappedBlocks.lineStart(from: 3, before: 14, in: bytes) == 3)
            #expect(MappedBlocks.lineStart(from: 8, before: 12, in: bytes) == nil)
            #expect(MappedBlocks.lineStart(from: 12, before: 14, in: bytes) == 12)
        }
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let bytes = (0..<random.next(below: 100)).map { _ in random.next(below: 3) == 0 ? UInt8(10) : UInt8(65) }
            let expected = bytes.count { $0 == 10 }
            #expect(bytes.withUnsafeBufferPointer { MappedBlocks.lineBreaks(in: $0) } == expected)
        }
    }
}

extension SplitMix64 {
    fileprivate mutating func next(below bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }
}

@Suite("Diff batches from a mapped file")
struct MappedDiffTests {
    @Test("a mapped batch and the same batch streamed tally the same, 200 random batches")
    func mappedEqualsStreamed() throws {
        let at = try Instant(rfc3339: "2026-06-01T12:00:00Z")
        let half = RuleSet(
            promotions: Array(MappedPipelineTests.rules.promotions.prefix(100)), catalog: MappedPipelineTests.catalog)
        let pricer = DiffRun.Pricer(old: MappedPipelineTests.rules, new: half, instant: at, now: at)
        let path = "/tmp/checkout-mapped-diff-\(Machine.monotonicNanoseconds()).ndjson"
        defer { FileSystem.remove(path) }
        var random = SplitMix64(seed: 99)
        for _ in 0..<200 {
            var run = DiffRun(carts: [path], now: at)
            run.workers = 1 + random.next(below: 4)
            run.blockSize = 1 + random.next(below: 700)
            run.limits.maxFileSize = 150 + random.next(below: 100)
            let input = MappedPipelineTests.randomBatch(&random, maxLineLength: run.limits.maxFileSize)
            try FileSystem.write(input, to: path)
            func tally(mapped: Bool) throws -> DiffTally {
                let fd = try FileDescriptor.open(forReading: path)
                defer { fd.close() }
                var tally = DiffTally()
                try run.tallyBatch(
                    fd, size: mapped ? input.count : nil, file: 0, name: "b", pricer: pricer, into: &tally
                ) { _, _ in }
                return tally
            }
            let mapped = try tally(mapped: true)
            let streamed = try tally(mapped: false)
            #expect(mapped.carts == streamed.carts)
            #expect(
                mapped.carts
                    == input.split(separator: 10).count {
                        $0.count > run.limits.maxFileSize || $0.contains { $0 != 0x20 && $0 != 0x0D }
                    })
            #expect(mapped.failed == streamed.failed)
            #expect(mapped.failures == streamed.failures)
            #expect(mapped.changed == streamed.changed)
            #expect(mapped.before == streamed.before && mapped.after == streamed.after)
            #expect(mapped.effectsBefore == streamed.effectsBefore && mapped.effectsAfter == streamed.effectsAfter)
            #expect(mapped.largest == streamed.largest)
        }
    }
}

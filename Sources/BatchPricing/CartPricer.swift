import InputFiles
import Pricing

/// Prices cart documents: reads one, resolves its items against the catalog and prices it with
/// the run's coupons and instant. One pricer serves many carts.
public struct CartPricer {
    public let engine: PricingEngine
    /// Coupons presented besides each cart's own (`--coupon`).
    public let coupons: [String]
    /// The instant to price at (`--at`); when nil, each cart's own `at`, else `now`.
    public let instant: Instant?
    public let now: Instant
    private var reader: CartReader

    public init(rules: RuleSet, coupons: [String] = [], instant: Instant? = nil, now: Instant) {
        engine = PricingEngine(rules: rules)
        self.coupons = coupons
        self.instant = instant
        self.now = now
        reader = CartReader(catalog: rules.catalog)
    }

    /// The receipt of the cart in `bytes`, or why it cannot be priced; `name` is the file as
    /// messages show it.
    public mutating func price(_ bytes: UnsafeBufferPointer<UInt8>, name: String) -> Result<Receipt, InputError> {
        do {
            let cart = try reader.read(bytes, name: name)
            return .success(try price(cart, name: name))
        } catch {
            return .failure(error)
        }
    }

    public mutating func price(_ bytes: [UInt8], name: String) -> Result<Receipt, InputError> {
        bytes.withUnsafeBufferPointer { price($0, name: name) }
    }

    public func price(_ cart: Cart, name: String) throws(InputError) -> Receipt {
        do {
            return try engine.price(cart, coupons: coupons, at: instant, now: now)
        } catch {
            var failure = InputError(file: name, error.description)
            failure.cartID = cart.id
            throw failure
        }
    }
}

/// A batch file's carts: one per line (NDJSON), with physical line numbers; blank lines skipped.
public struct BatchLines: Sequence {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether a file is a batch by its name: `*.ndjson` or `*.jsonl`.
    public static func isBatchName(_ path: String) -> Bool {
        path.hasSuffix(".ndjson") || path.hasSuffix(".jsonl")
    }

    public func makeIterator() -> Array<(line: Int, range: Range<Int>)>.Iterator {
        bytes.withUnsafeBufferPointer { all in
            var lines = LineWalker(bytes: all)
            var result: [(line: Int, range: Range<Int>)] = []
            while let next = lines.next() { result.append(next) }
            return result.makeIterator()
        }
    }

    /// Walks the lines of bytes that outlive it.
    public struct LineWalker {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var line = 0

        public init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// The next non-blank line: its number (from 1) and its byte range, without the line break.
        public mutating func next() -> (line: Int, range: Range<Int>)? {
            while position < bytes.count {
                line += 1
                let start = position
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                position = end + 1
                for i in start..<end where !(bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D) {
                    return (line, start..<end)
                }
            }
            return nil
        }
    }
}

import InputFiles
import Platform
import StrictJSON

/// How the cost of pricing grows (`checkout bench --sweep`): a large cart from 10³ lines up, rule
/// sets from 10 promotions up, batches from 10³ carts up. Each point is generated and timed by
/// `checkout bench` (the pricing alone, best of `repeats`), then priced by `checkout price` on the
/// written files, for the whole run's time and its peak memory (best of `repeats`).
public struct Sweep {
    /// What a series varies.
    public enum Axis: String, Sendable, CaseIterable {
        /// Items of one cart, against 1,000 promotions.
        case lines
        /// Promotions, against a batch of 10⁵ small carts (fewer when the sweep is capped lower).
        case promotions
        /// Small carts in a batch, against 1,000 promotions.
        case carts

        /// The varied size of a point on this axis.
        public func size(of point: Point) -> Int {
            switch self {
            case .lines: point.lines
            case .promotions: point.promotions
            case .carts: point.carts
            }
        }
    }

    /// One measurement.
    public struct Point: Sendable, Equatable {
        public var axis: Axis
        public var lines: Int
        public var promotions: Int
        public var carts: Int
        /// Reading, pricing and writing the cart (or pricing the batch), in this process.
        public var priceSeconds = 0.0
        /// The whole `checkout price` run on the files, loading the rules included.
        public var processSeconds = 0.0
        /// That run's largest resident memory.
        public var peakKilobytes = 0

        public init(axis: Axis, lines: Int, promotions: Int, carts: Int) {
            self.axis = axis
            self.lines = lines
            self.promotions = promotions
            self.carts = carts
        }
    }

    /// The largest power of ten for lines and carts (promotions stop at 10⁵).
    public var maxExponent = 7
    public var repeats = 3
    /// The `checkout` executable that prices the files.
    public var executable: String
    /// Where the generated files are written (and removed at the end).
    public var directory: String
    public var progress: (String) -> Void = { _ in }

    public init(executable: String, directory: String) {
        self.executable = executable
        self.directory = directory
    }

    /// The points, axis by axis.
    public func plan() -> [Point] {
        let top = max(3, maxExponent)
        let powers = (3...top).map { power(10, $0) }
        let batchForRules = power(10, min(5, top))
        return powers.map { Point(axis: .lines, lines: $0, promotions: 1_000, carts: 0) }
            + (1...min(5, top)).map {
                Point(axis: .promotions, lines: 1, promotions: power(10, $0), carts: batchForRules)
            }
            + powers.map { Point(axis: .carts, lines: 1, promotions: 1_000, carts: $0) }
    }

    /// Measures every point of the plan.
    public func run() throws -> [Point] {
        do {
            try FileSystem.makeDirectory(directory)
        } catch {
            throw BenchmarkError(message: "\(directory): cannot create: \(error)")
        }
        defer {
            for name in ["Products.json", "Promotions.plist", "cart.json", "batch.ndjson", "bench.json", "errors.txt"] {
                FileSystem.remove(directory + "/" + name)
            }
        }
        return try plan().map(measure)
    }

    /// Generates, writes and times one point in a `checkout bench` child, then runs `checkout price`
    /// on its files. Both run in children so that this process stays small: the kernel counts the
    /// starting process's peak memory in a child's.
    func measure(_ point: Point) throws -> Point {
        var point = point
        let size = point.axis.size(of: point)
        let label = "\(point.axis.rawValue) \(size)"
        progress("\(label): generating and timing")
        let report = directory + "/bench.json"
        let bench = try child(
            [
                "bench", "--products", "1000", "--promotions", String(point.promotions), "--lines", String(point.lines),
                "--batch-carts", String(point.carts), "--emit", directory, "--repeats", String(repeats),
                "--format", "json"
            ], output: report)
        guard bench.status == 0 else { throw failure("checkout bench", status: bench.status) }
        point.priceSeconds = try Self.priceSeconds(in: report, batch: point.carts > 0)
        progress("\(label): checkout price")
        let input = directory + (point.carts > 0 ? "/batch.ndjson" : "/cart.json")
        let arguments = [
            "price", input, "--catalog", directory + "/Products.json", "--promotions", directory + "/Promotions.plist",
            "--format", "json", "--at", "2026-06-01T12:00:00Z"
        ]
        for run in 0..<repeats {
            let outcome = try child(arguments)
            guard outcome.status == 0 else { throw failure("checkout price \(input)", status: outcome.status) }
            point.processSeconds = run == 0 ? outcome.seconds : min(point.processSeconds, outcome.seconds)
            point.peakKilobytes = run == 0 ? outcome.peakKilobytes : min(point.peakKilobytes, outcome.peakKilobytes)
        }
        return point
    }

    func child(_ arguments: [String], output: String = "/dev/null") throws -> ChildProcess.Outcome {
        do {
            return try ChildProcess.run(executable, arguments: arguments, output: output, errors: errors)
        } catch {
            throw BenchmarkError(message: "\(executable): cannot run: \(error)")
        }
    }

    /// Where the children's messages go, shown when one fails.
    var errors: String { directory + "/errors.txt" }

    func failure(_ command: String, status: Int32) -> BenchmarkError {
        let said = (try? FileBytes.read(errors)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return BenchmarkError(message: "\(command) exited with status \(status)\(said.isEmpty ? "" : ": " + said)")
    }

    /// The pricing time in a `checkout bench --format json` report: reading, pricing and writing
    /// the cart, or pricing the batch.
    static func priceSeconds(in path: String, batch: Bool) throws -> Double {
        let bytes: [UInt8]
        let report: JSONValue
        do {
            bytes = try FileBytes.read(path)
            report = try JSONParser().parse(bytes)
        } catch {
            throw BenchmarkError(message: "\(path): not a bench report: \(error)")
        }
        guard case .array(let phases)? = report["phases"] else {
            throw BenchmarkError(message: "\(path): no phases")
        }
        let wanted: Set<String> = batch ? ["price batch"] : ["read cart", "price", "write receipt"]
        var total = 0.0
        for phase in phases {
            guard case .string(let name)? = phase["name"], wanted.contains(name) else { continue }
            guard case .number(let text)? = phase["seconds"], let seconds = Double(text) else {
                throw BenchmarkError(message: "\(path): phase \(name) has no seconds")
            }
            total += seconds
        }
        return total
    }

    /// The points as CSV, one row each, with a header.
    public static func csv(_ points: [Point]) -> String {
        var out = "axis,lines,promotions,carts,price_seconds,process_seconds,peak_kilobytes\n"
        for point in points {
            out += "\(point.axis.rawValue),\(point.lines),\(point.promotions),\(point.carts),"
            out += "\(fixed(point.priceSeconds, 6)),\(fixed(point.processSeconds, 6)),\(point.peakKilobytes)\n"
        }
        return out
    }
}

/// `base` to the power `exponent`.
func power(_ base: Int, _ exponent: Int) -> Int {
    (0..<exponent).reduce(1) { value, _ in value * base }
}

import ArgumentParser
import Platform
import Pricing
import StrictJSON
import Workloads

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Generate a catalog, a large cart and a rule set, and time each phase of pricing them.",
        discussion: """
            The workload is the same for the same options (--seed). Phases: parse rules, compile, read cart, \
            price, write receipt, and with --batch-carts, price a batch on every core. --emit writes the \
            generated files (Products.json, Promotions.plist, cart.json, batch.ndjson) for other tools.
            """)

    @Option(help: "Items in the large cart.") var lines = 1_000_000
    @Option(help: "Promotions in the rule set.") var promotions = 100_000
    @Option(help: "Products in the catalog.") var products = 1_000
    @Option(help: "Small carts in a batch to price as well (0: none).") var batchCarts = 0
    @Option(help: "Threads that price the batch (default: one per processor; at most 256).") var threads: Int?
    @Option(help: "Seed of the generator.") var seed: UInt64 = 42
    @Option(
        help:
            "Share of the item promotions that work across lines (\(Self.groupKinds.joined(separator: ", "))), from 0 to 1."
    )
    var groupShare =
        0.0
    @Flag(
        name: .customLong("cart-ids"),
        help: "Give every batch cart an id (a string for odd carts, an integer for even ones).") var cartIDs = false
    @Flag(help: "Give products categories, brands and tags (docs/selectors.md).") var attributes = false
    @Option(
        help: "Share of the item promotions that name their products with a selector, from 0 to 1 (with --attributes).")
    var selectorShare = 0.0
    @Option(
        help: ArgumentHelp(
            "How those promotions are written: selectors, codes (the products each selects) or one-code.",
            valueName: "spelling"))
    var selectorSpelling = Workload.SelectorSpelling.selectors
    @Option(help: ArgumentHelp("Write the generated files into this directory.", valueName: "dir")) var emit: String?
    @Option(help: "Report format: text or json.") var format: OutputFormat = .text
    @Option(
        help: ArgumentHelp(
            "Measure how cost grows instead: price time and peak memory over cart sizes, rule-set sizes and batch sizes; write sweep.csv and sweep.svg into this directory.",
            valueName: "dir")) var sweep: String?
    @Option(help: "With --sweep: the largest power of ten of cart lines and batch carts (3 to 8).") var sweepMax = 7
    @Option(help: "Runs of each phase (with --sweep, of each point); the fastest is reported.") var repeats = 1

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, not \(threads)") }
        guard products >= 1 else { throw ValidationError("--products must be at least 1") }
        guard (0...1).contains(groupShare) else { throw ValidationError("--group-share must be from 0 to 1") }
        guard (0...1).contains(selectorShare) else { throw ValidationError("--selector-share must be from 0 to 1") }
        guard (3...8).contains(sweepMax) else { throw ValidationError("--sweep-max must be from 3 to 8") }
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1") }
        guard lines >= 0, promotions >= 0, batchCarts >= 0 else {
            throw ValidationError("--lines, --promotions and --batch-carts must not be negative")
        }
    }

    func run() throws {
        if let sweep {
            try runSweep(into: sweep)
            return
        }
        var parameters = Workload.Parameters(
            products: products, promotions: promotions, lines: lines, batchCarts: batchCarts, seed: seed,
            groupShare: groupShare, cartIDs: cartIDs)
        parameters.attributes = attributes
        parameters.selectorShare = selectorShare
        parameters.selectorSpelling = selectorSpelling
        var run = BenchmarkRun(workload: Workload(parameters))
        run.threads = threads
        run.repeats = repeats
        let bar = ProgressBar(total: nil)
        run.progress = { bar?.update($0 + "…") }
        if let emit {
            let files: [(path: String, bytes: Int)]
            do {
                files = try run.emit(to: emit)
            } catch {
                bar?.finish()
                Console.error("\(error)")
                throw ExitStatus.ioError
            }
            bar?.finish()
            for file in files { OutputStream.standardError.write("wrote \(file.path) (\(file.bytes) bytes)\n") }
        }
        let result = try run.run()
        bar?.finish()
        let out = OutputStream.standardOutput
        switch format {
        case .text: out.write(renderText(result.phases, total: result.total))
        case .json: out.write(renderJSON(result.phases, total: result.total))
        }
        try Console.finishOutput()
    }

    /// Runs the sweep, writes its CSV and SVG, and prints the points and the fitted growth.
    func runSweep(into directory: String) throws {
        guard let executable = ChildProcess.currentExecutable() else {
            Console.error("cannot find this program's executable to run it on each point")
            throw ExitStatus.ioError
        }
        var sweep = Sweep(executable: executable, directory: directory + "/work")
        sweep.maxExponent = sweepMax
        sweep.repeats = max(repeats, 3)
        do {
            try FileSystem.makeDirectory(directory)
        } catch {
            Console.error("\(directory): cannot create: \(error)")
            throw ExitStatus.ioError
        }
        let bar = ProgressBar(total: nil)
        sweep.progress = { bar?.update($0 + "…") }
        let points: [Sweep.Point]
        do {
            points = try sweep.run()
        } catch {
            bar?.finish()
            Console.error("\(error)")
            throw ExitStatus.ioError
        }
        bar?.finish()
        let title = "checkout price: cost by size (\(Machine.processorCount) cores, best of \(sweep.repeats))"
        for (name, text) in [("sweep.csv", Sweep.csv(points)), ("sweep.svg", Sweep.svg(points, title: title))] {
            do {
                try FileSystem.write(Array(text.utf8), to: directory + "/" + name)
            } catch {
                Console.error("\(directory)/\(name): cannot write: \(error)")
                throw ExitStatus.ioError
            }
        }
        let out = OutputStream.standardOutput
        out.write(Sweep.csv(points))
        for fit in Sweep.fits(points) {
            out.write(
                "\(fit.axis.rawValue): pricing time ∝ n^\(fit.time.map { fixed($0, 2) } ?? "?"), "
                    + "peak memory ∝ n^\(fit.memory.map { fixed($0, 2) } ?? "?")\n"
            )
        }
        OutputStream.standardError.write("wrote \(directory)/sweep.csv and \(directory)/sweep.svg\n")
        try Console.finishOutput()
    }

    func renderText(_ phases: [BenchmarkRun.Phase], total: String) -> String {
        var out = "checkout bench: \(products) products, \(promotions) promotions, \(lines) cart lines"
        out += batchCarts > 0 ? ", \(batchCarts) batch carts" : ""
        out +=
            groupShare > 0
            ? ", \(Int((groupShare * 100).rounded())) % of item promotions \(Self.groupKinds.joined(separator: "/"))"
            : ""
        out += " (seed \(seed))\n"
        out += pad("phase", 14) + pad("time", 12, right: true) + pad("cpu", 12, right: true)
        out += pad("MB/s", 10, right: true) + "   throughput\n"
        for phase in phases {
            out += pad(phase.name, 14) + pad(fixed(phase.seconds * 1000, 1) + " ms", 12, right: true)
            out += pad(fixed(phase.cpuSeconds * 1000, 1) + " ms", 12, right: true)
            out += pad(phase.bytes > 0 ? fixed(phase.megabytesPerSecond, 0) : "", 10, right: true)
            out += "   \(humanCount(phase.itemsPerSecond)) \(phase.itemName)/s\n"
        }
        out += "cart total: \(total)\n"
        return out
    }

    func renderJSON(_ phases: [BenchmarkRun.Phase], total: String) -> String {
        let out = JSONWriter(pretty: true)
        out.object {
            out.member("parameters") {
                out.object {
                    out.member("products") { out.raw(String(products)) }
                    out.member("promotions") { out.raw(String(promotions)) }
                    out.member("lines") { out.raw(String(lines)) }
                    out.member("batch_carts") { out.raw(String(batchCarts)) }
                    out.member("seed") { out.raw(String(seed)) }
                }
            }
            out.member("phases") {
                out.array(phases) { phase in
                    out.object {
                        out.member("name") { out.string(phase.name) }
                        out.member("seconds") { out.raw(fixed(phase.seconds, 6)) }
                        out.member("cpu_seconds") { out.raw(fixed(phase.cpuSeconds, 6)) }
                        out.member("bytes") { out.raw(String(phase.bytes)) }
                        out.member("items") { out.raw(String(phase.items)) }
                        out.member("megabytes_per_second") { out.raw(fixed(phase.megabytesPerSecond, 1)) }
                        out.member("items_per_second") { out.raw(fixed(phase.itemsPerSecond, 0)) }
                    }
                }
            }
            out.member("cart_total") { out.string(total) }
        }
        return out.text + "\n"
    }
}

/// 1234567 → "1.23 M".
func humanCount(_ value: Double) -> String {
    switch value {
    case 1e9...: fixed(value / 1e9, 2) + " G"
    case 1e6...: fixed(value / 1e6, 2) + " M"
    case 1e3...: fixed(value / 1e3, 1) + " k"
    default: fixed(value, 0)
    }
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return right ? fill + text : text + fill
}

extension Bench {
    /// The promotion types that work across lines.
    static let groupKinds = PromotionType.allCases.filter { $0.scope == .group }.map(\.rawValue)
}

extension Workload.SelectorSpelling: ExpressibleByArgument {}

import Foundation
import Testing

/// Workers bounded, truncated inputs and unreadable ones said so, the terminal left as it was, and
/// help that cannot be written not reported as success.
@Suite("Bounded and honest", .serialized)
struct BoundedAndHonestTests {
    static let cart = #"{"items": [{"code": "MUG", "quantity": 3}, {"code": "TSHIRT", "quantity": 4}]}"#

    @Test(
        "--threads is bounded on every input path: a billion or Int64.max threads price as usual in little memory",
        arguments: ["1000000000", "9223372036854775807"])
    func threads(_ threads: String) throws {
        let dir = try temporaryDirectory(["day.ndjson": String(repeating: Self.cart + "\n", count: 3)])
        let lines = String(
            repeating: "day.ndjson:N: total 98.50 € (subtotal 102.50 €, discount 4.00 €, 2 lines)\n", count: 3)
        let expected = (1...3).reduce(lines) { text, n in
            text.replacingOccurrences(
                of: "day.ndjson:N:", with: "day.ndjson:\(n):", options: [], range: text.range(of: "day.ndjson:N:"))
        }
        let stdinFile = dir.appendingPathComponent("day.ndjson").path
        for arguments in [
            ["price", "day.ndjson", "--threads", threads], ["price", "-", "--batch", "--threads", threads],
            ["diff", "Rules/Promotions.plist", "Rules/Promotions.plist", "--carts", "day.ndjson", "--threads", threads]
        ] {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("Rules"), withIntermediateDirectories: true)
            for name in ["Products.json", "Promotions.plist"]
            where !FileManager.default.fileExists(
                atPath: dir.appendingPathComponent("Rules/" + name).path)
            {
                try FileManager.default.copyItem(
                    at: packageRoot.appendingPathComponent("Rules/" + name),
                    to: dir.appendingPathComponent("Rules/" + name))
            }
            let run = try measuredCheckout(arguments, in: dir, stdinFile: stdinFile)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.peakMegabytes < 100, "\(arguments) used \(run.peakMegabytes) MB")
            if arguments[0] == "price" {
                #expect(
                    run.stdout
                        == (arguments[1] == "-"
                            ? expected.replacingOccurrences(of: "day.ndjson", with: "<stdin>") : expected))
            }
        }
    }

    @Test("a batch file truncated while it is read: a message naming it and exit 74, not a silent SIGBUS")
    func truncatedWhileMapped() throws {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("big.ndjson").path
        // Large enough to take well over the delay below to price.
        try Data(String(repeating: Self.cart + "\n", count: 400_000).utf8).write(to: URL(fileURLWithPath: path))
        let run = try start(["price", path, "--format", "json"])
        // Truncated once it is under way: receipts have come out.
        let output = run.scratch.appendingPathComponent("stdout").path
        for _ in 0..<2000 where (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0 == 0 {
            usleep(5_000)
        }
        #expect(truncate(path, 1000) == 0)
        let result = try run.wait()
        #expect(result.status == 74)
        #expect(
            result.stderr
                == "error: \(path): the file was truncated while being read (another program changed it); the output is incomplete\n"
        )
    }

    @Test(
        "no input can be read: exit 66 (a missing batch, a directory, several missing); one among others stays exit 1")
    func unreadable() throws {
        let dir = try temporaryDirectory(["a.ndjson": Self.cart + "\n"])
        let missing = dir.appendingPathComponent("missing.ndjson").path
        let run = try checkout(["price", missing])
        #expect(run.status == 66)
        #expect(run.stdout == "\(missing): error: cannot open: No such file or directory\n")
        #expect(run.stderr == "error: \(missing): cannot open: No such file or directory\n")
        let directory = try checkout(["price", dir.path, "--batch"])
        #expect(directory.status == 66)
        #expect(directory.stderr == "error: \(dir.path): cannot read: is a directory\n")
        let both = try checkout(["price", missing, dir.path, "--format", "json"])
        #expect(both.status == 66)
        #expect(
            both.stderr == "error: no input could be read (first: \(missing): cannot open: No such file or directory)\n"
        )
        let some = try checkout(["price", dir.appendingPathComponent("a.ndjson").path, missing])
        #expect(some.status == 1)
    }

    @Test("Ctrl-C or SIGTERM at the card prompt turns the terminal's echo back on", arguments: ["INT", "TERM"])
    func echoRestored(_ signal: String) throws {
        let store = try temporaryDirectory().appendingPathComponent("store.sqlite").path
        try checkout(["cart", "add", "MUG", "--store", store])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", packageRoot.appendingPathComponent("Tests/CheckoutCLITests/Fixtures/echo.py").path,
            "Card number: ", signal, "--", checkoutBinary.path, "pay", "--store", store
        ]
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let number = signal == "INT" ? 2 : 15
        #expect(text == "echo during: False; echo after: True; signal: \(number)\n")
    }

    @Test(
        "help, the version and a completion script that cannot be written: exit 74 with a message, never 0",
        arguments: [["--help"], ["--version"], ["--generate-completion-script", "bash"], ["price", "--help"]])
    func helpToFullDisk(_ arguments: [String]) throws {
        let full = try measuredCheckout(arguments, in: packageRoot, stdoutPath: "/dev/full")
        #expect(full.status == 74)
        #expect(full.stderr == "error: cannot write the output: No space left on device\n")
        // A pipe whose reader is gone.
        let process = Process()
        process.executableURL = checkoutBinary
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try pipe.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
    }
}

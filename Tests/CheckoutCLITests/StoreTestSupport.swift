import Foundation
import Testing

/// A `checkout` process started and not yet waited for: for running many at once on one store.
struct Started {
    let process: Process
    let scratch: URL

    /// Waits (up to 10 s) until a payment started with `CHECKOUT_TEST_PAUSE_PAYMENT` says on
    /// standard error that it is paused; records an issue if it never does.
    func waitUntilPaused(sourceLocation: SourceLocation = #_sourceLocation) {
        let errors = scratch.appendingPathComponent("stderr")
        for _ in 0..<1000 {
            if (try? String(contentsOf: errors, encoding: .utf8))?.contains("paused") == true { return }
            usleep(10_000)
        }
        Issue.record("the payment did not pause within 10 s", sourceLocation: sourceLocation)
    }

    /// Waits for it to end, and returns what it printed.
    func wait() throws -> Run {
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: scratch) }
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: scratch.appendingPathComponent("stdout")), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: scratch.appendingPathComponent("stderr")), as: UTF8.self))
    }
}

/// Starts `executable` (by default the built `checkout`) with `arguments`, standard input `stdin`
/// (then closed), output into files of a scratch directory: one way to launch every test's process.
func start(
    _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
    in directory: URL = packageRoot, executable: URL = checkoutBinary
) throws -> Started {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let scratch = try temporaryDirectory()
    // Writable by a test that runs the process as another user.
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: scratch.path)
    let out = scratch.appendingPathComponent("stdout")
    let err = scratch.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    return Started(process: process, scratch: scratch)
}

/// Card data for `pay --card-stdin`.
let approvingCard = "4242 4242 4242 4242\n12/30\n123\n"
let decliningCard = "4000 0000 0000 0002\n12/30\n123\n"

/// Runs `statements` on the SQLite file at `path` with Python's sqlite3 module (outside our code,
/// so that the tests see the store as any SQLite client does); returns each SELECT's rows.
@discardableResult
func sqlite(_ path: String, _ statements: [String]) throws -> [[[String]]] {
    try sqlite([path], statements)[0]
}

/// Runs `statements` on each of the SQLite files at `paths`, with one Python process.
func sqlite(_ paths: [String], _ statements: [String]) throws -> [[[[String]]]] {
    let script = """
        import json, sqlite3, sys
        result = []
        for path in json.loads(sys.argv[1]):
            db = sqlite3.connect(path, isolation_level=None)
            out = []
            for statement in json.loads(sys.argv[2]):
                out.append([[str(v) for v in row] for row in db.execute(statement).fetchall()])
            db.close()
            result.append(out)
        print(json.dumps(result))
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let encode = { (value: [String]) in
        String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }
    process.arguments = ["python3", "-c", script, try encode(paths), try encode(statements)]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw SQLiteFailure(statements: statements) }
    return try JSONSerialization.jsonObject(with: data) as? [[[[String]]]] ?? []
}

struct SQLiteFailure: Error {
    var statements: [String]
}

/// A file's bytes and the names beside it: what must not change when a store is refused.
func snapshot(_ path: String) throws -> (bytes: Data, names: [String]) {
    let url = URL(fileURLWithPath: path)
    return (
        try Data(contentsOf: url),
        try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted()
    )
}

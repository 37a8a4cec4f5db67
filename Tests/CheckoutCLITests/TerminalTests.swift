import Foundation
import Testing

/// Runs `checkout` in a pseudo-terminal `columns` wide, answering each prompt (a regular
/// expression) with the text after it; returns what the person saw and the exit status.
func inTerminal(_ arguments: [String], columns: Int = 80, answers: [(String, String)] = [], in directory: URL = packageRoot,
                environment: [String: String] = [:]) throws -> (screen: String, status: Int32) {
    let driver = packageRoot.appendingPathComponent("Tests/CheckoutCLITests/Fixtures/terminal.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", driver, String(columns)] + answers.flatMap { [$0.0, $0.1] } + ["--", checkoutBinary.path] + arguments
    process.currentDirectoryURL = directory
    var env = ProcessInfo.processInfo.environment
    env["TERM"] = "xterm"
    env.removeValue(forKey: "NO_COLOR")
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    let status = text.split(separator: "\n").last.flatMap { Int32($0.dropFirst(5)) } ?? -1
    return (String(text.dropLast(text.split(separator: "\n").last.map { $0.count + 1 } ?? 0)), status)
}

@Suite("At a terminal, as a person sees it", .serialized)
struct TerminalTests {
    func store() throws -> [String] {
        let dir = try temporaryDirectory()
        return ["--store", dir.appendingPathComponent("store.sqlite").path]
    }

    @Test("pay asks for the card with echo off for the number and CVC, checks each field at once and asks again alone")
    func payPrompts() throws {
        let store = try store()
        try checkout(["cart", "add", "MUG"] + store)
        let run = try inTerminal(["pay"] + store, answers: [
            ("Card number: ", "4242 4242 4242 4241"), ("Card number: ", "4242 4242 4242 4242"),
            ("Expiry \\(MM/YY\\): ", "13/30"), ("Expiry \\(MM/YY\\): ", "12/30"), ("CVC: ", "12"), ("CVC: ", "123"),
        ])
        #expect(run.status == 0)
        #expect(run.screen.contains("! the card number is not valid (check digit)\nCard number: "))
        #expect(run.screen.contains("! the expiry must be MM/YY, such as 04/28\nExpiry (MM/YY): "))
        #expect(run.screen.contains("12/30"))  // the expiry is echoed
        #expect(run.screen.contains("! the CVC must be 3 or 4 digits\nCVC: "))
        #expect(run.screen.contains("Payment approved: order #1, 7.50 €, card •••• 4242"))
        for secret in ["4242 4242 4242 4242", "4242 4242 4242 4241", "123\n"] { #expect(!run.screen.contains(secret), "\(secret) was shown") }
    }

    @Test("shop: the card number and CVC are not shown as they are typed")
    func shopPrompts() throws {
        let store = try store()
        let run = try inTerminal(["shop"] + store, answers: [
            ("\\[q\\]uit > ", "3"), ("\\[q\\]uit > ", "c"), ("\\[q\\]uit > ", "k"), ("\\[q\\]uit > ", "y"),
            ("Card number \\(\\[b\\]ack\\) > ", "4242 4242 4242 4242"), ("Expiry \\(MM/YY\\) > ", "12/30"), ("CVC > ", "987"), ("\\[q\\]uit > ", "q"),
        ])
        #expect(run.status == 0)
        #expect(run.screen.contains("Payment approved: order #1, 7.50 €, card •••• 4242."))
        #expect(!run.screen.contains("4242 4242 4242 4242"))
        #expect(!run.screen.contains("987"))
        #expect(run.screen.contains("12/30"))
    }
}

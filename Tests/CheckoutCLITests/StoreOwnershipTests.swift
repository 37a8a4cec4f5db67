import Foundation
import Testing

/// The store is ours or untouched; read-only stores read; the cart's limits hold at every write;
/// an output that fails after a change says the change was made (docs/store.md).
@Suite("Whose store, and what it holds", .serialized)
struct StoreOwnershipTests {
    /// Every command that opens the store, reading or writing.
    let commands: [[String]] = [["cart", "add", "MUG"], ["orders"], ["cart", "show"], ["cart", "clear"]]

    /// Runs every command on the file at `path` and checks each is refused with `message` (exit
    /// 74), and that neither the file nor its directory changed.
    func refusedUnchanged(_ path: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try snapshot(path)
        for command in commands {
            let run = try checkout(command + ["--store", path])
            #expect(run.status == 74, "\(command)", sourceLocation: sourceLocation)
            #expect(run.stdout == "", sourceLocation: sourceLocation)
            #expect(run.stderr == "error: \(message)\n", "\(command)", sourceLocation: sourceLocation)
            let after = try snapshot(path)
            #expect(after.bytes == before.bytes, "\(command) changed the file", sourceLocation: sourceLocation)
            #expect(after.names == before.names, "\(command) left files", sourceLocation: sourceLocation)
        }
    }

    @Test("a store from a newer Checkout (a migration this one does not know) is refused, naming it, unchanged")
    func newer() throws {
        let path = try temporaryDirectory().appendingPathComponent("store.sqlite").path
        try checkout(["cart", "add", "MUG", "--store", path])
        try sqlite(path, ["INSERT INTO grdb_migrations VALUES ('v9: loyalty points')"])
        try refusedUnchanged(
            path,
            "the store at \(path) was written by a newer version of Checkout (its schema has the migration \"v9: loyalty points\", which this version does not know); use that version or a newer one, or give another --store path. The store was left as it was"
        )
    }

    @Test("another GRDB application's database is refused unchanged: no WAL switch, no lock file")
    func otherGRDBApp() throws {
        let path = try temporaryDirectory().appendingPathComponent("app.sqlite").path
        try sqlite(
            path,
            [
                "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
                "INSERT INTO grdb_migrations VALUES ('createPlayer')",
                "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)",
                "INSERT INTO player (name) VALUES ('Arthur')"
            ])
        try refusedUnchanged(
            path,
            "\(path) is not a Checkout store (the database of another application that uses GRDB); it was left as it was; give another --store path"
        )
        // Still in the rollback journal mode it was made in.
        #expect(try sqlite(path, ["PRAGMA journal_mode"]) == [[["delete"]]])
    }

    @Test("an SQLite database without GRDB migrations is refused unchanged, in WAL mode or not")
    func plainSQLite() throws {
        let path = try temporaryDirectory().appendingPathComponent("notes.sqlite").path
        try sqlite(path, ["CREATE TABLE note (text TEXT)", "CREATE TABLE tag (name TEXT)"])
        let message =
            "\(path) is not a Checkout store (an SQLite database of another application, with the tables note, tag); it was left as it was; give another --store path"
        try refusedUnchanged(path, message)
        #expect(try sqlite(path, ["PRAGMA journal_mode"]) == [[["delete"]]])
        let wal = try temporaryDirectory().appendingPathComponent("notes.sqlite").path
        try sqlite(wal, ["PRAGMA journal_mode = WAL", "CREATE TABLE note (text TEXT)", "CREATE TABLE tag (name TEXT)"])
        try refusedUnchanged(wal, message.replacingOccurrences(of: path, with: wal))
    }

    @Test("a file that is not SQLite is refused unchanged")
    func notSQLite() throws {
        let path = try temporaryDirectory(["notes.txt": "shopping: milk, bread, and a long enough line\n"])
            .appendingPathComponent("notes.txt").path
        try refusedUnchanged(
            path,
            "\(path) is not a Checkout store (not an SQLite database); it was left as it was; give another --store path"
        )
    }

    @Test("reading commands (orders, cart show, cart coupon list) on a store that does not exist yet create nothing")
    func readingCreatesNothing() throws {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("store.sqlite").path
        #expect(try checkout(["orders", "--store", path]).stdout == "No orders yet.\n")
        #expect(try checkout(["cart", "show", "--store", path]).stdout == "Cart is empty.\n")
        #expect(try checkout(["cart", "coupon", "list", "--store", path]).stdout == "The cart presents no coupon.\n")
        #expect(
            try checkout(["cart", "coupon", "list", "--store", path, "--customer", "C-17"]).stdout
                == "The cart presents no coupon.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
    }

    @Test("NFC and NFD spellings of one code are one line, under the catalog's spelling")
    func canonicalCodes() throws {
        let nfc = "CAF\u{E9}"
        let nfd = "CAFe\u{301}"
        let dir = try temporaryDirectory([
            "Products.json":
                #"{"currency": "EUR", "products": [{"code": "CAF\u00e9", "name": "Coffee", "price": 2.5}]}"#
        ])
        let args = [
            "--store", dir.appendingPathComponent("store.sqlite").path, "--catalog",
            dir.appendingPathComponent("Products.json").path
        ]
        #expect(try checkout(["cart", "add", nfc] + args).stdout == "Added 1 × Coffee (\(nfc)).\n")
        #expect(try checkout(["cart", "add", nfd, "--quantity", "2"] + args).stdout == "Added 2 × Coffee (\(nfc)).\n")
        let lines = try json(checkout(["cart", "show", "--format", "json"] + args).stdout)["lines"] as? [[String: Any]]
        #expect(lines?.count == 1)
        #expect(lines?.first?["quantity"] as? Int == 3)
        let removed = try checkout(["cart", "remove", nfd, "--quantity", "1"] + args)
        #expect(removed.stdout == "Removed 1 × \(nfc).\n")
        #expect(
            try checkout(["cart", "remove", nfd] + args).stdout == "Removed 2 × \(nfc); none left in the cart.\n")
        #expect(try checkout(["cart", "show"] + args).stdout == "Cart is empty.\n")
    }

    @Test(
        "the 1,000,000,000 units of a product hold at every write: an add past them is refused, the cart still prices")
    func quantityLimit() throws {
        let store = ["--store", try temporaryDirectory().appendingPathComponent("store.sqlite").path]
        #expect(try checkout(["cart", "add", "MUG", "--quantity", "1000000000"] + store).status == 0)
        let over = try checkout(["cart", "add", "MUG"] + store)
        #expect(over.status == 65)
        #expect(
            over.stderr
                == "error: cannot add 1 × MUG: the cart holds 1000000000 already, and a product may have at most 1000000000 units in a cart; nothing was added\n"
        )
        let shown = try checkout(["cart", "show", "--format", "json"] + store)
        #expect(shown.status == 0)
        #expect(try json(shown.stdout)["total"] as? String == "7500000000.00")
        // Units a payment under way holds count too: they come back to the cart if it is declined.
        let store2 = ["--store", try temporaryDirectory().appendingPathComponent("store.sqlite").path]
        try checkout(["cart", "add", "MUG", "--quantity", "999999999"] + store2)
        let paying = try start(
            ["pay", "--card-stdin"] + store2, stdin: decliningCard,
            environment: ["CHECKOUT_TEST_PAUSE_PAYMENT": "before-charge"])
        paying.waitUntilPaused()
        let whilePaying = try checkout(["cart", "add", "MUG", "--quantity", "2"] + store2)
        #expect(whilePaying.status == 65)
        #expect(whilePaying.stderr.contains("the cart holds 999999999 already"))
        #expect(try checkout(["cart", "add", "MUG"] + store2).status == 0)
        kill(paying.process.processIdentifier, SIGKILL)
        _ = try paying.wait()
    }

    @Test("one store under two names (a symbolic link): a payment under way through one is under way through the other")
    func storeUnderTwoNames() throws {
        let dir = try temporaryDirectory()
        let real = dir.appendingPathComponent("store.sqlite").path
        let link = dir.appendingPathComponent("link.sqlite").path
        try checkout(["cart", "add", "MUG", "--store", real])
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let paying = try start(
            ["pay", "--card-stdin", "--store", link], stdin: approvingCard,
            environment: ["CHECKOUT_TEST_PAUSE_PAYMENT": "before-charge"])
        paying.waitUntilPaused()
        // Through the real name: refused, the payment through the link is not taken for interrupted.
        let busy = try checkout(["pay", "--card-stdin", "--format", "json", "--store", real], stdin: approvingCard)
        #expect(busy.status == 1)
        #expect(try json(busy.stdout)["status"] as? String == "in-progress")
        #expect(try json(busy.stdout)["recovered"] as? [Int] == [])
        kill(paying.process.processIdentifier, SIGKILL)
        _ = try paying.wait()
        // Now it is interrupted (before its charge): released, and the mug paid once.
        let paid = try checkout(["pay", "--card-stdin", "--format", "json", "--store", real], stdin: approvingCard)
        #expect(paid.status == 0)
        #expect(try json(paid.stdout)["total"] as? String == "7.50")
        let orders = try json(checkout(["orders", "--format", "json", "--store", link]).stdout)["orders"] as? [Any]
        #expect(orders?.count == 1)
    }

    @Test("a read-only store (file or directory): orders and cart show work; changing it is refused in words")
    func readOnly() throws {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("store.sqlite").path
        try checkout(["cart", "add", "MUG", "--quantity", "2", "--store", path])
        try checkout(["pay", "--card-stdin", "--store", path], stdin: approvingCard)
        try checkout(["cart", "add", "TSHIRT", "--store", path])
        let message =
            "error: the store at \(path) is read-only (its file or directory cannot be written): this command changes it; commands that only read (`cart show`, `orders`) still work\n"
        for (file, directory) in [(0o444, 0o755), (0o644, 0o555), (0o444, 0o555)] {
            try FileManager.default.setAttributes([.posixPermissions: file], ofItemAtPath: path)
            try FileManager.default.setAttributes([.posixPermissions: directory], ofItemAtPath: dir.path)
            defer {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
                try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            }
            let orders = try asOtherUser(["orders", "--format", "json", "--store", path])
            #expect(orders.status == 0, "\(orders.stderr)")
            #expect((try json(orders.stdout)["orders"] as? [Any])?.count == 1)
            let shown = try asOtherUser(["cart", "show", "--format", "json", "--store", path])
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(try json(shown.stdout)["total"] as? String == "20.00")
            for command in [["cart", "add", "MUG"], ["cart", "clear"], ["pay", "--card-stdin"]] {
                let run = try asOtherUser(command + ["--store", path], stdin: approvingCard)
                #expect(run.status == 74, "\(command)")
                #expect(run.stderr == message, "\(command)")
            }
        }
    }

    /// Runs `checkout` as a user who does not own the test's files: as `nobody` when the tests run
    /// as root (who may write anything), as ourselves otherwise.
    func asOtherUser(_ arguments: [String], stdin: String? = nil) throws -> Run {
        guard getuid() == 0 else { return try checkout(arguments, stdin: stdin) }
        return try start(
            ["--reuid=65534", "--regid=65534", "--clear-groups", checkoutBinary.path] + arguments, stdin: stdin,
            executable: URL(fileURLWithPath: "/usr/bin/setpriv")
        ).wait()
    }

    @Test("a change whose output cannot be written stays made, and the error says so (exit 74)")
    func outputFailsAfterChange() throws {
        let store = ["--store", try temporaryDirectory().appendingPathComponent("store.sqlite").path]
        let add = try toFullDisk(["cart", "add", "MUG"] + store)
        #expect(add.status == 74)
        #expect(
            add.stderr
                == "error: cannot write the output: No space left on device; the store was changed all the same: 1 × MUG added to the cart (running the command again would repeat it)\n"
        )
        let lines = try json(checkout(["cart", "show", "--format", "json"] + store).stdout)["lines"] as? [[String: Any]]
        #expect(lines?.first?["quantity"] as? Int == 1)
        let pay = try toFullDisk(["pay", "--card-stdin"] + store, stdin: approvingCard)
        #expect(pay.status == 74)
        #expect(
            pay.stderr.hasPrefix(
                "error: cannot write the output: No space left on device; the payment was made all the same: order #1, 7.50 €, card •••• 4242 (reference sim_"
            ))
        #expect(pay.stderr.hasSuffix(") is recorded; do not pay again.\n"))
        #expect(try checkout(["orders"] + store).stdout.hasPrefix("#1 "))
    }

    @Test("a change whose reader went away stays made: exit 141 as for any closed pipe, and standard error says so")
    func closedPipeAfterChange() throws {
        let store = try temporaryDirectory().appendingPathComponent("store.sqlite").path
        // The reader is gone before checkout writes: the shell reports checkout's status.
        func run(_ arguments: String, stdin: String = "") throws -> (status: String, stderr: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [
                "-c",
                "(sleep 0.3; '\(checkoutBinary.path)' \(arguments) --store '\(store)' 2>\"$ERR\" <<< \"$IN\") | true; echo \"${PIPESTATUS[0]}\""
            ]
            let err = try temporaryDirectory().appendingPathComponent("stderr")
            process.environment = ["ERR": err.path, "IN": stdin, "PATH": "/usr/bin:/bin"]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let status = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (status, String(decoding: try Data(contentsOf: err), as: UTF8.self))
        }
        let add = try run("cart add MUG")
        #expect(add.status == "141\n")
        #expect(
            add.stderr
                == "note: the store was changed all the same: 1 × MUG added to the cart (running the command again would repeat it)\n"
        )
        let pay = try run("pay --card-stdin", stdin: approvingCard)
        #expect(pay.status == "141\n")
        #expect(pay.stderr.hasPrefix("note: the payment was made all the same: order #1, 7.50 €, card •••• 4242"))
        #expect(try checkout(["orders", "--store", store]).stdout.hasPrefix("#1 "))
    }

    /// Runs `checkout` with standard output on /dev/full.
    func toFullDisk(_ arguments: [String], stdin: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = checkoutBinary
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        process.standardError = try FileHandle(forWritingTo: err)
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: "",
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}

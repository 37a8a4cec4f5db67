import Foundation
import GRDB
import Platform

/// Deciding whether a file is a Checkout store, and opening it. A file is looked at read-only
/// first — immutably when no process has it open in WAL mode, so that not even SQLite's shared
/// memory file is made next to a file we end up refusing (docs/store.md).
enum StoreFile {
    /// What a path holds, as far as the store is concerned.
    enum State: Equatable {
        /// No file: a new store.
        case missing
        /// An empty file, or an SQLite database without tables: ours to make a store of.
        case empty
        /// A store with every migration of this binary.
        case current
        /// A store from an older Checkout: some migrations to run.
        case older
    }

    /// Looks at `absolute` without writing anything: its kind, its header, its tables and its
    /// GRDB migrations. Throws for files we refuse.
    static func inspect(_ absolute: String, path: String) throws(StoreError) -> State {
        // SQLite opens a store by its text: a name whose bytes are not UTF-8 would be another file.
        if ArgumentText.isNotUTF8(path) {
            throw StoreError(
                .unusable, "\(path): a store's path must be UTF-8 (this one is not); give another --store path")
        }
        switch FileKind.of(path: absolute) {
        case nil: return .missing
        case .directory:
            throw StoreError(.notAStore, "\(path) is a directory, not a Checkout store; give another --store path")
        case .other:
            throw StoreError(
                .notAStore, "\(path) is not a regular file, so not a Checkout store; give another --store path")
        case .regular(let size) where size == 0: return .empty
        case .regular: break
        }
        let header: [UInt8]
        do {
            header = try FileSystem.prefix(of: absolute, count: 16)
        } catch {
            throw StoreError(.unusable, "cannot read the store at \(path): \(error)")
        }
        guard header == Array("SQLite format 3\u{0}".utf8) else {
            throw notAStore(path, "not an SQLite database")
        }
        let (tables, applied): ([String], Set<String>)
        do {
            (tables, applied) = try look(at: absolute)
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
        {
            throw notAStore(path, "not an SQLite database")
        } catch {
            throw StoreError(.unusable, "cannot read the store at \(path): \(error)")
        }
        // No tables, or only GRDB's list of migrations with none recorded yet: a store being made
        // (the migrator makes that table before its first migration's transaction).
        if tables.isEmpty || (tables == ["grdb_migrations"] && applied.isEmpty) { return .empty }
        guard tables.contains("grdb_migrations") else {
            let listed = tables.prefix(5).map { $0.escapedForStore }.joined(separator: ", ")
            throw notAStore(path, "an SQLite database of another application, with the tables \(listed)")
        }
        let known = Schema.identifiers
        guard applied.contains(where: known.contains) else {
            throw notAStore(path, "the database of another application that uses GRDB")
        }
        if let unknown = applied.filter({ !known.contains($0) }).sorted().last {
            throw StoreError(
                .newer,
                "the store at \(path) was written by a newer version of Checkout (its schema has the migration \"\(unknown.escapedForStore)\", which this version does not know); use that version or a newer one, or give another --store path. The store was left as it was"
            )
        }
        return known.allSatisfy(applied.contains) ? .current : .older
    }

    static func notAStore(_ path: String, _ what: String) -> StoreError {
        StoreError(
            .notAStore, "\(path) is not a Checkout store (\(what)); it was left as it was; give another --store path")
    }

    /// The tables of the database at `absolute` and the GRDB migrations it records, read-only.
    static func look(at absolute: String) throws -> (tables: [String], migrations: Set<String>) {
        let queue: DatabaseQueue
        if FileKind.of(path: absolute + "-wal") == nil, let immutable = try? openImmutable(absolute) {
            queue = immutable
        } else {
            queue = try DatabaseQueue(path: absolute, configuration: readOnlyConfiguration)
        }
        return try queue.read { db in
            let tables = try String.fetchAll(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
            )
            let migrations =
                tables.contains("grdb_migrations")
                ? try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
            return (tables, migrations)
        }
    }

    static var readOnlyConfiguration: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        return configuration
    }

    /// A connection that reads the file as it is and never writes or creates anything next to
    /// it (SQLite's `immutable` URI parameter). Only sound while no one writes the file.
    static func openImmutable(_ absolute: String) throws -> DatabaseQueue {
        var uri = "file:"
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                uri += "%" + String(byte, radix: 16, uppercase: true)
            default: uri.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        let queue = try DatabaseQueue(path: uri + "?immutable=1", configuration: readOnlyConfiguration)
        // A library built without URI file names would have opened a file named `file:…`: none exists.
        _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        return queue
    }

    /// A read-only connection to a current store. In a directory that cannot be written, where
    /// SQLite cannot make its shared-memory file, the file is read as it is: no one can be
    /// writing it there.
    static func openForReading(_ absolute: String, path: String) throws(StoreError) -> DatabaseQueue {
        do {
            let queue = try DatabaseQueue(path: absolute, configuration: readOnlyConfiguration)
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM cart_item") }
            return queue
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN
        {
            do {
                return try openImmutable(absolute)
            } catch {
                throw failure(error, path: path)
            }
        } catch {
            throw failure(error, path: path)
        }
    }

    /// An older store as this version reads it, the file untouched: opened for reading, copied
    /// into memory (SQLite's backup, a consistent snapshot) and the copy brought up to date.
    static func upgradedCopy(_ absolute: String, path: String) throws(StoreError) -> DatabaseQueue {
        let source = try openForReading(absolute, path: path)
        do {
            let copy = try DatabaseQueue()
            try source.backup(to: copy)
            try Schema.migrator.migrate(copy)
            return copy
        } catch {
            throw failure(error, path: path)
        }
    }

    /// A connection for a store we own (or a new one), in WAL mode, its schema brought up to
    /// date under a lock on `<store>.lock`, so that migrations run once when several processes
    /// open a new store together.
    static func openForWriting(_ absolute: String, path: String) throws(StoreError) -> DatabaseQueue {
        let lock: FileLock
        do {
            lock = try FileLock(path: absolute + ".lock")
        } catch {
            throw StoreError(.unusable, "cannot lock the store at \(path) (\(absolute).lock): \(error)")
        }
        // Another process may have made the store meanwhile: look again, under the lock.
        let state: State
        do {
            state = try inspect(absolute, path: path)
        } catch {
            lock.unlockRemovingFile()
            throw error
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            configuration.journalMode = .wal
            let queue = try DatabaseQueue(path: absolute, configuration: configuration)
            if state != .current { try Schema.migrator.migrate(queue) }
            lock.unlock()
            return queue
        } catch {
            lock.unlock()
            throw failure(error, path: path)
        }
    }

    /// Whether the store at `absolute` can be changed: the file (when there is one) and its
    /// directory (SQLite's journal goes there) writable.
    static func isWritable(_ absolute: String) -> Bool {
        let directory = (absolute as NSString).deletingLastPathComponent
        return (FileKind.of(path: absolute) == nil || FileSystem.isWritable(absolute))
            && FileSystem.isWritable(directory)
    }

    /// A database failure in words.
    static func failure(_ error: any Error, path: String) -> StoreError {
        guard let error = error as? DatabaseError else {
            return error as? StoreError ?? StoreError(.unusable, "the store at \(path) failed: \(error)")
        }
        switch error.resultCode {
        case .SQLITE_READONLY:
            return StoreError(
                .readOnly,
                "the store at \(path) is read-only (its file, its directory or its disk cannot be written): this command changes it; commands that only read (`cart show`, `orders`) still work"
            )
        case .SQLITE_FULL:
            return StoreError(.unusable, "the disk holding the store at \(path) is full: \(error.message ?? "")")
        case .SQLITE_NOTADB:
            return notAStore(path, "not an SQLite database")
        default:
            return StoreError(.unusable, "the store at \(path) failed: \(error.message ?? "\(error)")")
        }
    }
}

extension String {
    /// A name read from a file, as messages show it: control characters escaped, cut at 80 characters.
    var escapedForStore: String {
        var out = ""
        for (index, scalar) in unicodeScalars.enumerated() {
            if index == 80 {
                out += "…"
                break
            }
            switch scalar.value {
            case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029: out += "\\u{\(String(scalar.value, radix: 16))}"
            case 0x5C: out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

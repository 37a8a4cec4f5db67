import Foundation
import GRDB
import Platform
import Pricing
import Shopping

/// A store that cannot be opened or used, and why.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Missing directory, failing disk, a broken database.
        case unusable
        /// The file or its directory cannot be written, and the command would change the store.
        case readOnly
        /// Not a Checkout store: not SQLite, another application's database. Left as it was.
        case notAStore
        /// Written by a newer Checkout (migrations this one does not know). Left as it was.
        case newer
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// The cart, the orders and the simulated gateway's ledger, in one SQLite database (GRDB), behind
/// the ports of `Shopping`. Every change is one IMMEDIATE transaction that waits its turn while
/// another process writes, so concurrent invocations never lose an update (docs/store.md).
///
/// Whether a file is ours is decided before anything is written to it, by reading it read-only:
/// a file that is not a store, another application's database, and a store written by a newer
/// Checkout are refused unchanged (no journal mode switched, no lock file made).
public final class ShopDatabase {
    let queue: DatabaseQueue
    /// The path as given, for messages.
    public let path: String
    /// Where pending orders' locks live: `<store>-orders/<order id>.lock`.
    let holdsDirectory: String
    /// Opened for reading only: writes are refused with words.
    public let isReadOnly: Bool
    /// Whether the store was written by an older Checkout and is read through a copy in memory
    /// brought up to date (``Access/readUnchanged``): reading it so costs more each time than
    /// once its file is upgraded.
    public private(set) var readsUpgradedCopy = false
    /// The pending orders this process holds, by id (``OrderBook``).
    var holds: [String: FileLock] = [:]
    /// Whose cart the cart operations and new orders are: a customer's id, nil for the store's
    /// anonymous customer (docs/store.md, "Customers").
    public var customer: String?

    /// What the command does with the store.
    public enum Access: Sendable {
        /// Only reads: works on a read-only store, and creates nothing (a missing store reads as empty).
        case read
        /// Only reads, and never writes even to bring an older store up to date: such a store is read
        /// through a copy in memory brought up to date, the file left exactly as it was (`price
        /// --store`, which records nothing).
        case readUnchanged
        /// Changes it: creates it when missing.
        case write
    }

    /// Opens the store at `path`, relative or absolute. A missing directory is created only with
    /// `createDirectory` (the default location), and only for writing; otherwise it is an error
    /// naming it. Brings an older store's schema up to date (even for reading, when it can be written).
    public init(path: String, access: Access = .write, createDirectory: Bool = false) throws(StoreError) {
        // Resolved: a store reached by two names (a symbolic link, `..`) must have one set of
        // locks, or a payment under way through one name looks interrupted through the other.
        let absolute = FileSystem.resolved(path)
        self.path = path
        holdsDirectory = absolute + "-orders"
        let directory = (absolute as NSString).deletingLastPathComponent
        switch FileKind.of(path: directory) {
        case .directory: break
        case nil where createDirectory && access == .read:
            // Nothing stored yet, and reading creates nothing.
            (queue, isReadOnly) = (try ShopDatabase.emptyStore(path), true)
            return
        case nil where createDirectory:
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError(
                    .unusable,
                    "cannot create the directory \(directory) for the store: \(error.localizedDescription)")
            }
        case nil:
            throw StoreError(
                .unusable,
                "cannot open the store at \(path): the directory \(directory) does not exist; create it first")
        default:
            throw StoreError(.unusable, "cannot open the store at \(path): \(directory) is not a directory")
        }
        // Whose file is it? Decided reading only, before anything may write.
        let state = try StoreFile.inspect(absolute, path: path)
        switch (state, access) {
        case (.missing, .read), (.empty, .read), (.missing, .readUnchanged), (.empty, .readUnchanged):
            (queue, isReadOnly) = (try ShopDatabase.emptyStore(path), true)
        case (.current, .read), (.current, .readUnchanged):
            (queue, isReadOnly) = (try StoreFile.openForReading(absolute, path: path), true)
        case (.older, .readUnchanged):
            (queue, isReadOnly) = (try StoreFile.upgradedCopy(absolute, path: path), true)
            readsUpgradedCopy = true
        case (.older, .read) where !StoreFile.isWritable(absolute):
            throw StoreError(
                .readOnly,
                "the store at \(path) was written by an older Checkout and needs an upgrade, which a read-only store cannot take; make it writable and run the command again"
            )
        default:
            if !StoreFile.isWritable(absolute) {
                throw StoreError(
                    .readOnly,
                    "the store at \(path) is read-only (its file or directory cannot be written): this command changes it; commands that only read (`cart show`, `orders`) still work"
                )
            }
            (queue, isReadOnly) = (try StoreFile.openForWriting(absolute, path: path), false)
        }
    }

    /// Opens an existing store for reading its ledger (`price --store`): a path that holds no
    /// store — no file, an empty one, anything that is not a Checkout store — is refused
    /// (``StoreError/Kind/notAStore``) and nothing is created.
    public static func existing(path: String) throws(StoreError) -> ShopDatabase {
        let absolute = FileSystem.resolved(path)
        switch try StoreFile.inspect(absolute, path: path) {
        case .missing:
            throw StoreError(.notAStore, "there is no store at \(path) (no such file); give the path of a store")
        case .empty:
            throw StoreError(.notAStore, "\(path) is not a Checkout store (an empty file); give the path of a store")
        case .current, .older:
            return try ShopDatabase(path: path, access: .readUnchanged)
        }
    }

    deinit {
        // Orders still held become interrupted, as when the process ends.
        for hold in holds.values { hold.unlock() }
    }

    /// An empty store in memory, for reading a store that does not exist yet.
    static func emptyStore(_ path: String) throws(StoreError) -> DatabaseQueue {
        do {
            let queue = try DatabaseQueue()
            try Schema.migrator.migrate(queue)
            return queue
        } catch {
            throw StoreError(.unusable, "cannot open the store at \(path): \(error)")
        }
    }

    /// `--store`, else `$CHECKOUT_STORE`, else `$XDG_DATA_HOME/checkout/store.sqlite`, else
    /// `~/.local/share/checkout/store.sqlite`; and whether it is the default location (whose
    /// directory is created when missing).
    public static func location(option: String?, environment: [String: String]) -> (path: String, isDefault: Bool) {
        if let option { return (option, false) }
        if let path = environment["CHECKOUT_STORE"], !path.isEmpty { return (path, false) }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return (data + "/checkout/store.sqlite", true) }
        return ((environment["HOME"] ?? ".") + "/.local/share/checkout/store.sqlite", true)
    }

    /// One write transaction that takes the write lock at once (IMMEDIATE) and waits while another
    /// process holds it. Errors of `body` other than the database's pass through unchanged.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        guard !isReadOnly else {
            throw StoreError(.readOnly, "the store at \(path) was opened for reading only")
        }
        do {
            var result: T?
            try queue.inTransaction(.immediate) { db in
                result = try body(db)
                return .commit
            }
            return result!
        } catch let error as DatabaseError {
            throw StoreFile.failure(error, path: path)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(body)
        } catch let error as DatabaseError {
            throw StoreFile.failure(error, path: path)
        }
    }
}

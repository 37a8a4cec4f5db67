import Synchronization

// The one file that talks to the C library: file descriptors (EINTR retried, errno typed), memory
// mapping, clocks, the processor count, terminals and signals. Every other module calls these.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    #error("Checkout runs on Linux (glibc or musl).")
#endif

/// A failed system call: its errno and the C library's words for it.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// The error of the last failed call on this thread.
    static var last: SystemError { SystemError(code: errno) }

    public var description: String {
        code == Self.ambiguousName.code
            ? "two names given read as this same text (their bytes are not UTF-8), so it names no one file; rename one of the files"
            : String(cString: strerror(code))
    }

    /// A path whose text two given names read as (docs/safety.md): not an errno.
    static let ambiguousName = SystemError(code: -1)

    /// A write to a pipe (or socket) whose reader is gone: EPIPE.
    public var isBrokenPipe: Bool { code == EPIPE }
}

/// An open file descriptor. Reads and writes retry when interrupted by a signal.
public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// Opens `path` read-only (close-on-exec).
    public static func open(forReading path: String) throws(SystemError) -> FileDescriptor {
        guard let fd = SystemPath.withBytes(of: path, { Glibc.open($0, O_RDONLY | O_CLOEXEC) }) else {
            throw SystemError.ambiguousName
        }
        guard fd >= 0 else { throw .last }
        return FileDescriptor(rawValue: fd)
    }

    /// Creates or truncates `path` for writing (mode 0644).
    public static func create(_ path: String) throws(SystemError) -> FileDescriptor {
        guard
            let fd = SystemPath.withBytes(of: path, { Glibc.open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) })
        else { throw SystemError.ambiguousName }
        guard fd >= 0 else { throw .last }
        return FileDescriptor(rawValue: fd)
    }

    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let count = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw .last }
        }
    }

    /// Reads up to `buffer.count` bytes from `offset` on, leaving the file position alone (so that
    /// threads may read one descriptor at once); 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemError) -> Int {
        while true {
            let count = pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset))
            if count >= 0 { return count }
            if errno != EINTR { throw .last }
        }
    }

    /// Writes all of `bytes`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw .last
            }
            offset += written
        }
    }

    /// What the descriptor refers to, when the system says.
    public func kind() -> FileKind? {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { return nil }
        return FileKind(info)
    }

    /// Whether it is a terminal.
    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// The terminal's width in columns, when it is one.
    public var terminalColumns: Int? {
        var size = winsize()
        guard ioctl(rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Turns the terminal's echo of typed characters off or back on; false when it is not a terminal.
    /// While it is off, SIGINT, SIGTERM, SIGHUP and SIGQUIT (Ctrl-C at a prompt) turn it back on
    /// before the signal ends the process as it would have.
    @discardableResult
    public func setEcho(_ on: Bool) -> Bool {
        var settings = termios()
        guard tcgetattr(rawValue, &settings) == 0 else { return false }
        if on {
            settings.c_lflag |= tcflag_t(ECHO)
        } else {
            EchoRestorer.arm(fd: rawValue, settings: settings)
            settings.c_lflag &= ~tcflag_t(ECHO)
        }
        let done = tcsetattr(rawValue, TCSANOW, &settings) == 0
        if on { EchoRestorer.disarm() }
        return done
    }
}

/// Files by path.
public enum FileSystem {
    /// Creates the directory `path` (mode 0755); an existing directory is fine.
    public static func makeDirectory(_ path: String) throws(SystemError) {
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw .last }
    }

    /// Writes `bytes` to `path`, replacing what it held.
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let fd = try FileDescriptor.create(path)
        defer { fd.close() }
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            do { try fd.writeAll(raw) } catch let error as SystemError { failure = error } catch {}
        }
        if let failure { throw failure }
    }

    /// `path` made absolute with its symbolic links resolved, so that every name of one file gives
    /// one path (files named after it, such as locks, are then one file too). For a file not there
    /// yet: its directory resolved and its name kept — or, for a link to a file not there yet, where
    /// the link points, resolved the same way. As given, made absolute, when even the directory
    /// cannot be resolved.
    public static func resolved(_ path: String) -> String {
        var path = path
        // Links to links, up to the C library's own limit of 40.
        for _ in 0..<40 {
            if let full = realpath(path, nil) {
                defer { free(full) }
                return String(cString: full)
            }
            let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
            let slash = absolute.lastIndex(of: "/")!
            let directory = slash == absolute.startIndex ? "/" : String(absolute[..<slash])
            let name = String(absolute[absolute.index(after: slash)...])
            // A link whose target is not there yet: where it points.
            if let target = linkTarget(absolute) {
                path = target.hasPrefix("/") ? target : directory + "/" + target
                continue
            }
            guard let resolvedDirectory = realpath(directory, nil) else { return absolute }
            defer { free(resolvedDirectory) }
            let parent = String(cString: resolvedDirectory)
            return (parent == "/" ? "" : parent) + "/" + name
        }
        return path
    }

    /// The current directory, or `/` when it cannot be read.
    private static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// What the symbolic link `path` holds; nil when `path` is not a link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes the file `path`, if there is one.
    public static func remove(_ path: String) {
        unlink(path)
    }

    /// Whether this process may write to `path` (a file, or a directory: create files in it). A
    /// missing path is not writable.
    public static func isWritable(_ path: String) -> Bool {
        SystemPath.withBytes(of: path) { access($0, W_OK) } == 0
    }

    /// The first `count` bytes of the file `path` (fewer when it is shorter).
    public static func prefix(of path: String, count: Int) throws(SystemError) -> [UInt8] {
        let fd = try FileDescriptor.open(forReading: path)
        defer { fd.close() }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        var failure: SystemError?
        bytes.withUnsafeMutableBytes { raw in
            while filled < count {
                do {
                    let read = try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                    if read == 0 { break }
                    filled += read
                } catch let error as SystemError {
                    failure = error
                    break
                } catch {}
            }
        }
        if let failure { throw failure }
        return Array(bytes[..<filled])
    }

    /// The names in the directory `path` (not `.` and `..`); empty when it cannot be read.
    public static func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// An exclusive advisory lock on a file (`flock`), created when missing. The kernel releases it
/// when the process ends, however it ends (kill -9 included): a lock that can be taken tells that
/// whoever held it is gone, without trusting a process id or an age.
public struct FileLock {
    private let fd: FileDescriptor
    /// The path locked.
    public let path: String

    /// Waits until the lock on `path` is held.
    public init(path: String) throws(SystemError) {
        guard let lock = try FileLock(path: path, wait: true) else { throw SystemError(code: EWOULDBLOCK) }
        self = lock
    }

    /// Takes the lock on `path` if no one holds it: nil when another open file (in this process
    /// or another) holds it; waits for it with `wait`.
    ///
    /// A lock's file may be removed by its holder (``unlockRemovingFile()``) while another process
    /// opens it: a lock taken on a file no longer at `path` is let go and taken again on the file
    /// that is there now, so that two holders never hold two files of one path.
    public init?(path: String, wait: Bool) throws(SystemError) {
        while true {
            let raw = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard raw >= 0 else { throw .last }
            while flock(raw, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                if code == EINTR { continue }
                _ = Glibc.close(raw)
                if code == EWOULDBLOCK { return nil }
                throw SystemError(code: code)
            }
            var held = stat()
            var there = stat()
            if fstat(raw, &held) == 0, stat(path, &there) == 0, held.st_ino == there.st_ino, held.st_dev == there.st_dev
            {
                fd = FileDescriptor(rawValue: raw)
                self.path = path
                return
            }
            _ = Glibc.close(raw)  // removed meanwhile: lock the file at `path` now
        }
    }

    public func unlock() {
        flock(fd.rawValue, LOCK_UN)
        fd.close()
    }

    /// Whether a process holds the lock on `path` now, asked without taking it for longer than
    /// the asking (a shared lock, let go at once) and without making the file: no file, no holder.
    public static func isHeld(_ path: String) throws(SystemError) -> Bool {
        let raw = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard raw >= 0 else {
            if errno == ENOENT { return false }
            throw .last
        }
        defer { _ = Glibc.close(raw) }
        while flock(raw, LOCK_SH | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK { return true }
            throw SystemError(code: code)
        }
        flock(raw, LOCK_UN)
        return false
    }

    /// Removes the lock's file, then lets the lock go: whoever opens the path next makes a new file.
    public func unlockRemovingFile() {
        unlink(path)
        unlock()
    }
}

/// The first `byte` in `start..<end`, found by the C library's vectorized search.
@inline(__always)
public func findByte(_ byte: UInt8, from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>) -> UnsafePointer<
    UInt8
>? {
    guard start < end, let found = memchr(start, Int32(byte), end - start) else { return nil }
    return UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
}

/// What a path or descriptor refers to.
public enum FileKind: Sendable, Equatable {
    case regular(size: Int)
    case directory
    /// A pipe, a terminal, a device…
    case other

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular(size: Int(info.st_size))
        case S_IFDIR: self = .directory
        default: self = .other
        }
    }

    /// What `path` refers to, following links; nil when it does not exist.
    public static func of(path: String) -> FileKind? {
        var info = stat()
        guard SystemPath.withBytes(of: path, { stat($0, &info) }) == 0 else { return nil }
        return FileKind(info)
    }
}

/// A file mapped read-only into memory, unmapped by `unmap()`.
///
/// A mapped file that another program shortens while it is read (log rotation's copytruncate)
/// makes reading past its new end raise SIGBUS. That signal is caught: the process says which file
/// changed on standard error and exits with status 74, rather than dying without a word with part
/// of its output written.
public struct MappedFile {
    public let bytes: UnsafeBufferPointer<UInt8>

    /// Maps the first `size` bytes of `fd`, or nil when the system refuses. Pages are mapped as the
    /// threads that touch them first read them, not up front by this one: two threads reading
    /// halves of a file map their halves at once. `name` names the file if it is truncated meanwhile.
    public init?(_ fd: FileDescriptor, size: Int, name: String = "an input file") {
        guard size > 0, let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd.rawValue, 0),
            mapping != MAP_FAILED
        else {
            return nil
        }
        bytes = UnsafeBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: size)
        TruncatedMapping.watch(name)
    }

    public func unmap() {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// Lets the system drop the pages wholly before `offset` from this process's memory: they are
    /// read again from the file if touched. Keeps a long pass over a large file from holding it all.
    /// Only for a file's mapping: anonymous memory would read back as zeros.
    public func release(before offset: Int) {
        release(0..<offset)
    }

    /// As ``release(before:)``, for the pages wholly inside `range`: for threads each reading a part.
    public func release(_ range: Range<Int>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (max(range.lowerBound, 0) + page - 1) / page * page
        let end = min(range.upperBound, bytes.count) / page * page
        guard end > start else { return }
        madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress! + start), end - start, MADV_DONTNEED)
    }
}

/// A program run to its end from this one, for measuring it.
public enum ChildProcess {
    /// How a run ended and what it cost.
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// Wall-clock seconds from start to end.
        public var seconds: Double
        /// The largest resident memory it reached, in kilobytes.
        public var peakKilobytes: Int
    }

    /// This program's own executable.
    public static func currentExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs `path` with `arguments` (not including its name), standard input on /dev/null, standard
    /// output and error into the files `output` and `errors` (replaced), and waits for it.
    ///
    /// The peak memory is the kernel's: it keeps the largest of the child's and of this process's
    /// peak when the child was started, so measure from a process that stayed small.
    public static func run(
        _ path: String, arguments: [String], output: String = "/dev/null", errors: String = "/dev/null"
    ) throws(SystemError) -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([path] + arguments).map { strdup($0) }
        defer { for arg in argv { free(arg) } }
        var pid = pid_t()
        let start = Machine.monotonicNanoseconds()
        let spawned = (argv + [nil]).withUnsafeBufferPointer { argv in
            posix_spawn(&pid, path, &actions, nil, argv.baseAddress!, environ)
        }
        guard spawned == 0 else { throw SystemError(code: spawned) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw .last }
        }
        let seconds = Double(Machine.monotonicNanoseconds() - start) / 1e9
        let signal = status & 0x7f
        return Outcome(
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, seconds: seconds,
            peakKilobytes: Int(usage.ru_maxrss))
    }
}

/// The base-10 logarithm of `value`.
public func decimalLogarithm(_ value: Double) -> Double {
    log10(value)
}

/// The machine.
public enum Machine {
    /// Lets another thread run.
    public static func yield() {
        sched_yield()
    }

    /// Sleeps this thread for `seconds`.
    public static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Processors online, read once.
    public static let processorCount = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// The wall clock: seconds and nanoseconds since 1970-01-01T00:00:00Z.
    public static func wallClock() -> (seconds: Int64, nanoseconds: Int32) {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return (Int64(spec.tv_sec), Int32(spec.tv_nsec))
    }

    /// A monotonic clock, in nanoseconds, for measuring durations.
    public static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// CPU time used by every thread of this process, in nanoseconds.
    public static func processCPUNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Ends the process with `status`, output streams flushed by their owners beforehand.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Ends the process with `status` at once, from any thread, running no exit handlers: for when
    /// there is nothing left to say (the reader of the output has gone).
    public static func exitNow(_ status: Int32) -> Never {
        Glibc._exit(status)
    }

    /// The value of an environment variable.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Stops the process from dying of SIGPIPE: a write to a closed pipe fails with EPIPE instead.
    public static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// Turns the SIGBUS of reading a mapped file past its end, after someone truncated it, into a
/// message and exit status 74. The handler only writes a message prepared beforehand and exits
/// (both safe in a signal handler).
enum TruncatedMapping {
    /// The message, as a C string; replaced (never freed: a handler may be reading it) by each mapping.
    nonisolated(unsafe) static var message: UnsafeMutablePointer<CChar>? = nil
    /// Whether a thread has begun to report it: workers reading the file on several cores can fault
    /// at once, and the message is said once. Made before any mapping is read (a handler must not
    /// be the first to touch a lazily made value).
    static let reported = Atomic<Bool>(false)
    static let installed: Bool = {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            // The first thread to fault writes the message and ends the process; any other waits for
            // that (returning would fault again).
            if TruncatedMapping.reported.exchange(true, ordering: .acquiringAndReleasing) {
                while true { pause() }
            }
            if let message = TruncatedMapping.message { _ = write(STDERR_FILENO, message, strlen(message)) }
            _exit(74)
        }
        sigemptyset(&action.sa_mask)
        return sigaction(SIGBUS, &action, nil) == 0
    }()

    /// Names `file` in the message, and makes sure the handler is in place.
    static func watch(_ file: String) {
        var shown = ""
        for scalar in file.unicodeScalars.prefix(200) {
            switch scalar.value {
            case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029: shown += "\\u{\(String(scalar.value, radix: 16))}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        if file.unicodeScalars.count > 200 { shown += "…" }
        let text =
            "error: \(shown): the file was truncated while being read (another program changed it); the output is incomplete\n"
        message = strdup(text)
        _ = reported.load(ordering: .relaxed)
        _ = installed
    }
}

/// Puts a terminal's settings back when a signal ends the process while echo is off.
enum EchoRestorer {
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var settings = termios()
    static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    static func arm(fd: Int32, settings: termios) {
        self.settings = settings
        self.fd = fd
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if EchoRestorer.fd >= 0 { _ = tcsetattr(EchoRestorer.fd, TCSANOW, &EchoRestorer.settings) }
                // Then end as the signal would have: the shell sees the same status.
                signal(number, SIG_DFL)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    static func disarm() {
        fd = -1
        for number in signals { signal(number, SIG_DFL) }
    }
}

/// The command line's texts as given, in bytes.
public enum ArgumentText {
    /// Whether `text` came from an argument (or a `CHECKOUT_…` variable) whose bytes are not UTF-8:
    /// U+FFFD stands in its text for bytes it does not carry. For a path opened through another
    /// library (SQLite), which would open another file by the text, and for values compared byte
    /// for byte, such as customer ids, which other arguments may read as.
    public static func isNotUTF8(_ text: String) -> Bool { SystemPath.isNotUTF8(text) }
}

/// A path as the system names it. Linux file names are bytes; the arguments reach Swift as text, in
/// which bytes that are not UTF-8 became U+FFFD — another name, of a file that is not there. So the
/// arguments (and the values of `-o=value` and `--option=value` ones, and of `CHECKOUT_…`
/// variables) whose text has U+FFFD are kept with their bytes, and a path given as one of them is
/// opened by its bytes (docs/safety.md). When two of them have one text but not the same bytes,
/// that text names no file: opening it fails (``SystemError/ambiguousName``) rather than reading
/// the other file.
enum SystemPath {
    private enum Bytes {
        case one([CChar])
        case several
    }

    /// Each such text (by its bytes: no Unicode equivalence), and the bytes it came from.
    private static let table: [[UInt8]: Bytes] = {
        var table: [[UInt8]: Bytes] = [:]
        func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
            let text = Array(String(decoding: bytes, as: UTF8.self).utf8)
            // U+FFFD, in UTF-8: EF BF BD. A name that is UTF-8 and has it is kept too, so that
            // another name read as the same text is known to be ambiguous.
            guard text.firstRange(of: [0xEF, 0xBF, 0xBD]) != nil else { return }
            let raw = bytes.map { CChar(bitPattern: $0) } + [0]
            switch table[text] {
            case nil: table[text] = .one(raw)
            case .one(let other) where other == raw: break
            default: table[text] = .several
            }
        }
        func keepWithValue(_ bytes: UnsafeBufferPointer<UInt8>) {
            keep(bytes)
            if bytes.first == UInt8(ascii: "-"), let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                keep(UnsafeBufferPointer(rebasing: bytes[(equals + 1)...]))
            }
        }
        func bytes(_ text: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
        }
        for index in 0..<Int(CommandLine.argc) {
            if let argument = CommandLine.unsafeArgv[index] { keepWithValue(bytes(argument)) }
        }
        var variable = environ
        while let entry = variable.pointee {
            let all = bytes(entry)
            if all.starts(with: "CHECKOUT_".utf8), let equals = all.firstIndex(of: UInt8(ascii: "=")) {
                keep(UnsafeBufferPointer(rebasing: all[(equals + 1)...]))
            }
            variable += 1
        }
        return table
    }()

    /// Calls `body` with `path` as the system should be given it: the bytes it was read from when
    /// it is such an argument or variable, else its own; nil when two names share its text.
    static func withBytes<R>(of path: String, _ body: (UnsafePointer<CChar>) -> R) -> R? {
        switch kept(path) {
        case nil: return path.withCString(body)
        case .one(let bytes): return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
        case .several: return nil
        }
    }

    /// Whether `path` was read from bytes that are not UTF-8 (its text is not its name).
    static func isNotUTF8(_ path: String) -> Bool {
        switch kept(path) {
        case nil: return false
        case .one(let bytes): return !bytes.dropLast().map { UInt8(bitPattern: $0) }.elementsEqual(path.utf8)
        case .several: return true
        }
    }

    /// The bytes the table keeps for `path`'s text; nil when it is none of those arguments and
    /// variables (a text without the byte EF, U+FFFD's first, is not looked up).
    private static func kept(_ path: String) -> Bytes? {
        guard !table.isEmpty, path.utf8.contains(0xEF) else { return nil }
        return table[Array(path.utf8)]
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading whole input files (or stdin, named `-`), with the errors users need.
public enum FileBytes {
    /// Reads the file at `path`, or standard input for `-` (named `<stdin>` in messages), refusing
    /// more than `limit` bytes.
    public static func read(_ path: String, limit: Int = 1 << 30) throws(InputError) -> [UInt8] {
        let name = path == "-" ? "<stdin>" : path
        let fd: Int32
        if path == "-" {
            fd = STDIN_FILENO
        } else {
            fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw InputError(.unreadable, file: path, "cannot open: \(systemError(errno))") }
        }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var info = stat()
        var bytes: [UInt8] = []
        if fstat(fd, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw InputError(.unreadable, file: name, "cannot read: is a directory") }
            if (info.st_mode & S_IFMT) == S_IFREG {
                guard Int(info.st_size) <= limit else { throw tooLarge(name, limit) }
                bytes.reserveCapacity(Int(info.st_size))
            }
        }
        let chunk = 1 << 16
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let count = bytes.withUnsafeMutableBufferPointer { Glibc.read(fd, $0.baseAddress! + start, chunk) }
            if count < 0 {
                bytes.removeLast(chunk)
                if errno == EINTR { continue }
                throw InputError(.unreadable, file: name, "cannot read: \(systemError(errno))")
            }
            bytes.removeLast(chunk - count)
            if count == 0 { return bytes }
            if bytes.count > limit { throw tooLarge(name, limit) }
        }
    }

    static func tooLarge(_ name: String, _ limit: Int) -> InputError {
        InputError(.invalid, file: name, "the file is larger than the limit of \(limit) bytes")
    }

    /// Calls `body` with the whole content of `path` (standard input for `-`). A regular file is
    /// mapped into memory rather than copied: a large cart is scanned straight from the page cache.
    public static func withContents<R>(_ path: String, limit: Int = 1 << 30, _ body: (UnsafeBufferPointer<UInt8>) -> R) throws(InputError) -> R {
        let (fd, size) = try open(path)
        defer { if fd != STDIN_FILENO { close(fd) } }
        if let size, size > 0 {
            guard size <= limit else { throw tooLarge(path, limit) }
            if let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), mapping != MAP_FAILED {
                defer { munmap(mapping, size) }
                return body(UnsafeBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: size))
            }
        }
        let bytes = try read(path, limit: limit)
        return bytes.withUnsafeBufferPointer(body)
    }

    /// Opens `path` for reading (standard input for `-`), for streaming. The caller closes it.
    /// Returns the descriptor and the file's size when it is a regular file.
    public static func open(_ path: String) throws(InputError) -> (fd: Int32, size: Int?) {
        if path == "-" { return (STDIN_FILENO, nil) }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(.unreadable, file: path, "cannot open: \(systemError(errno))") }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return (fd, nil) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw InputError(.unreadable, file: path, "cannot read: is a directory")
        }
        return (fd, (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil)
    }

    /// Whether `path` names an existing regular file.
    public static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}

func systemError(_ code: Int32) -> String {
    String(cString: strerror(code))
}

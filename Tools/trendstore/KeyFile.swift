import ArgumentParser
import Foundation
import TrendStore

/// The `--key-file` option of every command that opens a store: a key is read from a file,
/// never taken as a command-line value (which `ps` shows to every user).
struct KeyFileOption: ParsableArguments {
    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "The file holding the store's encryption key: 32 raw bytes or 64 hexadecimal characters (default: $TRENDSTORE_KEY_FILE).",
            valueName: "path"))
    var keyFile: String?

    /// The path of the key file: `--key-file`, else `$TRENDSTORE_KEY_FILE`, else none.
    var path: String? {
        if let keyFile { return keyFile }
        let fromEnvironment = ProcessInfo.processInfo.environment["TRENDSTORE_KEY_FILE"]
        return fromEnvironment?.isEmpty == false ? fromEnvironment : nil
    }

    /// Sets `options.encryptionKey` to the key the file holds; no key when no file is named.
    ///
    /// - Throws: ``CommandFailure`` naming the file when it cannot be read or holds no key,
    ///   or when this build has no encryption.
    func apply(to options: inout StoreOptions) throws {
        guard let path else { return }
        #if Encryption
            options.encryptionKey = try KeyFile.read(path)
        #else
            throw CommandFailure(
                "key file \(path): this build of trendstore has no encryption (package trait Encryption)"
            )
        #endif
    }

    /// Sets `options.encryptionKey` to a new random key when a key file is named: for a
    /// temporary store that must not hold an encrypted store's data in the clear.
    func applyThrowaway(to options: inout StoreOptions) {
        #if Encryption
            if path != nil { options.encryptionKey = .random() }
        #endif
    }
}

#if Encryption

    /// Reading and writing key files.
    enum KeyFile {
        /// The key in the file at `path`: its 32 bytes, or 64 hexadecimal characters (with
        /// surrounding white space). At most 4 KiB are read, whatever the file (a link to a
        /// large file, a device); a file that group or others may read is used with a
        /// warning on standard error, as ssh warns of a private key.
        ///
        /// - Throws: ``CommandFailure`` naming the file when it cannot be read (with the
        ///   system's reason) or holds no key.
        static func read(_ path: String) throws -> EncryptionKey {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else {
                throw CommandFailure("key file \(path): \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            // The opened file itself, not the name: a link is stated where it leads.
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                throw CommandFailure("key file \(path): \(String(cString: strerror(errno)))")
            }
            guard (status.st_mode & S_IFMT) == S_IFREG else {
                throw CommandFailure("key file \(path): not a regular file")
            }
            if status.st_mode & 0o077 != 0 {
                FileHandle.standardError.write(
                    Data(
                        "trendstore: warning: key file \(path) may be read by other users (mode \(String(status.st_mode & 0o777, radix: 8))); chmod 600 it\n"
                            .utf8))
            }
            let limit = 4_096
            let data: Data?
            do {
                data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
                    .read(upToCount: limit + 1)
            } catch {
                throw CommandFailure("key file \(path): \(error.localizedDescription)")
            }
            let bytes = [UInt8](data ?? Data())
            guard bytes.count <= limit else {
                throw CommandFailure("key file \(path): not a key (larger than \(limit) bytes)")
            }
            if bytes.count == 32 { return try EncryptionKey(rawBytes: bytes) }
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            guard text.utf8.count == 64, let decoded = hexBytes(text) else {
                throw CommandFailure(
                    "key file \(path): not a key (it holds \(bytes.count) bytes; a key is 32 raw bytes or 64 hexadecimal characters)"
                )
            }
            return try EncryptionKey(rawBytes: decoded)
        }

        /// Writes a new random key to `path` as 64 hexadecimal characters, with mode 0600,
        /// refusing to overwrite a file there.
        ///
        /// - Throws: ``CommandFailure`` naming the file when it exists or cannot be written.
        static func create(_ path: String) throws {
            let key = EncryptionKey.random()
            let hex = key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() } ?? ""
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw CommandFailure("key file \(path): \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            let bytes = Array((hex + "\n").utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count, fsync(descriptor) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(path)
                throw CommandFailure("key file \(path): \(reason)")
            }
        }

        /// The bytes of an even-length hexadecimal text, or `nil` when it is not one.
        private static func hexBytes(_ text: String) -> [UInt8]? {
            let digits = Array(text.utf8)
            guard digits.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1])
                else {
                    return nil
                }
                bytes.append(high << 4 | low)
            }
            return bytes
        }

        private static func hexValue(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
    }

    /// `trendstore keygen`: writes a new random key file.
    struct KeygenCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Write a new random encryption key to a file (mode 0600); never overwrites.")

        @Option(help: ArgumentHelp("The key file to create.", valueName: "path"))
        var out: String

        func run() async throws {
            try await reportingErrors {
                try KeyFile.create(out)
                print(
                    "wrote a new key to \(out); keep it safe: without it the store cannot be read")
            }
        }
    }
#endif

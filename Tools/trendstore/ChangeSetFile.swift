import Foundation
import TrendStore

/// Change-set files of `trendstore changes` and `apply`: an encrypted store's are sealed with
/// its key, so the file (and whatever relays it) shows only its size.
enum ChangeSetFile {
    /// The bytes of `changes` for a file: sealed with the key `key` names when it names one
    /// (the key of the encrypted store they come from), else as they are.
    static func bytes(of changes: ChangeSet, key: KeyFileOption) throws -> Data {
        guard let path = key.path else { return try changes.encoded() }
        #if Encryption
            return try changes.encoded(sealedWith: try KeyFile.read(path))
        #else
            throw CommandFailure(
                "key file \(path): this build of trendstore has no encryption (package trait Encryption)"
            )
        #endif
    }

    /// The change set of `file`: a sealed one opened with the key `key` names.
    ///
    /// - Throws: ``CommandFailure`` naming the file when it cannot be read, is sealed and no
    ///   key is named, or holds no change set that opens.
    static func read(_ file: String, key: KeyFileOption) throws -> ChangeSet {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure("\(file): \((error as NSError).localizedDescription)")
        }
        do {
            #if Encryption
                if ChangeSet.isSealed(data) {
                    guard let path = key.path else {
                        throw CommandFailure(
                            "\(file): sealed with a store's key; name it with --key-file")
                    }
                    return try ChangeSet(encoded: data, key: try KeyFile.read(path))
                }
            #endif
            return try ChangeSet(encoded: data)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("\(file): \(error)")
        }
    }
}

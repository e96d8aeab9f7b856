import Foundation

/// One tag read by ``XMLTagScanner``: its name and attributes, as bytes copied out of the stream.
struct XMLTag {
    /// The element name: the very array the scanner was given in its `interesting` names.
    var name: [UInt8] = []
    /// Whether this is an end tag (`</Workout>`).
    var isEnd = false
    /// Whether the tag closes itself (`<Record …/>`).
    var isSelfClosing = false
    /// The line the tag starts on, 1-based.
    var line = 0
    /// The bytes after the name, copied once; attribute names and values are ranges into them.
    fileprivate var storage: [UInt8] = []
    fileprivate var attributes: [(name: Range<Int>, value: Range<Int>)] = []

    /// Calls `body` with the bytes of attribute `name`, XML's predefined and numeric
    /// entities decoded (so a value is parsed as its messages show it), or returns `nil`
    /// when it is absent.
    func withAttribute<R>(_ name: [UInt8], _ body: (UnsafeRawBufferPointer) -> R?) -> R? {
        withRawAttribute(name) { raw in
            guard let start = raw.baseAddress, memchr(start, 0x26, raw.count) != nil else {
                return body(raw)
            }
            let decoded = Array(XMLEntities.decode(String(decoding: raw, as: UTF8.self)).utf8)
            return decoded.withUnsafeBytes(body)
        }
    }

    /// Calls `body` with the bytes of attribute `name` as they stand in the file, entities
    /// not decoded, or returns `nil` when it is absent: for a value only part of which is read.
    func withRawAttribute<R>(_ name: [UInt8], _ body: (UnsafeRawBufferPointer) -> R?) -> R? {
        storage.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return nil }
            for attribute in attributes
            where attribute.name.count == name.count
                && ByteSearch.matches(name, at: base + attribute.name.lowerBound)
            {
                return body(UnsafeRawBufferPointer(rebasing: bytes[attribute.value]))
            }
            return nil
        }
    }

    /// Attribute `name` as a string, its entities decoded.
    func string(_ name: [UInt8]) -> String? {
        withAttribute(name) { String(decoding: $0, as: UTF8.self) }
    }
}

/// Decodes XML's five predefined entities and numeric character references; leaves others as they are.
enum XMLEntities {
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";"),
                rest.distance(from: ampersand, to: semicolon) <= 10
            else {
                result += "&"
                rest = rest[rest.index(after: ampersand)...]
                continue
            }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "lt": result += "<"
            case "gt": result += ">"
            case "amp": result += "&"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "&" + entity + ";"
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}

/// Streams the start and end tags of chosen elements out of an XML file.
///
/// It is not a validating parser: it skips text, comments, processing instructions,
/// CDATA and the DOCTYPE with its internal subset, never loading a DTD or expanding
/// an entity it defines, so a hostile file cannot make it fetch or grow anything.
final class XMLTagScanner {
    private let stream: ByteStream
    private let interesting: [[UInt8]]
    /// The line (1-based) the scanner has read to.
    private(set) var line = 1
    /// The tag `next()` last read; its buffers are reused for the next.
    private var tag = XMLTag()

    /// Scans `stream`, reporting only elements named in `interesting`.
    init(stream: ByteStream, interesting: [[UInt8]]) {
        self.stream = stream
        self.interesting = interesting
    }

    var bytesConsumed: Int { stream.bytesConsumed }
    var totalBytes: Int { stream.totalBytes }
    var path: String { stream.path }

    /// The next interesting tag, or `nil` at the end of the file.
    ///
    /// - Throws: ``ImportError`` when the file ends inside a tag, comment or DOCTYPE.
    func next() throws(ImportError) -> XMLTag? {
        var minimum = 1
        while true {
            var found = false
            var needMore = false
            var truncated = false
            // The bytes of the construct the buffer ends inside, read so far.
            var unfinished = 0
            var lineCount = line
            let interesting = self.interesting
            let more = try stream.consume(minimum: minimum) { bytes, isFinal in
                guard let base = bytes.baseAddress else { return 0 }
                var position = 0
                while position < bytes.count {
                    guard let open = memchr(base + position, 0x3C, bytes.count - position) else {
                        lineCount += Self.newlines(bytes, position, bytes.count)
                        return bytes.count
                    }
                    let tagStart = base.distance(to: UnsafeRawPointer(open))
                    lineCount += Self.newlines(bytes, position, tagStart)
                    guard let tagEnd = Self.endOfConstruct(bytes, from: tagStart) else {
                        if isFinal { truncated = true } else { needMore = true }
                        unfinished = bytes.count - tagStart
                        return tagStart
                    }
                    let tagLine = lineCount
                    lineCount += Self.newlines(bytes, tagStart, tagEnd)
                    if Self.read(
                        bytes, from: tagStart, to: tagEnd, line: tagLine, interesting: interesting,
                        into: &tag)
                    {
                        found = true
                        return tagEnd
                    }
                    position = tagEnd
                }
                return bytes.count
            }
            line = lineCount
            if found { return tag }
            if truncated {
                throw ImportError(
                    file: stream.path, line: line,
                    reason: "the file ends inside a tag, comment or DOCTYPE")
            }
            if !more { return nil }
            if needMore { try stream.allowRecord(of: unfinished + 1, line: line) }
            minimum = needMore ? unfinished + 1 : 1
        }
    }

    private static func newlines(_ bytes: UnsafeRawBufferPointer, _ from: Int, _ to: Int) -> Int {
        guard let base = bytes.baseAddress, from < to else { return 0 }
        var count = 0
        var cursor = base + from
        let end = base + to
        while cursor < end, let found = memchr(cursor, 0x0A, cursor.distance(to: end)) {
            count += 1
            cursor = UnsafeRawPointer(found) + 1
        }
        return count
    }

    /// The index just past the construct starting with `<` at `start`, or `nil` if it is not complete in `bytes`.
    private static func endOfConstruct(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        func hasPrefix(_ text: String) -> Bool {
            let prefix = Array(text.utf8)
            return start + prefix.count <= bytes.count
                && bytes[start..<(start + prefix.count)].elementsEqual(prefix)
        }
        func find(_ terminator: String, after offset: Int) -> Int? {
            let needle = Array(terminator.utf8)
            var index = offset
            while index + needle.count <= bytes.count {
                if bytes[index] == needle[0]
                    && bytes[index..<(index + needle.count)].elementsEqual(needle)
                {
                    return index + needle.count
                }
                index += 1
            }
            return nil
        }
        if start + 2 > bytes.count { return nil }
        // Comments, CDATA and processing instructions start `<!` or `<?`; elements never do.
        if bytes[start + 1] == 0x21 || bytes[start + 1] == 0x3F {
            if hasPrefix("<!--") { return find("-->", after: start + 4) }
            if hasPrefix("<![CDATA[") { return find("]]>", after: start + 9) }
            if hasPrefix("<?") { return find("?>", after: start + 2) }
        }
        guard let base = bytes.baseAddress else { return nil }
        let isDeclaration = bytes[start + 1] == 0x21  // <!DOCTYPE … [ … ]>
        if !isDeclaration {
            // A tag ends at the first `>` outside quotes: jump from quote to quote.
            var index = start + 1
            while let found = ByteSearch.first(
                of: 0x3E, 0x22, 0x27, in: base, from: index, to: bytes.count)
            {
                if bytes[found] == 0x3E { return found + 1 }
                guard
                    let closing = ByteSearch.first(
                        of: bytes[found], in: base, from: found + 1, to: bytes.count)
                else { return nil }
                index = closing + 1
            }
            return nil
        }
        var depth = 0
        var quote: UInt8 = 0
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x5B {
                depth += 1
            } else if byte == 0x5D {
                depth -= 1
            } else if byte == 0x3E && depth <= 0 {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    /// Reads the tag in `bytes[start..<end]` into `tag` if it is an interesting element's
    /// start or end tag; returns whether it was. `tag`'s buffers are refilled in place, so
    /// a scan allocates nothing per tag once the caller lets go of the tag before.
    private static func read(
        _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, line: Int,
        interesting: [[UInt8]], into tag: inout XMLTag
    ) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var index = start + 1
        let isEnd = bytes[index] == 0x2F
        if isEnd { index += 1 }
        guard index < end, bytes[index] != 0x21, bytes[index] != 0x3F else { return false }
        let nameStart = index
        while index < end, !isSpace(bytes[index]), bytes[index] != 0x3E, bytes[index] != 0x2F {
            index += 1
        }
        let nameLength = index - nameStart
        guard
            let name = interesting.first(where: { wanted in
                wanted.count == nameLength && ByteSearch.matches(wanted, at: base + nameStart)
            })
        else { return false }
        tag.name = name
        tag.isEnd = isEnd
        tag.isSelfClosing = end - start >= 2 && bytes[end - 2] == 0x2F
        tag.line = line
        let attributesStart = index
        tag.storage.removeAll(keepingCapacity: true)
        tag.storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
        tag.attributes.removeAll(keepingCapacity: true)
        while index < end {
            while index < end, isSpace(bytes[index]) { index += 1 }
            let attributeStart = index
            while index < end, bytes[index] != 0x3D, !isSpace(bytes[index]), bytes[index] != 0x3E,
                bytes[index] != 0x2F
            { index += 1 }
            let attributeName = attributeStart..<index
            while index < end, isSpace(bytes[index]) { index += 1 }
            guard index < end, bytes[index] == 0x3D, !attributeName.isEmpty else {
                index += 1
                continue
            }
            index += 1
            while index < end, isSpace(bytes[index]) { index += 1 }
            guard index < end, bytes[index] == 0x22 || bytes[index] == 0x27 else { continue }
            let quote = bytes[index]
            index += 1
            let valueStart = index
            index = ByteSearch.first(of: quote, in: base, from: index, to: end) ?? end
            tag.attributes.append(
                (
                    (attributeName.lowerBound - attributesStart)..<(attributeName.upperBound
                        - attributesStart),
                    (valueStart - attributesStart)..<(index - attributesStart)
                ))
            index += 1
        }
        return true
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

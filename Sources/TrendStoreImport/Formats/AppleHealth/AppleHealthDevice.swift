import Foundation

/// The model an Apple Health record's `device` attribute names:
/// `<<HKDevice: 0x283e5c7d0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, …>`
/// (with its `<` and `>` written `&lt;` and `&gt;` in the file). The address differs from
/// record to record; the model is what a source is named by.
enum AppleHealthDevice {
    private static let prefix = Array("model:".utf8)

    /// The model in the bytes of a `device` attribute as they stand in the file (entities
    /// not decoded: only the model's few bytes are); `nil` when there is none.
    static func model(raw: UnsafeRawBufferPointer) -> String? {
        var fieldStart = 0
        while fieldStart <= raw.count {
            let comma = raw[fieldStart...].firstIndex(of: 0x2C) ?? raw.count
            var start = fieldStart
            while start < comma, raw[start] == 0x20 { start += 1 }
            if comma - start >= prefix.count,
                raw[start..<(start + prefix.count)].elementsEqual(prefix)
            {
                let value = String(
                    decoding: UnsafeRawBufferPointer(
                        rebasing: raw[(start + prefix.count)..<comma]), as: UTF8.self)
                let model = XMLEntities.decode(value).trimmingCharacters(
                    in: CharacterSet(charactersIn: " >"))
                return model.isEmpty ? nil : model
            }
            fieldStart = comma + 1
        }
        return nil
    }
}

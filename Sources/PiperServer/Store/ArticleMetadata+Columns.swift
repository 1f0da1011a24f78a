import Foundation
import PiperCore

/// How the stores keep `ArticleMetadata`: one text column per field, named by
/// `ArticleMetadata.fields`.
extension ArticleMetadata {
    /// The fields in the order the stores keep their columns.
    var columns: [String?] { Self.fields.map { self[keyPath: $0.keyPath] } }

    /// The inverse of `columns`.
    init(columns: [String?]) {
        self.init()
        for (index, field) in Self.fields.enumerated() where index < columns.count {
            self[keyPath: field.keyPath] = columns[index]
        }
    }

    /// Column names, matching `columns`.
    static let columnNames = fields.map(\.column)
}

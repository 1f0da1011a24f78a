import Foundation

/// A row that does not have the shape its query promises: a column missing, NULL where a value
/// is required, or text that is not the column's type. An error, never a default: a store that
/// read `""` or `0` in its place would act on a value nobody wrote.
struct PostgresRowError: Error, CustomStringConvertible {
    let description: String

    init(column: String, problem: String) {
        description = "malformed row: column \(column) \(problem)"
    }

    /// A statement that always returns a row returned none.
    static let noRow = PostgresRowError(description: "a statement that returns a row returned none")

    private init(description: String) {
        self.description = description
    }
}

/// One row of a `PostgresResult`, read by column name (the name in the query's select list), so
/// a reordered select list cannot shift values into the wrong fields.
struct PostgresRow {
    let result: PostgresResult
    let index: Int

    /// The column's text, nil for SQL NULL.
    func optionalText(_ name: String) throws -> String? { try result.text(index, name) }

    /// The column's text; NULL is an error.
    func text(_ name: String) throws -> String {
        guard let value = try optionalText(name) else { throw PostgresRowError(column: name, problem: "is NULL") }
        return value
    }

    /// A `bigint` column, nil for SQL NULL.
    func optionalInt64(_ name: String) throws -> Int64? {
        try optionalText(name).map { text in
            guard let value = Int64(text) else { throw PostgresRowError(column: name, problem: "is not an integer") }
            return value
        }
    }

    /// A `bigint` column; NULL is an error.
    func int64(_ name: String) throws -> Int64 {
        guard let value = try optionalInt64(name) else { throw PostgresRowError(column: name, problem: "is NULL") }
        return value
    }

    /// A `double precision` column, nil for SQL NULL.
    func optionalDouble(_ name: String) throws -> Double? {
        try optionalText(name).map { text in
            guard let value = Double(text) else { throw PostgresRowError(column: name, problem: "is not a number") }
            return value
        }
    }

    /// A `double precision` column; NULL is an error.
    func double(_ name: String) throws -> Double {
        guard let value = Double(try text(name)) else { throw PostgresRowError(column: name, problem: "is not a number") }
        return value
    }

    /// A `boolean` column (`t` or `f` in text form); NULL is an error.
    func bool(_ name: String) throws -> Bool {
        switch try text(name) {
        case "t": return true
        case "f": return false
        default: throw PostgresRowError(column: name, problem: "is not a boolean")
        }
    }
}

extension PostgresResult {
    /// Every row, in order.
    var rows: [PostgresRow] { (0..<rowCount).map { PostgresRow(result: self, index: $0) } }

    /// The first row, nil when there is none.
    var first: PostgresRow? { rowCount > 0 ? PostgresRow(result: self, index: 0) : nil }

    /// The first row of a statement that always returns one (an upsert's RETURNING).
    func onlyRow() throws -> PostgresRow {
        guard let row = first else { throw PostgresRowError.noRow }
        return row
    }
}

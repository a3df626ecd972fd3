import GRDB

/// A search query as SQL over the store: which `searchDocument d` rows (joined to `email e`
/// only when a condition reads the email itself) match, and what results can highlight.
struct CompiledSearch {
    /// The FROM clause. It starts from an index table when the query's top level has words
    /// (or address parts) to match, so only matching rows are read.
    var from: String
    /// The WHERE clause over `d` (and `e`, and the index table `from` starts from).
    var condition: String
    var arguments: StatementArguments
    /// `from` starts from `emailSearch`, so `bm25(emailSearch)` can rank the rows.
    var ranked: Bool
}

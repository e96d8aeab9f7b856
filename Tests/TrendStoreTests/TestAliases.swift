import LMDB

/// The LMDB read transaction type, for test helpers.
typealias ReadTransactionAlias = ReadTransaction

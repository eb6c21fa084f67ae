"""tf.lookup: tables from keys to values (wengert/data/lookup_tables.py) and what fills them
(wengert/data/table_initializers.py); `tf.lookup.experimental` holds the mutable tables."""
import types as _types

from .data.lookup_tables import (
                                 DenseHashTable,
                                 MutableHashTable,
                                 StaticHashTable,
                                 StaticVocabularyTable,
)
from .data.table_initializers import (
                                 KeyValueTensorInitializer,
                                 TextFileIndex,
                                 TextFileInitializer,
)

experimental = _types.SimpleNamespace(DenseHashTable=DenseHashTable,
                                     MutableHashTable=MutableHashTable)

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable",
           "TextFileIndex", "TextFileInitializer", "experimental"]

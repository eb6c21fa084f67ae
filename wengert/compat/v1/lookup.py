"""`wengert.compat.v1.lookup`: TensorFlow 1's `tf.compat.v1.lookup`, which is `tf.lookup` whose
static tables also have `initializer`, the graph op that fills them."""
from ...data.lookup_tables import StaticHashTableV1 as StaticHashTable
from ...data.lookup_tables import StaticVocabularyTableV1 as StaticVocabularyTable
from ...lookup import (
           KeyValueTensorInitializer,
           TextFileIndex,
           TextFileInitializer,
           experimental,
)

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable",
           "TextFileIndex", "TextFileInitializer", "experimental"]

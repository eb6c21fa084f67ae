"""`wengert.io`: TensorFlow's `tf.io` (TFRecord files, tf.train.Example parsing, file and byte
codecs, and `tf.io.gfile`); see wengert/ops/io/."""
from .ops.io import gfile
from .ops.io.byte_codecs import (decode_base64, decode_compressed, decode_raw, encode_base64,
                                 matching_files, parse_tensor, read_file, serialize_tensor,
                                 write_file)
from .ops.io.csv_parsing import decode_csv
from .ops.io.example_parsing import parse_example, parse_single_example
from .ops.io.sequence_example_parsing import (parse_sequence_example,
                                               parse_single_sequence_example)
from .ops.io.parsing_config import (FixedLenFeature, FixedLenSequenceFeature, SparseFeature,
                                    VarLenFeature)
from .ops.io.tfrecords import TFRecordOptions, TFRecordWriter

__all__ = ["gfile", "TFRecordOptions", "TFRecordWriter", "FixedLenFeature",
           "FixedLenSequenceFeature", "SparseFeature", "VarLenFeature", "parse_example",
           "parse_single_example", "decode_base64", "decode_compressed", "decode_raw",
           "encode_base64", "matching_files", "parse_tensor", "read_file", "serialize_tensor",
           "write_file", "decode_csv", "parse_sequence_example",
           "parse_single_sequence_example"]

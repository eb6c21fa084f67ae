"""`wengert.io`: TensorFlow's `tf.io` (TFRecord files, tf.train.Example parsing, file and byte
codecs, and `tf.io.gfile`; see wengert/ops/io/), with the image codecs under their tf.io names
(the same functions as tf.image's)."""
from .ops.io import gfile
from .ops.io.byte_codecs import (decode_base64, decode_compressed, decode_raw, encode_base64,
                                 matching_files, parse_tensor, read_file, serialize_tensor,
                                 write_file)
from .ops.io.csv_parsing import decode_csv
from .ops.io.example_parsing import parse_example, parse_single_example
from .ops.io.sequence_example_parsing import (parse_sequence_example,
                                               parse_single_sequence_example)
from .ops.io.parsing_config import (FixedLenFeature, FixedLenSequenceFeature, RaggedFeature,
                                    SparseFeature, VarLenFeature)
from .ops.io.tfrecords import TFRecordOptions, TFRecordWriter
from .ops.io.json_example import decode_json_example
from .ops.sparse.serialization import (deserialize_many_sparse, serialize_many_sparse,
                                       serialize_sparse)
from .tf1.graph_util import write_graph
from .ops.image.codecs import (decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image,
                               decode_jpeg, decode_png, decode_webp, encode_jpeg, encode_png,
                               extract_jpeg_shape, is_jpeg)

__all__ = ["gfile", "TFRecordOptions", "TFRecordWriter", "FixedLenFeature",
           "FixedLenSequenceFeature", "RaggedFeature", "SparseFeature", "VarLenFeature",
           "parse_example",
           "parse_single_example", "decode_base64", "decode_compressed", "decode_raw",
           "encode_base64", "matching_files", "parse_tensor", "read_file", "serialize_tensor",
           "write_file", "decode_csv", "parse_sequence_example",
           "parse_single_sequence_example", "decode_and_crop_jpeg", "decode_bmp",
           "decode_gif", "decode_image", "decode_jpeg",
           "decode_png", "decode_webp", "encode_jpeg", "encode_png", "extract_jpeg_shape",
           "is_jpeg", "write_graph", "decode_json_example", "deserialize_many_sparse",
           "serialize_many_sparse", "serialize_sparse"]

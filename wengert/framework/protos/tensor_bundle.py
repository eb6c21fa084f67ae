"""The messages of TensorFlow's tensor bundle, the checkpoint format
(tensorflow/core/protobuf/tensor_bundle.proto, framework/versions.proto,
framework/tensor_slice.proto):

    VersionDef         producer (1): int32, min_consumer (2): int32,
                       bad_consumers (3): repeated int32
    BundleHeaderProto  num_shards (1): int32, endianness (2): enum LITTLE = 0, BIG = 1,
                       version (3): VersionDef
    TensorSliceProto   extent (1): repeated Extent{start (1): int64, length (2): int64 in
                       the oneof has_length}
    BundleEntryProto   dtype (1): DataType enum, shape (2): TensorShapeProto,
                       shard_id (3): int32, offset (4): int64, size (5): int64,
                       crc32c (6): fixed32 (masked), slices (7): repeated TensorSliceProto

A bundle's `.index` table maps the empty key to the header and every tensor's name to its
entry: the tensor's `size` bytes start at `offset` of data file `shard_id`, and `crc32c` is the
masked CRC32C of those bytes.
"""
from .message import Field, Message
from .tensor import TensorShapeProto

__all__ = ["VersionDef", "BundleHeaderProto", "TensorSliceProto", "BundleEntryProto"]


class VersionDef(Message):
    """The producer version of a file and the oldest consumer that may read it."""
    FULL_NAME = "tensorflow.VersionDef"
    FIELDS = (Field(1, "producer", "int32"), Field(2, "min_consumer", "int32"),
              Field(3, "bad_consumers", "int32", repeated=True))


class BundleHeaderProto(Message):
    """The header of a bundle: how many data shards, their byte order, the format version."""
    FULL_NAME = "tensorflow.BundleHeaderProto"
    FIELDS = (Field(1, "num_shards", "int32"), Field(2, "endianness", "enum"),
              Field(3, "version", "message", message=VersionDef))
    LITTLE, BIG = 0, 1


class _Extent(Message):
    FULL_NAME = "tensorflow.TensorSliceProto.Extent"
    FIELDS = (Field(1, "start", "int64"), Field(2, "length", "int64", oneof="has_length"))


class TensorSliceProto(Message):
    """A slice of a partitioned tensor: per dimension, a start and a length (none: all)."""
    FULL_NAME = "tensorflow.TensorSliceProto"
    FIELDS = (Field(1, "extent", "message", repeated=True, message=_Extent),)
    Extent = _Extent


class BundleEntryProto(Message):
    """Where one tensor's bytes lie in the data files, its dtype, shape and checksum."""
    FULL_NAME = "tensorflow.BundleEntryProto"
    FIELDS = (Field(1, "dtype", "enum"), Field(2, "shape", "message", message=TensorShapeProto),
              Field(3, "shard_id", "int32"), Field(4, "offset", "int64"),
              Field(5, "size", "int64"), Field(6, "crc32c", "fixed32"),
              Field(7, "slices", "message", repeated=True, message=TensorSliceProto))

"""`tf.train.Example` and its parts, as tensorflow/core/example/feature.proto and example.proto
declare them (proto3):

    BytesList   value (1): repeated bytes          FloatList  value (1): repeated float, packed
    Int64List   value (1): repeated int64, packed
    Feature     oneof kind: bytes_list (1), float_list (2), int64_list (3)
    Features    feature (1): map<string, Feature>
    FeatureList feature (1): repeated Feature      FeatureLists feature_list (1): map<string,
                                                                                  FeatureList>
    Example          features (1): Features
    SequenceExample  context (1): Features, feature_lists (2): FeatureLists

An Example is one record of named features, each a list of bytes, float32 or int64 values; a
SequenceExample adds, per name, a list of such features over time steps.
"""
from .message import Field, Message

__all__ = ["BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList",
           "FeatureLists", "Example", "SequenceExample"]


class BytesList(Message):
    """A list of byte strings: `BytesList(value=[b"a", b"b"])`."""
    FULL_NAME = "tensorflow.BytesList"
    FIELDS = (Field(1, "value", "bytes", repeated=True),)


class FloatList(Message):
    """A list of float32 values: `FloatList(value=[1.5, 2.0])`."""
    FULL_NAME = "tensorflow.FloatList"
    FIELDS = (Field(1, "value", "float", repeated=True),)


class Int64List(Message):
    """A list of int64 values: `Int64List(value=[1, 2])`."""
    FULL_NAME = "tensorflow.Int64List"
    FIELDS = (Field(1, "value", "int64", repeated=True),)


class Feature(Message):
    """One feature: exactly one of bytes_list, float_list, int64_list (the oneof `kind`)."""
    FULL_NAME = "tensorflow.Feature"
    FIELDS = (Field(1, "bytes_list", "message", message=BytesList, oneof="kind"),
              Field(2, "float_list", "message", message=FloatList, oneof="kind"),
              Field(3, "int64_list", "message", message=Int64List, oneof="kind"))


class Features(Message):
    """Named features: `Features(feature={"label": Feature(...)})`."""
    FULL_NAME = "tensorflow.Features"
    FIELDS = (Field(1, "feature", "message", map_key="string", message=Feature),)


class FeatureList(Message):
    """A feature per time step: `FeatureList(feature=[Feature(...), ...])`."""
    FULL_NAME = "tensorflow.FeatureList"
    FIELDS = (Field(1, "feature", "message", repeated=True, message=Feature),)


class FeatureLists(Message):
    """Named feature lists: `FeatureLists(feature_list={"tokens": FeatureList(...)})`."""
    FULL_NAME = "tensorflow.FeatureLists"
    FIELDS = (Field(1, "feature_list", "message", map_key="string", message=FeatureList),)


class Example(Message):
    """One record: `Example(features=Features(feature={...}))`."""
    FULL_NAME = "tensorflow.Example"
    FIELDS = (Field(1, "features", "message", message=Features),)


class SequenceExample(Message):
    """A record with per-sequence `context` features and per-step `feature_lists`."""
    FULL_NAME = "tensorflow.SequenceExample"
    FIELDS = (Field(1, "context", "message", message=Features),
              Field(2, "feature_lists", "message", message=FeatureLists))

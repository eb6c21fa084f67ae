"""nest.flatten / pack_sequence_as / map_structure over lists, tuples, dicts and namedtuples."""
import collections

import pytest

from wengert.util import nest

Point = collections.namedtuple("Point", "x y")


def test_flatten_leaf_and_empty():
    assert nest.flatten(3) == [3]
    assert nest.flatten(None) == [None]
    assert nest.flatten([]) == []
    assert nest.flatten({}) == []


def test_flatten_order():
    structure = [1, (2, 3), {"b": 5, "a": 4}, Point(6, [7, 8])]
    assert nest.flatten(structure) == [1, 2, 3, 4, 5, 6, 7, 8]


def test_dict_sorted_by_key():
    assert nest.flatten({"z": 1, "a": 2, "m": 3}) == [2, 3, 1]
    assert nest.flatten({2: "b", 1: "a"}) == ["a", "b"]


@pytest.mark.parametrize("structure", [
    5, [1, 2], (1, 2), {"a": 1, "b": [2, 3]}, Point(1, 2), [[], (), {}], [[[[1]]]],
    {"p": Point(x=[1, 2], y={"q": (3,)})}, collections.OrderedDict(b=1, a=2),
])
def test_round_trip(structure):
    flat = nest.flatten(structure)
    rebuilt = nest.pack_sequence_as(structure, flat)
    assert rebuilt == structure
    assert type(rebuilt) is type(structure)


def test_pack_replaces_leaves_and_keeps_types():
    structure = {"w": [1, (2, Point(3, 4))], "b": 5}
    packed = nest.pack_sequence_as(structure, ["b", "w0", "w1", "px", "py"])
    assert packed == {"b": "b", "w": ["w0", ("w1", Point("px", "py"))]}
    assert isinstance(packed["w"][1][1], Point)


def test_pack_wrong_count_raises():
    with pytest.raises(ValueError):
        nest.pack_sequence_as([1, 2], [1])
    with pytest.raises(ValueError):
        nest.pack_sequence_as([1, 2], [1, 2, 3])
    with pytest.raises(ValueError):
        nest.pack_sequence_as(1, [1, 2])


def test_map_structure():
    out = nest.map_structure(lambda v: v * 10, {"a": [1, 2], "b": Point(3, 4)})
    assert out == {"a": [10, 20], "b": Point(30, 40)}


def test_is_nested():
    assert nest.is_nested([]) and nest.is_nested(()) and nest.is_nested({})
    assert nest.is_nested(Point(1, 2))
    assert not nest.is_nested(1) and not nest.is_nested("ab") and not nest.is_nested(None)


def test_deep_nesting_is_not_recursive():
    structure = 0
    for _ in range(5000):
        structure = [structure]
    assert nest.flatten(structure) == [0]
    assert nest.pack_sequence_as(structure, [7]) is not None


def test_defaultdict_and_ordered_dict_keep_type_and_order():
    d = collections.defaultdict(list, {"b": 1, "a": 2})
    rebuilt = nest.pack_sequence_as(d, nest.flatten(d))
    assert type(rebuilt) is collections.defaultdict and rebuilt.default_factory is list
    assert rebuilt == {"a": 2, "b": 1}
    o = collections.OrderedDict([("b", 1), ("a", 2)])
    assert nest.flatten(o) == [2, 1]  # leaves in sorted-key order, like TensorFlow
    assert list(nest.pack_sequence_as(o, ["A", "B"]).items()) == [("b", "B"), ("a", "A")]

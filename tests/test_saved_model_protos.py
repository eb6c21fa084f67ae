"""The SavedModel messages (FunctionDef, OpDef, SavedObjectGraph, StructuredValue) against the
bytes TensorFlow 2.21 wrote: tests/fixtures/saved_model_tf/module/saved_model.pb (written by
write_fixtures.py there) decodes with the project's codec, reads as TensorFlow wrote it, and
encodes back to the same bytes; messages built here round-trip."""
import pathlib

import pytest

from wengert.framework.errors import DataLossError
from wengert.framework.protos.function import FunctionDef, FunctionDefLibrary
from wengert.framework.protos.graph import GraphDef
from wengert.framework.protos.meta_graph import SavedModel
from wengert.framework.protos.op_def import OpDef, OpList
from wengert.framework.protos.saved_object_graph import SavedObject, SavedObjectGraph
from wengert.framework.protos.struct import StructuredValue

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "saved_model_tf" / "module"


@pytest.fixture(scope="module")
def raw():
    return (FIXTURE / "saved_model.pb").read_bytes()


@pytest.fixture(scope="module")
def meta(raw):
    return SavedModel.FromString(raw).meta_graphs[0]


def _function(meta, prefix):
    return next(f for f in meta.graph_def.library.function
                if f.signature.name.startswith(prefix))


def test_round_trip_is_byte_exact(raw):
    model = SavedModel.FromString(raw)
    assert model.SerializeToString() == raw
    meta = model.meta_graphs[0]
    for part in (meta.graph_def.library, meta.object_graph_def,
                 meta.meta_info_def.stripped_op_list):
        assert type(part).FromString(part.SerializeToString()) == part
        assert not part.UnknownFields()
    for function in meta.graph_def.library.function:
        assert FunctionDef.FromString(function.SerializeToString()) == function


def test_function_def_reads_as_tensorflow_wrote_it(meta):
    call = _function(meta, "__inference___call__")
    sig = call.signature
    assert [a.name for a in sig.input_arg] == ["x", "matmul_readvariableop_resource",
                                               "add_readvariableop_resource"]
    assert sig.input_arg[0].type == 1 and sig.input_arg[1].type == 20  # DT_FLOAT, DT_RESOURCE
    handle = sig.input_arg[1].handle_data[0]
    assert handle.dtype == 1 and [d.size for d in handle.shape.dim] == [3, 2]
    assert sig.is_stateful and [a.name for a in sig.output_arg] == ["identity"]
    nodes = {n.name: n for n in call.node_def}
    assert list(nodes["MatMul"].input) == ["x", "MatMul/ReadVariableOp:value:0"]
    assert dict(call.ret) == {"identity": "Identity:output:0"}
    assert call.arg_attr[0].attr["_user_specified_name"].s == b"x"
    assert set(call.control_ret) == set(sig.control_output)
    scaled = _function(meta, "__inference_scaled")
    assert [a.name for a in scaled.signature.input_arg][:2] == ["x", "factor"]
    assert sorted(scaled.arg_attr) == list(range(len(scaled.signature.input_arg)))


def test_saved_object_graph_reads_as_tensorflow_wrote_it(meta):
    graph = meta.object_graph_def
    kinds = [n.WhichOneof("kind") for n in graph.nodes]
    assert kinds[0] == "user_object" and graph.nodes[0].user_object.identifier == \
        "_generic_user_object"
    root = {c.local_name: c.node_id for c in graph.nodes[0].children}
    assert set(root) == {"w", "b", "scale", "__call__", "get_w", "scaled", "signatures"}
    w = graph.nodes[root["w"]].variable
    assert w.name == "w" and w.trainable and [d.size for d in w.shape.dim] == [3, 2]
    signatures = graph.nodes[root["signatures"]]
    assert signatures.user_object.identifier == "signature_map"
    serving = graph.nodes[signatures.children[0].node_id].bare_concrete_function
    assert list(serving.argument_keywords) == ["x"] and serving.allowed_positional_arguments == 1
    saved = graph.nodes[root["scaled"]].function
    spec = saved.function_spec.input_signature.tuple_value.values
    assert [v.tensor_spec_value.name for v in spec] == ["", "factor"]
    concrete = graph.concrete_functions[saved.concrete_functions[0]]
    assert list(concrete.bound_inputs) == [root["w"], root["b"], 8]
    args, kwargs = concrete.canonicalized_input_signature.tuple_value.values
    assert [v.tensor_spec_value.name for v in args.tuple_value.values] == ["x", "factor"]
    assert kwargs.WhichOneof("kind") == "dict_value"
    assert sorted(concrete.output_signature.dict_value.fields) == ["k", "y"]
    argspec = saved.function_spec.fullargspec.named_tuple_value
    assert argspec.name == "FullArgSpec" and [p.key for p in argspec.values][0] == "args"


def test_signature_def_and_op_list(meta):
    serving = meta.signature_def["serving_default"]
    assert list(serving.inputs) == ["x"] and serving.inputs["x"].name == "serving_default_x:0"
    assert list(serving.outputs) == ["output_0"]
    ops = {op.name: op for op in meta.meta_info_def.stripped_op_list.op}
    assert [a.name for a in ops["MatMul"].output_arg] == ["product"]
    assert ops["ReadVariableOp"].is_stateful
    assert ops["RestoreV2"].output_arg[0].type_list_attr == "dtypes"


def test_built_messages_round_trip():
    f = FunctionDef()
    f.signature.name = "f"
    f.signature.input_arg.add(name="x", type=1)
    f.signature.output_arg.add(name="identity", type=1)
    node = f.node_def.add(name="Identity", op="Identity", input=["x"])
    node.attr["T"].type = 1
    f.ret["identity"] = "Identity:output:0"
    for i in (0, 3, 1):
        f.arg_attr[i].attr["_user_specified_name"].s = b"x%d" % i
    again = FunctionDef.FromString(f.SerializeToString())
    assert again == f and dict(again.ret) == {"identity": "Identity:output:0"}
    library = FunctionDefLibrary(function=[f])
    graph = GraphDef(library=library)
    assert GraphDef.FromString(graph.SerializeToString()).library.function[0] == f
    value = StructuredValue()
    value.tuple_value.values.add().int64_value = -3
    value.tuple_value.values.add().none_value.SetInParent()
    field = value.tuple_value.values.add().dict_value.fields["a"]
    field.tensor_spec_value.name = "a"
    decoded = StructuredValue.FromString(value.SerializeToString())
    assert decoded == value and decoded.tuple_value.values[0].int64_value == -3
    assert decoded.tuple_value.values[1].WhichOneof("kind") == "none_value"
    node = SavedObject()
    node.variable.name = "v"
    assert SavedObjectGraph(nodes=[node]).nodes[0].WhichOneof("kind") == "variable"
    assert OpList(op=[OpDef(name="A", is_stateful=True)]).op[0].is_stateful
    assert "name: \"f\"" in str(f)


def test_map_number_keys_in_upb_deterministic_order():
    f = FunctionDef()
    for key in (1, 256, 2, 65536, 0):
        f.resource_arg_unique_id[key] = key
    keys = [FunctionDef.ResourceArgUniqueIdEntry.FromString(b).key
            for b in _entries(f.SerializeToString())]
    assert keys == [65536, 256, 2, 1, 0]


def _entries(data):
    from wengert.framework.protos import wire
    return [bytes(value) for _, _, value, _, _ in wire.fields(data, "test")]


def test_truncated_bytes_are_data_loss(raw):
    with pytest.raises(DataLossError):
        SavedModel.FromString(raw[:len(raw) // 2])

"""TensorFlow 1's SignatureDef builders (`tf.compat.v1.saved_model.signature_def_utils` and
`.utils`): the named inputs and outputs a SavedModel's MetaGraphDef serves, as the SignatureDef
and TensorInfo messages of framework/protos/meta_graph.py.

- build_tensor_info(tensor): TensorInfo(name, dtype, tensor_shape) of a graph tensor (a
  SparseTensor is coo_sparse: the names of its indices, values and dense shape);
  get_tensor_from_tensor_info(info, graph, import_scope) looks it up again.
- build_signature_def(inputs, outputs, method_name, defaults): the message from maps of
  TensorInfo (defaults: constant tensors, as TensorProtos).
- predict_signature_def(inputs, outputs): any tensors, method tensorflow/serving/predict.
- classification_signature_def(examples, classes, scores): string examples under "inputs",
  string classes and float32 scores under "classes" / "scores" (tensorflow/serving/classify).
- regression_signature_def(examples, predictions): string examples, float32 predictions under
  "outputs" (tensorflow/serving/regress).
- is_valid_signature(signature_def): whether a signature of one of those methods keeps the
  types TensorFlow Serving requires.
Bad arguments raise TensorFlow's ValueErrors.
"""
import numpy as np

from ..framework import dtypes
from ..framework.protos.meta_graph import SignatureDef, TensorInfo
from ..framework.protos.tensor import TensorShapeProto, to_proto
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, is_eager_tensor
from ..graph.graph import get_default_graph
from ..ops.shape_ops import get_static_value
from ..saved_model.constants import (CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME,
                                     CLASSIFY_OUTPUT_CLASSES, CLASSIFY_OUTPUT_SCORES,
                                     PREDICT_METHOD_NAME, REGRESS_INPUTS, REGRESS_METHOD_NAME,
                                     REGRESS_OUTPUTS)

__all__ = ["build_tensor_info", "get_tensor_from_tensor_info", "build_signature_def",
           "predict_signature_def", "classification_signature_def",
           "regression_signature_def", "is_valid_signature"]

_STRING, _FLOAT = dtypes.string.as_datatype_enum, dtypes.float32.as_datatype_enum


def _shape_proto(shape):
    proto = TensorShapeProto()
    if shape.rank is None:
        proto.unknown_rank = True
        return proto
    for d in shape.as_list():
        proto.dim.add(size=-1 if d is None else int(d))
    return proto


def build_tensor_info(tensor):
    """The TensorInfo of a graph tensor or SparseTensor."""
    if isinstance(tensor, SparseTensor):
        info = TensorInfo(dtype=tensor.dtype.as_datatype_enum,
                          tensor_shape=_shape_proto(tensor.shape))
        info.coo_sparse.indices_tensor_name = tensor.indices.name
        info.coo_sparse.values_tensor_name = tensor.values.name
        info.coo_sparse.dense_shape_tensor_name = tensor.dense_shape.name
        return info
    if not isinstance(tensor, Tensor) or is_eager_tensor(tensor):
        raise RuntimeError("build_tensor_info is not supported in eager execution: pass a "
                           f"tensor of a graph, got {type(tensor).__name__}.")
    return TensorInfo(name=tensor.name, dtype=tensor.dtype.as_datatype_enum,
                      tensor_shape=_shape_proto(tensor.shape))


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The tensor (or SparseTensor) that `tensor_info` names in `graph` (default: the default
    graph), its names under `import_scope` when given."""
    graph = graph if graph is not None else get_default_graph()
    prefix = f"{import_scope}/" if import_scope else ""

    def find(name):
        return graph.get_tensor_by_name(prefix + name)
    kind = tensor_info.WhichOneof("encoding")
    if kind == "name":
        return find(tensor_info.name)
    if kind == "coo_sparse":
        coo = tensor_info.coo_sparse
        return SparseTensor(find(coo.indices_tensor_name), find(coo.values_tensor_name),
                            find(coo.dense_shape_tensor_name))
    raise ValueError(f"Invalid TensorInfo.encoding: {kind}. Valid encodings are 'name' and "
                     "'coo_sparse'.")


def _default_proto(name, default):
    if is_eager_tensor(default):
        return to_proto(np.asarray(default.numpy()), default.dtype)
    value = get_static_value(default) if isinstance(default, Tensor) else None
    if value is not None:
        return to_proto(np.asarray(value), default.dtype)
    raise ValueError(f"Unable to convert object {default!s} of type {type(default)} to "
                     "TensorProto.")


def build_signature_def(inputs=None, outputs=None, method_name=None, defaults=None):
    """A SignatureDef from {name: TensorInfo} maps, a method name and {name: constant}."""
    signature = SignatureDef()
    for key, info in (inputs or {}).items():
        signature.inputs[key].CopyFrom(info)
    for key, info in (outputs or {}).items():
        signature.outputs[key].CopyFrom(info)
    if method_name is not None:
        signature.method_name = method_name
    for key, default in (defaults or {}).items():
        signature.defaults[key].CopyFrom(_default_proto(key, default))
    return signature


def _infos(tensors):
    return {key: build_tensor_info(t) for key, t in tensors.items()}


def predict_signature_def(inputs, outputs):
    """A Predict signature over {name: tensor} inputs and outputs."""
    if not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def(_infos(inputs), _infos(outputs), PREDICT_METHOD_NAME)


def _check(info, want, message, found="of"):
    if info.dtype != want:
        raise ValueError(f"{message} Found tensors {found} type {info.dtype}.")
    return info


def classification_signature_def(examples, classes, scores):
    """A Classify signature: string examples in, string classes and/or float scores out."""
    if examples is None:
        raise ValueError("Classification `examples` cannot be None.")
    if not isinstance(examples, Tensor):
        raise ValueError(f"Classification `examples` must be a string Tensor. Found `examples` "
                         f"of type {type(examples)}.")
    if classes is None and scores is None:
        raise ValueError("Classification `classes` and `scores` cannot both be None.")
    inputs = {CLASSIFY_INPUTS: _check(build_tensor_info(examples), _STRING,
                                      "Classification input tensors must be of type string.")}
    outputs = {}
    if classes is not None:
        outputs[CLASSIFY_OUTPUT_CLASSES] = _check(
            build_tensor_info(classes), _STRING,
            "Classification classes must be of type string Tensor.")
    if scores is not None:
        outputs[CLASSIFY_OUTPUT_SCORES] = _check(
            build_tensor_info(scores), _FLOAT, "Classification scores must be a float Tensor.")
    return build_signature_def(inputs, outputs, CLASSIFY_METHOD_NAME)


def regression_signature_def(examples, predictions):
    """A Regress signature: string examples in, float predictions out."""
    if examples is None:
        raise ValueError("Regression `examples` cannot be None.")
    if not isinstance(examples, Tensor):
        raise ValueError(f"Expected regression `examples` to be of type Tensor. Found "
                         f"`examples` of type {type(examples)}.")
    if predictions is None:
        raise ValueError("Regression `predictions` cannot be None.")
    inputs = {REGRESS_INPUTS: _check(build_tensor_info(examples), _STRING,
                                     "Regression input tensors must be of type string.",
                                     "with")}
    outputs = {REGRESS_OUTPUTS: _check(build_tensor_info(predictions), _FLOAT,
                                       "Regression output tensors must be of type float.")}
    return build_signature_def(inputs, outputs, REGRESS_METHOD_NAME)


def is_valid_signature(signature_def):
    """Whether `signature_def` is a Predict, Classify or Regress signature with the tensors and
    types TensorFlow Serving requires."""
    if signature_def is None or not signature_def.method_name:
        return False
    method, ins, outs = signature_def.method_name, signature_def.inputs, signature_def.outputs
    if method == PREDICT_METHOD_NAME:
        return bool(ins) and bool(outs)
    if method == CLASSIFY_METHOD_NAME:
        allowed = {CLASSIFY_OUTPUT_CLASSES: _STRING, CLASSIFY_OUTPUT_SCORES: _FLOAT}
        return (set(ins) == {CLASSIFY_INPUTS} and ins[CLASSIFY_INPUTS].dtype == _STRING
                and bool(outs) and all(k in allowed and outs[k].dtype == allowed[k]
                                       for k in outs))
    if method == REGRESS_METHOD_NAME:
        return (set(ins) == {REGRESS_INPUTS} and ins[REGRESS_INPUTS].dtype == _STRING
                and set(outs) == {REGRESS_OUTPUTS} and outs[REGRESS_OUTPUTS].dtype == _FLOAT)
    return False

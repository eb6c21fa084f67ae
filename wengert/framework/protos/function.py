"""TensorFlow's function library (tensorflow/core/framework/function.proto): the traced
functions a GraphDef (and a SavedModel) carries, each callable by name from a node.

    FunctionDefLibrary  function (1): repeated FunctionDef, gradient (2): repeated GradientDef,
                        registered_gradients (3): repeated RegisteredGradient
    FunctionDef         signature (1): OpDef (the function's name, inputs, outputs),
                        attr (5): map of AttrValue, arg_attr (7): map uint32 -> ArgAttrs,
                        resource_arg_unique_id (8): map uint32 -> uint32,
                        node_def (3): repeated NodeDef, ret (4): map output name -> tensor,
                        control_ret (6): map control output name -> node name
    ArgAttrs            attr (1): map of AttrValue (the attributes of one argument)
    GradientDef         function_name (1), gradient_func (2)
    RegisteredGradient  gradient_func (1), registered_op_type (2)

Inside a function body a node's input names an argument by its name ("x") or an output of
another node as "node:output_arg:index" (the index within that output argument, which may be a
list), and "^node" is a control input; `ret` maps each output argument to such a tensor.
"""
from .message import Field, Message
from .node_def import AttrValue, NodeDef
from .op_def import OpDef

__all__ = ["FunctionDef", "FunctionDefLibrary", "GradientDef", "RegisteredGradient"]


class _ArgAttrs(Message):
    FULL_NAME = "tensorflow.FunctionDef.ArgAttrs"
    FIELDS = (Field(1, "attr", "message", map_key="string", message=AttrValue),)


class FunctionDef(Message):
    """One function: its signature, attributes, body nodes and what it returns."""
    FULL_NAME = "tensorflow.FunctionDef"
    ArgAttrs = _ArgAttrs
    FIELDS = (Field(1, "signature", "message", message=OpDef),
              Field(5, "attr", "message", map_key="string", message=AttrValue),
              Field(7, "arg_attr", "message", map_key="uint32", message=_ArgAttrs),
              Field(8, "resource_arg_unique_id", "uint32", map_key="uint32"),
              Field(3, "node_def", "message", repeated=True, message=NodeDef),
              Field(4, "ret", "string", map_key="string"),
              Field(6, "control_ret", "string", map_key="string"))


class GradientDef(Message):
    """The function computing another function's gradient."""
    FULL_NAME = "tensorflow.GradientDef"
    FIELDS = (Field(1, "function_name", "string"), Field(2, "gradient_func", "string"))


class RegisteredGradient(Message):
    """An op type whose gradient is the registered gradient function named."""
    FULL_NAME = "tensorflow.RegisteredGradient"
    FIELDS = (Field(1, "gradient_func", "string"), Field(2, "registered_op_type", "string"))


class FunctionDefLibrary(Message):
    """The functions a graph may call, and their gradients."""
    FULL_NAME = "tensorflow.FunctionDefLibrary"
    FIELDS = (Field(1, "function", "message", repeated=True, message=FunctionDef),
              Field(2, "gradient", "message", repeated=True, message=GradientDef),
              Field(3, "registered_gradients", "message", repeated=True,
                    message=RegisteredGradient))

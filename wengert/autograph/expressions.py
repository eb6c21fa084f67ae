"""Rewriting expressions: calls, conditional expressions and logical operators.

- `f(a, *b, k=c)` becomes `ag__.converted_call(f, (a, *b), {'k': c})`: at run time the callee is
  converted too when it is user code (see calls.py), and builtins such as `len` and `range`
  dispatch on tensors.
- `a if c else b` becomes `ag__.if_exp(c, lambda: a, lambda: b, 'a if c else b')`: a `cond` when
  `c` is a tensor, Python's choice otherwise.
- `a and b`, `a or b`, `not a` become `ag__.and_(lambda: a, lambda: b)`, `ag__.or_(...)`,
  `ag__.not_(a)`: lazy as Python's, `logical_and`/`logical_or` through a `cond` on tensors.
- `super()` without arguments becomes `super(__class__, self)` (the converted function is no
  longer defined inside its class body), and private names `__x` inside a class are mangled as
  the class body would have mangled them.
Nested function definitions are left to their own conversion; lambda bodies are rewritten here.
"""
import ast

__all__ = ["ExpressionRewriter", "ag_call", "mangle_private_names"]


def ag_attr(name):
    return ast.Attribute(value=ast.Name(id="ag__", ctx=ast.Load()), attr=name, ctx=ast.Load())


def ag_call(name, *args):
    return ast.Call(func=ag_attr(name), args=list(args), keywords=[])


def _lambda(body):
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                         kw_defaults=[], kwarg=None, defaults=[]), body=body)


def _is_ag(node):
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
        node.value.id == "ag__"


class ExpressionRewriter(ast.NodeTransformer):
    """Rewrites the expressions of one statement (see the module docstring)."""

    def __init__(self, self_name=None, convert_calls=True):
        self.self_name = self_name      # the first parameter, for super()
        self.convert_calls = convert_calls

    def rewrite(self, node):
        new = self.visit(node)
        ast.copy_location(new, node)
        for item in ast.walk(new):
            if "lineno" in getattr(item, "_attributes", ()) and not hasattr(item, "lineno"):
                ast.copy_location(item, node)
        return new

    # nested scopes with statements are converted on their own
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Call(self, node):
        if self._is_zero_arg_super(node):
            node.args = [ast.Name(id="__class__", ctx=ast.Load()),
                         ast.Name(id=self.self_name, ctx=ast.Load())]
            return node
        self.generic_visit(node)
        if not self.convert_calls or _is_ag(node.func):
            return node
        args = ast.Tuple(elts=list(node.args), ctx=ast.Load())
        named = [k for k in node.keywords if k.arg is not None]
        spread = [k for k in node.keywords if k.arg is None]
        if node.keywords:
            kwargs = ast.Dict(keys=[ast.Constant(value=k.arg) for k in named] + [None] * len(
                spread), values=[k.value for k in named] + [k.value for k in spread])
        else:
            kwargs = ast.Constant(value=None)
        return ast.copy_location(ast.Call(func=ag_attr("converted_call"),
                                          args=[node.func, args, kwargs], keywords=[]), node)

    def _is_zero_arg_super(self, node):
        return (isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args
                and not node.keywords and self.self_name is not None)

    def visit_IfExp(self, node):
        text = ast.unparse(node)
        self.generic_visit(node)
        return ast.copy_location(ag_call("if_exp", node.test, _lambda(node.body),
                                         _lambda(node.orelse), ast.Constant(value=text)), node)

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        name = "and_" if isinstance(node.op, ast.And) else "or_"
        return ast.copy_location(ag_call(name, *[_lambda(v) for v in node.values]), node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(ag_call("not_", node.operand), node)
        return node


def mangle_private_names(tree, class_name):
    """Rename `__x` (not `__x__`) to `_Class__x` everywhere in `tree`, as Python does inside a
    class body (the converted function is compiled outside it)."""
    prefix = "_" + class_name.lstrip("_") if class_name and class_name.lstrip("_") else None
    if prefix is None:
        return

    def mangle(name):
        if name and name.startswith("__") and not name.endswith("__"):
            return prefix + name
        return name
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            node.id = mangle(node.id)
        elif isinstance(node, ast.Attribute):
            node.attr = mangle(node.attr)
        elif isinstance(node, ast.arg):
            node.arg = mangle(node.arg)

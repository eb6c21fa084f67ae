"""Rewriting `if`, `while` and `for` statements into calls of AutoGraph's runtime operators.

Each statement becomes a few small functions and one call, which decides at run time between
Python control flow and a `cond`/`while_loop` (installs.py), as TensorFlow's AutoGraph does:

    if x > 0:                     def get_state():
        y = x * 2                     return (y,)
    else:                 ->      def set_state(vars_):
        y = -x                        nonlocal y
                                      (y,) = vars_
                                  def if_body():
                                      nonlocal y
                                      y = x * 2
                                  def else_body():
                                      nonlocal y
                                      y = -x
                                  y = ag__.Undefined('y')
                                  ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state,
                                               ('y',), 1)

The *state* is what the analysis (analysis.py) finds: for an `if`, the names it modifies that are
live after it (its outputs, counted by the last argument) and those only read inside it; for a
loop, the names it modifies that are live at its head or after it (the loop variables).
`get_state`/`set_state` move the state in and out of the functions (a `while_loop` body receives
its loop variables as placeholders). Every generated function declares `nonlocal` each local
name it binds, so all of them share the one variable of the user's function, exactly as the
original single scope did: run as Python, the converted code behaves as the source. A modified
name that no path defines before the statement starts as `ag__.Undefined(name)`, and reads of
such names go through `ag__.ld`, which raises a clear error for an undefined value.
`tf.autograph.experimental.set_loop_options(...)` in a loop body becomes the loop's options.
"""
import ast

from .analysis import bound_names
from .expressions import ExpressionRewriter, ag_attr, ag_call
from .lowering import _at, fresh_name

__all__ = ["StatementConverter"]

_LOOPS = (ast.While, ast.For)


def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _tuple(names, store=False):
    return ast.Tuple(elts=[_name(n, store) for n in names], ctx=ast.Store() if store else
                     ast.Load())


def _def(name, params, body):
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return ast.FunctionDef(name=name, args=args, body=body or [ast.Pass()], decorator_list=[],
                           returns=None, type_comment=None)


def _str_tuple(names):
    return ast.Tuple(elts=[ast.Constant(value=n) for n in names], ctx=ast.Load())


class StatementConverter:
    """Converts the statements of one (lowered) function; see the module docstring."""

    def __init__(self, analysis, extra_tests, taken, expressions, convert_nested):
        self.analysis = analysis
        self.extra_tests = extra_tests
        self.taken = taken
        self.expressions = expressions            # an ExpressionRewriter
        self.convert_nested = convert_nested      # converts a nested FunctionDef
        self.undefined = set()                    # names given an Undefined start somewhere
        self.state_getters = set()                # generated get_state functions (no ld inside)
        self.vars_name = fresh_name("vars_", taken)

    # -- blocks ----------------------------------------------------------------------------------
    def block(self, stmts):
        out = []
        for stmt in stmts:
            out += self.statement(stmt)
        return out

    def statement(self, stmt):
        if isinstance(stmt, ast.If):
            return self._if(stmt)
        if isinstance(stmt, ast.While):
            return self._while(stmt)
        if isinstance(stmt, ast.For):
            return self._for(stmt)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return [self.convert_nested(stmt)]
        if isinstance(stmt, ast.ClassDef):
            return [stmt]
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                item.context_expr = self.expressions.rewrite(item.context_expr)
            stmt.body = self.block(stmt.body)
            return [stmt]
        if isinstance(stmt, ast.Try):
            stmt.body = self.block(stmt.body)
            for handler in stmt.handlers:
                handler.body = self.block(handler.body) or [ast.Pass()]
            stmt.orelse, stmt.finalbody = self.block(stmt.orelse), self.block(stmt.finalbody)
            return [stmt]
        if isinstance(stmt, ast.AsyncFor):
            return [stmt]
        return [self.expressions.rewrite(stmt)]

    # -- shared pieces ---------------------------------------------------------------------------
    def _declarations(self, body):
        """`nonlocal`/`global` statements for the names a generated function binds itself."""
        bound = set()
        for stmt in body:
            bound |= bound_names(stmt)
        out = []
        local = sorted(bound & (self.analysis.locals | self.analysis.nonlocal_names))
        if local:
            out.append(ast.Nonlocal(names=local))
        globs = sorted(bound & self.analysis.global_names)
        if globs:
            out.append(ast.Global(names=globs))
        return out

    def _state_functions(self, names):
        get_name = fresh_name("get_state", self.taken)
        set_name = fresh_name("set_state", self.taken)
        getter = _def(get_name, [], [ast.Return(value=_tuple(names))])
        self.state_getters.add(get_name)
        values = self.vars_name
        if names:
            setter_body = [ast.Assign(targets=[_tuple(names, store=True)], value=_name(values))]
            setter = _def(set_name, [values], self._declarations(setter_body) + setter_body)
        else:
            setter = _def(set_name, [values], [ast.Pass()])
        return get_name, set_name, [getter, setter]

    def _body_function(self, base, params, body):
        name = fresh_name(base, self.taken)
        return name, _def(name, params, self._declarations(body) + body)

    def _undefined_starts(self, stmt):
        names = sorted(bound_names(stmt) & self.analysis.locals)
        missing = self.analysis.undefined_before(stmt, names)
        self.undefined.update(missing)
        return [ast.Assign(targets=[_name(n, store=True)],
                           value=ag_call("Undefined", ast.Constant(value=n))) for n in missing]

    # -- if ---------------------------------------------------------------------------------------
    def _if(self, node):
        outputs, inputs = self.analysis.if_state(node)
        state = outputs + inputs
        test = self.expressions.rewrite(node.test)
        body = self.block(node.body)
        orelse = self.block(node.orelse)
        get_name, set_name, state_defs = self._state_functions(state)
        body_name, body_def = self._body_function("if_body", [], body)
        else_name, else_def = self._body_function("else_body", [], orelse)
        call = ast.Expr(value=ag_call("if_stmt", test, _name(body_name), _name(else_name),
                                      _name(get_name), _name(set_name), _str_tuple(state),
                                      ast.Constant(value=len(outputs))))
        out = state_defs + [body_def, else_def] + self._undefined_starts(node) + [call]
        return [_at(s, node) for s in out]

    # -- loops ------------------------------------------------------------------------------------
    def _loop_options(self, node):
        """set_loop_options(...) calls at the top level of the body, removed; their keywords as
        the options dict."""
        keys, values, body = [], [], []
        for stmt in node.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and \
                    _callee_name(stmt.value.func) == "set_loop_options":
                for kw in stmt.value.keywords:
                    keys.append(ast.Constant(value=kw.arg))
                    values.append(self.expressions.rewrite(kw.value))
                continue
            body.append(stmt)
        node.body = body or [ast.Pass()]
        return ast.Dict(keys=keys, values=values)

    def _while(self, node):
        loop_vars = self.analysis.loop_state(node)
        opts = self._loop_options(node)
        test = self.expressions.rewrite(node.test)
        body = self.block(node.body)
        get_name, set_name, state_defs = self._state_functions(loop_vars)
        body_name, body_def = self._body_function("loop_body", [], body)
        test_name = fresh_name("loop_test", self.taken)
        test_def = _def(test_name, [], [ast.Return(value=test)])
        call = ast.Expr(value=ag_call("while_stmt", _name(test_name), _name(body_name),
                                      _name(get_name), _name(set_name), _str_tuple(loop_vars),
                                      opts))
        out = state_defs + [body_def, test_def] + self._undefined_starts(node) + [call]
        return [_at(s, node) for s in out]

    def _for(self, node):
        loop_vars = self.analysis.loop_state(node)
        opts = self._loop_options(node)
        iterated = self.expressions.rewrite(node.iter)
        item = fresh_name("itr", self.taken)
        body = [_at(ast.Assign(targets=[node.target], value=_name(item)), node.target)]
        body += self.block(node.body)
        get_name, set_name, state_defs = self._state_functions(loop_vars)
        body_name, body_def = self._body_function("loop_body", [item], body)
        extra = self.extra_tests.get(node)
        defs = state_defs + [body_def]
        if extra:
            test = extra[0] if len(extra) == 1 else ast.BoolOp(op=ast.And(), values=list(extra))
            test_name = fresh_name("extra_test", self.taken)
            defs.append(_def(test_name, [], [ast.Return(value=self.expressions.rewrite(test))]))
            extra_arg = _name(test_name)
        else:
            extra_arg = ast.Constant(value=None)
        call = ast.Expr(value=ag_call("for_stmt", iterated, extra_arg, _name(body_name),
                                      _name(get_name), _name(set_name), _str_tuple(loop_vars),
                                      opts))
        out = defs + self._undefined_starts(node) + [call]
        return [_at(s, node) for s in out]


def _callee_name(func):
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


class LoadChecker(ast.NodeTransformer):
    """Wraps reads of possibly-undefined names in `ag__.ld(name)` (not inside get_state, which
    must hand Undefined values on)."""

    def __init__(self, names, skip_functions):
        self.names, self.skip = names, skip_functions

    def visit_FunctionDef(self, node):
        if node.name in self.skip:
            return node
        self.generic_visit(node)
        return node

    def visit_Call(self, node):
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("ld", "Undefined") and \
                isinstance(node.func.value, ast.Name) and node.func.value.id == "ag__":
            return node
        self.generic_visit(node)
        return node

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.names:
            return ast.copy_location(ast.Call(func=ag_attr("ld"), args=[node], keywords=[]),
                                     node)
        return node


__all__ += ["LoadChecker"]

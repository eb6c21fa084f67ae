"""Lowering `break`, `continue` and `return` to flags, so every statement has one way out.

A `cond` or `while_loop` op cannot jump out of its branch or body, so before control flow is
converted each jump becomes an assignment to a flag and the statements it would have skipped are
guarded by that flag (TensorFlow's AutoGraph does the same, in the same order):

    while test:                        break_ = False
        a                              while not break_ and test:
        if c:                              a
            break              ->          if c:
        b                                      break_ = True
                                           else:
                                               b

- A statement that *always* jumps (the jump itself, or an `if` whose arms both do) ends its
  block: what follows is dead. After an `if` whose one arm always jumps, the rest of the block
  moves into the other arm (one conditional instead of two). After any other statement that
  *may* jump, the rest is wrapped in `if not flag:`.
- `break` sets `break_` (fresh per loop); the loop's test (a `while`) or its extra test (a
  `for`, whose iteration the runtime stops) gains `not break_`, and its `else:` clause runs only
  `if not break_`.
- `continue` sets `continue_`, reset at the top of each iteration; it only guards the rest of the
  body.
- `return v` sets `do_return = True; retval_ = v`; every loop around it stops on `do_return`, the
  rest of the function is guarded, and the function ends with `return ag__.ret(retval_)` (None
  when no return ran). A function whose only return is its last statement is left alone.
Nested functions, lambdas and classes are not entered: their jumps are their own.
"""
import ast

from .analysis import contains

__all__ = ["lower_jumps", "fresh_name", "header_location"]

_LOOPS = (ast.While, ast.For, ast.AsyncFor)


def fresh_name(base, taken):
    """`base`, or `base_1`, `base_2`, ... whichever is not in `taken` (which is updated)."""
    name, k = base, 0
    while name in taken:
        k += 1
        name = f"{base}_{k}"
    taken.add(name)
    return name


def _name(id_, ctx=None):
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def _assign(target, value):
    return ast.Assign(targets=[_name(target, ast.Store())], value=value)


def _not(*flags):
    """`not (f1 or f2 ...)` for the flags given."""
    if len(flags) == 1:
        return ast.UnaryOp(op=ast.Not(), operand=_name(flags[0]))
    return ast.UnaryOp(op=ast.Not(), operand=ast.BoolOp(op=ast.Or(),
                                                         values=[_name(f) for f in flags]))


def header_location(like):
    """(lineno, col_offset, end_lineno, end_col_offset) of the first line of `like`: generated
    code stands at the header of the statement it replaces (`if x > 0:`), not its whole body."""
    line, col = getattr(like, "lineno", 1), getattr(like, "col_offset", 0)
    end_line, end_col = getattr(like, "end_lineno", line), getattr(like, "end_col_offset", col)
    if end_line != line:
        head = getattr(like, "test", None) or getattr(like, "iter", None)
        if head is not None and head.end_lineno == line:
            end_col = head.end_col_offset
        else:
            end_col = col + 1
    return line, col, line, end_col


def _at(node, like):
    """`node` and its children that have no location yet, placed at `like`'s header line."""
    where = header_location(like)
    for item in ast.walk(node):
        if "lineno" in getattr(item, "_attributes", ()) and not hasattr(item, "lineno"):
            item.lineno, item.col_offset, item.end_lineno, item.end_col_offset = where
    return node


class _Context:
    """The flags the jumps of the current block set."""

    def __init__(self, break_flag=None, continue_flag=None, return_flag=None, retval=None):
        self.break_flag, self.continue_flag = break_flag, continue_flag
        self.return_flag, self.retval = return_flag, retval


class _Lowering:
    def __init__(self, taken):
        self.taken = taken
        self.extra_tests = {}  # For node -> [expressions that must hold to run an iteration]

    # -- which statements jump ------------------------------------------------------------------
    def _jumps(self, stmt, ctx):
        """The flags `stmt` may set (at this loop level: breaks in inner loops are theirs)."""
        flags = []
        if ctx.return_flag and contains([stmt], ast.Return):
            flags.append(ctx.return_flag)
        if ctx.break_flag and contains([stmt], ast.Break, stop=_LOOPS) and not isinstance(
                stmt, _LOOPS):
            flags.append(ctx.break_flag)
        if ctx.continue_flag and contains([stmt], ast.Continue, stop=_LOOPS) and not isinstance(
                stmt, _LOOPS):
            flags.append(ctx.continue_flag)
        return flags

    def _always_jumps(self, stmts, ctx):
        for stmt in stmts:
            if isinstance(stmt, ast.Return) and ctx.return_flag:
                return True
            if isinstance(stmt, ast.Break) and ctx.break_flag:
                return True
            if isinstance(stmt, ast.Continue) and ctx.continue_flag:
                return True
            if isinstance(stmt, ast.If) and self._always_jumps(stmt.body, ctx) and \
                    self._always_jumps(stmt.orelse, ctx):
                return True
        return False

    # -- blocks ----------------------------------------------------------------------------------
    def block(self, stmts, ctx):
        out = []
        for i, stmt in enumerate(stmts):
            rest = stmts[i + 1:]
            if isinstance(stmt, ast.Return) and ctx.return_flag:
                value = stmt.value if stmt.value is not None else ast.Constant(value=None)
                out += [_at(_assign(ctx.return_flag, ast.Constant(value=True)), stmt),
                        _at(_assign(ctx.retval, value), stmt)]
                return out
            if isinstance(stmt, ast.Break) and ctx.break_flag:
                out.append(_at(_assign(ctx.break_flag, ast.Constant(value=True)), stmt))
                return out
            if isinstance(stmt, ast.Continue) and ctx.continue_flag:
                out.append(_at(_assign(ctx.continue_flag, ast.Constant(value=True)), stmt))
                return out
            flags = self._jumps(stmt, ctx)
            if not flags:
                out += self.statement(stmt, ctx)
                continue
            if isinstance(stmt, ast.If):
                body_jumps = self._always_jumps(stmt.body, ctx)
                else_jumps = self._always_jumps(stmt.orelse, ctx)
                if body_jumps and not else_jumps:
                    out.append(self._if(stmt, stmt.body, stmt.orelse + rest, ctx))
                    return out
                if else_jumps and not body_jumps:
                    out.append(self._if(stmt, stmt.body + rest, stmt.orelse, ctx))
                    return out
                out.append(self._if(stmt, stmt.body, stmt.orelse, ctx))
                if body_jumps and else_jumps:
                    return out
            else:
                out += self.statement(stmt, ctx)
            if rest:
                guarded = self.block(rest, ctx)
                if guarded:
                    out.append(_at(ast.If(test=_not(*flags), body=guarded, orelse=[]), rest[0]))
            return out
        return out

    def _if(self, stmt, body, orelse, ctx):
        new = ast.If(test=stmt.test, body=self.block(body, ctx) or [ast.Pass()],
                     orelse=self.block(orelse, ctx))
        return ast.copy_location(_at(new, stmt), stmt)

    def statement(self, stmt, ctx):
        """One statement with its inner blocks lowered (a list: loops add flag statements)."""
        if isinstance(stmt, _LOOPS):
            return self.loop(stmt, ctx)
        if isinstance(stmt, ast.If):
            return [self._if(stmt, stmt.body, stmt.orelse, ctx)]
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            stmt.body = self.block(stmt.body, ctx) or [ast.Pass()]
        elif isinstance(stmt, ast.Try):
            stmt.body = self.block(stmt.body, ctx) or [ast.Pass()]
            for handler in stmt.handlers:
                handler.body = self.block(handler.body, ctx) or [ast.Pass()]
            stmt.orelse = self.block(stmt.orelse, ctx)
            stmt.finalbody = self.block(stmt.finalbody, ctx)
        return [stmt]

    def loop(self, node, ctx):
        has_break = contains(node.body, ast.Break, stop=_LOOPS)
        has_continue = contains(node.body, ast.Continue, stop=_LOOPS)
        has_return = ctx.return_flag is not None and contains(node.body, ast.Return)
        inner = _Context(fresh_name("break_", self.taken) if has_break else None,
                         fresh_name("continue_", self.taken) if has_continue else None,
                         ctx.return_flag, ctx.retval)
        body = self.block(node.body, inner)
        if has_continue:
            body.insert(0, _at(_assign(inner.continue_flag, ast.Constant(value=False)),
                               node.body[0]))
        node.body = body or [ast.Pass()]
        stops = [f for f in (inner.break_flag, ctx.return_flag if has_return else None) if f]
        before, after = [], []
        if has_break:
            before.append(_at(_assign(inner.break_flag, ast.Constant(value=False)), node))
        if stops:
            if isinstance(node, ast.While):
                node.test = _at(ast.BoolOp(op=ast.And(), values=[_not(s) for s in stops]
                                           + [node.test]), node.test)
            else:
                self.extra_tests[node] = [_at(_not(s), node) for s in stops]
        orelse = self.block(node.orelse, ctx)
        node.orelse = []
        if orelse:
            after.append(_at(ast.If(test=_not(*stops), body=orelse, orelse=[]), orelse[0])
                         if stops else None)
            if not stops:
                after = orelse
        return before + [node] + after


def _needs_return_flags(fn):
    body = fn.body
    returns = [n for n in _returns(body)]
    if not returns:
        return False
    return not (len(returns) == 1 and body and returns[0] is body[-1])


def _returns(stmts):
    stack = list(stmts)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Return):
            yield item
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(item))


def lower_jumps(fn, taken):
    """Lower the jumps of FunctionDef `fn` in place. Returns {For node: [extra tests]}."""
    lowering = _Lowering(taken)
    if _needs_return_flags(fn):
        do_return, retval = fresh_name("do_return", taken), fresh_name("retval_", taken)
        ctx = _Context(return_flag=do_return, retval=retval)
        first = fn.body[0]
        prologue = [_at(_assign(do_return, ast.Constant(value=False)), first),
                    _at(_assign(retval, ast.Call(
                        func=ast.Attribute(value=_name("ag__"), attr="UndefinedReturnValue",
                                           ctx=ast.Load()), args=[], keywords=[])), first)]
        body = lowering.block(fn.body, ctx)
        last = fn.body[-1]
        epilogue = _at(ast.Return(value=ast.Call(
            func=ast.Attribute(value=_name("ag__"), attr="ret", ctx=ast.Load()),
            args=[_name(retval)], keywords=[])), last)
        fn.body = prologue + body + [epilogue]
    else:
        fn.body = lowering.block(fn.body, _Context())
    return lowering.extra_tests

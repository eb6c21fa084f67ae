"""Static analysis of a function's statements: which names each statement binds and reads, which
names are live after it, and which may be defined before it.

AutoGraph needs three facts about every `if`, `while` and `for` it converts:

- *modified*: the local names the statement may bind (assignment targets, loop targets, `with ...
  as`, imports, nested `def`/`class` names), not counting bindings inside nested functions,
  lambdas or comprehensions, which have their own scopes;
- *live in* / *live out*: a name is live at a point when some path from that point reads it
  before writing it. Liveness is the classic backward data-flow problem: for a statement S with
  live-out set L,  live_in(S) = reads(S) | (L - kills(S)); a branch joins its arms by union; a
  loop's head H is the least fixed point of  H = reads(test) | live_in(body, H) | live_in(else,
  L), found by iterating (the sets only grow, and are bounded by the names of the function);
- *maybe defined*: a name may be defined at a point when some path from the entry binds it (the
  forward "reaching definitions" problem; branches join by union).

The loop variables of a loop are then its modified names that are live in at its head or live
out after it (the others are temporaries of one iteration), and the state of an `if` is its
modified names live in or out; a modified name that is not maybe-defined before the statement
starts as `Undefined`. The analysis runs on the function after `break`, `continue` and `return`
were lowered to flags (lowering.py), so statements are structured: no jumps but a final return.
"""
import ast

__all__ = ["Analysis", "bound_names", "read_names", "contains"]

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
           ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _walk_scope(node):
    """Nodes under `node` (itself included), not entering nested scopes (their headers are
    visited: decorators, defaults, a comprehension's first iterable)."""
    stack = [node]
    while stack:
        item = stack.pop()
        yield item
        if item is not node and isinstance(item, _SCOPES):
            stack.extend(_scope_header(item))
            continue
        stack.extend(ast.iter_child_nodes(item))


def _scope_header(node):
    """The parts of a nested scope evaluated where it is defined."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return (list(node.decorator_list) + list(node.args.defaults)
                + [d for d in node.args.kw_defaults if d is not None])
    if isinstance(node, ast.Lambda):
        return list(node.args.defaults) + [d for d in node.args.kw_defaults if d is not None]
    if isinstance(node, ast.ClassDef):
        return list(node.decorator_list) + list(node.bases) + [k.value for k in node.keywords]
    return [node.generators[0].iter]  # a comprehension


def bound_names(node):
    """Local names a statement (or expression) binds in the current scope."""
    out = set()
    for item in _walk_scope(node):
        if isinstance(item, ast.Name) and isinstance(item.ctx, (ast.Store, ast.Del)):
            out.add(item.id)
        elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and item is not node:
            out.add(item.name)
        elif isinstance(item, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in item.names)
        elif isinstance(item, ast.ExceptHandler) and item.name:
            out.add(item.name)
        elif isinstance(item, ast.NamedExpr):
            out.add(item.target.id)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        out.add(node.name)
    return out


def read_names(node):
    """Names a statement or expression reads, including the free names of nested functions and
    comprehensions (read when they run: counted where they are defined)."""
    out = set()
    for item in ast.walk(node):
        if isinstance(item, ast.Name) and isinstance(item.ctx, ast.Load):
            out.add(item.id)
        elif isinstance(item, ast.AugAssign) and isinstance(item.target, ast.Name):
            out.add(item.target.id)
    return out


def contains(nodes, kinds, stop=()):
    """True if any statement in `nodes` holds a node of `kinds`, not looking inside nested
    scopes or inside nodes of the types `stop`."""
    stack = list(nodes)
    while stack:
        item = stack.pop()
        if isinstance(item, kinds):
            return True
        if isinstance(item, _SCOPES) or isinstance(item, stop):
            continue
        stack.extend(ast.iter_child_nodes(item))
    return False


class Analysis:
    """Liveness and maybe-defined sets for every statement of one function body.

    `live_in[stmt]`, `live_out[stmt]` and `defined_in[stmt]` are sets of names; for loops,
    `live_out` of the loop's body is the live set at the loop head. `extra_reads[loop]` lists
    expressions read at a loop's head besides its test (a `for` loop's extra test)."""

    def __init__(self, function_node, extra_reads=None):
        self.live_in, self.live_out, self.defined_in = {}, {}, {}
        self.extra_reads = extra_reads or {}
        self.locals = set()
        for stmt in function_node.body:
            self.locals |= bound_names(stmt)
        args = function_node.args
        params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        params += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
        self.locals |= set(params)
        self.global_names, self.nonlocal_names = set(), set()  # declared: not local state
        for item in _walk_scope(function_node):
            if isinstance(item, ast.Global):
                self.global_names.update(item.names)
            elif isinstance(item, ast.Nonlocal):
                self.nonlocal_names.update(item.names)
        self.locals -= self.global_names | self.nonlocal_names
        self._block_live(function_node.body, set())
        self._block_defined(function_node.body, set(params))

    # -- liveness (backward) ----------------------------------------------------------------------
    def _block_live(self, stmts, live_out):
        live = set(live_out)
        for stmt in reversed(stmts):
            self.live_out[stmt] = live
            live = self._stmt_live(stmt, live)
            self.live_in[stmt] = live
        return live

    def _stmt_live(self, stmt, out):
        if isinstance(stmt, ast.If):
            return (read_names(stmt.test) | self._block_live(stmt.body, out)
                    | self._block_live(stmt.orelse, out))
        if isinstance(stmt, (ast.While, ast.For, ast.AsyncFor)):
            return self._loop_live(stmt, out)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            heads = set()
            for item in stmt.items:
                heads |= read_names(item.context_expr)
            targets = set()
            for item in stmt.items:
                if item.optional_vars is not None:
                    targets |= bound_names(item.optional_vars)
            return heads | (self._block_live(stmt.body, out) - targets)
        if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            after = self._block_live(stmt.finalbody, out) | out
            handlers = set()
            for handler in stmt.handlers:
                handlers |= self._block_live(handler.body, after)
                if handler.type is not None:
                    handlers |= read_names(handler.type)
            orelse = self._block_live(stmt.orelse, after)
            return self._block_live(stmt.body, orelse | handlers | after) | handlers
        if isinstance(stmt, (ast.Return, ast.Raise)):
            return read_names(stmt)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return (out - {stmt.name}) | read_names(stmt)
        if isinstance(stmt, ast.Match):
            live = read_names(stmt.subject)
            for case in stmt.cases:
                live |= self._block_live(case.body, out) | read_names(case.pattern)
                if case.guard is not None:
                    live |= read_names(case.guard)
            return live | out
        kills = bound_names(stmt) if not isinstance(stmt, ast.AugAssign) else set()
        return (out - kills) | read_names(stmt)

    def _loop_live(self, stmt, out):
        head_reads = set()
        for expr in self.extra_reads.get(stmt, ()):
            head_reads |= read_names(expr)
        if isinstance(stmt, ast.While):
            head_reads |= read_names(stmt.test)
            targets = set()
        else:
            targets = bound_names(stmt.target)
            head_reads |= read_names(stmt.target) - targets  # a[i] as a target reads a, i
        exit_live = self._block_live(stmt.orelse, out)
        head = head_reads | exit_live
        while True:
            body_in = self._block_live(stmt.body, head)
            new = head | head_reads | exit_live | (body_in - targets)
            if new == head:
                break
            head = new
        self.live_out[("head", stmt)] = head
        if isinstance(stmt, ast.While):
            return head
        return head | read_names(stmt.iter)

    # -- maybe-defined (forward) ------------------------------------------------------------------
    def _block_defined(self, stmts, defined):
        current = set(defined)
        for stmt in stmts:
            self.defined_in[stmt] = set(current)
            current = self._stmt_defined(stmt, current)
        return current

    def _stmt_defined(self, stmt, defined):
        if isinstance(stmt, ast.If):
            before = defined | bound_names(stmt.test)
            return self._block_defined(stmt.body, before) | self._block_defined(stmt.orelse,
                                                                                before)
        if isinstance(stmt, (ast.While, ast.For, ast.AsyncFor)):
            head = defined | (bound_names(stmt.target) if not isinstance(stmt, ast.While)
                              else bound_names(stmt.test))
            inner = self._block_defined(stmt.body, head)
            # a second pass sees what the first iteration may have defined
            inner = self._block_defined(stmt.body, head | inner)
            return self._block_defined(stmt.orelse, head | inner)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            return self._block_defined(stmt.body, defined | bound_names_of_items(stmt))
        if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            body = self._block_defined(stmt.body, defined)
            out = self._block_defined(stmt.orelse, body)
            for handler in stmt.handlers:
                names = {handler.name} if handler.name else set()
                out |= self._block_defined(handler.body, defined | body | names)
            return self._block_defined(stmt.finalbody, out)
        if isinstance(stmt, ast.Match):
            out = set(defined)
            for case in stmt.cases:
                out |= self._block_defined(case.body, defined | bound_names(case.pattern))
            return out
        return defined | bound_names(stmt)

    # -- what a converted statement carries -------------------------------------------------------
    def modified(self, stmts):
        """Local names the statements may bind (their state candidates), in a stable order."""
        names = set()
        for stmt in stmts:
            names |= bound_names(stmt)
        return sorted(names & self.locals)

    def if_state(self, node):
        """(outputs, inputs_only) of an if statement: modified names live after it, then
        modified names only read inside it."""
        modified = self.modified(node.body + node.orelse)
        out = self.live_out[node]
        live_in = self.live_in[node]
        outputs = [n for n in modified if n in out]
        inputs = [n for n in modified if n not in out and n in live_in]
        return outputs, inputs

    def loop_state(self, node, extra=()):
        """The loop variables: names modified in the loop (its target, `extra` names such as
        flags) live at its head or after it."""
        stmts = list(node.body)
        modified = set(self.modified(stmts))
        if not isinstance(node, ast.While):
            modified |= bound_names(node.target) & self.locals
        modified |= set(extra) & self.locals
        head = self.live_out[("head", node)]
        after = self.live_out[node]
        return sorted(n for n in modified if n in head or n in after)

    def undefined_before(self, node, names):
        """The names that no path defines before `node`."""
        defined = self.defined_in.get(node, set())
        return [n for n in names if n not in defined]


def bound_names_of_items(stmt):
    out = set()
    for item in stmt.items:
        if item.optional_vars is not None:
            out |= bound_names(item.optional_vars)
    return out

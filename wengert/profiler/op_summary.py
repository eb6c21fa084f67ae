"""The text table of the most expensive ops of a profile.

Events of ops and kernels (of every step, or of one `Trace` step) are grouped by op type (or
by op name); for each group the table gives the total self time (an op's time less that of the
ops it ran inside it: a While or If kernel whose body's kernels are in the profile too, so no
time counts twice), the number of calls, the average time per call and the share of the total
time of all recorded ops, sorted by total time, most expensive first. Regions (`Trace`
blocks) and Python calls are not ops and are left out: they contain the ops they time.
"""

__all__ = ["op_totals", "format_table", "self_times"]


def op_totals(events, group_by="type", step=None):
    """[(key, total_ns, calls)] of the ops and kernels in `events` (those of Trace step `step`
    only, when given), most expensive first."""
    if group_by not in ("type", "name"):
        raise ValueError(f"summary_table: group_by must be 'type' or 'name', got {group_by!r}.")
    index = 2 if group_by == "type" else 1
    ops = [e for e in events if (e[0] == "op" or e[0] == "kernel") and
           (step is None or e[6] == step)]
    totals = {}
    for event, own in zip(ops, self_times(ops)):
        entry = totals.setdefault(event[index], [0, 0])
        entry[0] += own
        entry[1] += 1
    return sorted(((k, t, n) for k, (t, n) in totals.items()), key=lambda r: -r[1])


def self_times(ops):
    """Each op's time less that of the ops it ran inside it on its thread (a While, If or
    function call whose body's kernels were timed too), so no time counts twice."""
    own = [e[5] - e[4] for e in ops]
    order = sorted(range(len(ops)), key=lambda i: (ops[i][3], ops[i][4], -ops[i][5]))
    open_ = []  # indices of the ops enclosing the current one (same thread), outermost first
    for i in order:
        thread, start, end = ops[i][3], ops[i][4], ops[i][5]
        while open_ and (ops[open_[-1]][3] != thread or ops[open_[-1]][5] < end):
            open_.pop()
        if open_ and ops[open_[-1]][4] <= start:
            own[open_[-1]] -= end - start
        open_.append(i)
    return own


def format_table(rows, limit=20):
    """The rows of `op_totals` as an aligned text table (at most `limit` rows)."""
    grand = sum(r[1] for r in rows) or 1
    shown = rows if limit is None else rows[:limit]
    width = max([len("Op")] + [len(str(r[0])) for r in shown])
    lines = [f"{'Op':<{width}}  {'Total (ms)':>11}  {'Calls':>7}  {'Average (us)':>12}  "
             f"{'Share':>6}"]
    for key, total, calls in shown:
        lines.append(f"{str(key):<{width}}  {total / 1e6:>11.3f}  {calls:>7d}  "
                     f"{total / calls / 1e3:>12.2f}  {100.0 * total / grand:>5.1f}%")
    lines.append(f"{'Total':<{width}}  {grand / 1e6 if rows else 0.0:>11.3f}  "
                 f"{sum(r[2] for r in rows):>7d}")
    return "\n".join(lines)

"""`keras.utils.Progbar`: a text progress bar for a loop of `target` steps.

`update(current, values)` moves the bar to step `current`; each (name, value) of `values` is
shown as a running mean weighted by the steps it covered (sum v * (current - previous) /
steps), except names in `stateful_metrics`, shown as given (with `stateless_metrics` instead,
only those names are averaged). At the final step (current >= target, or finalize=True) a
value counts as given. verbose=1 redraws one line (on stdout, see interactive_logging) at most
every `interval` seconds; verbose=2 prints one line when the bar finishes; verbose=0 is silent.
`add(n, values)` is update(seen + n, values).
"""
import math
import time

import numpy as np

from .interactive_logging import print_msg

__all__ = ["Progbar"]


def _format_value(avg):
    return f" {avg:.4f}" if abs(avg) > 1e-3 else f" {avg:.4e}"


def _format_time(seconds, unit_name):
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit_name}"
    if seconds >= 1e-3:
        return f" {seconds * 1e3:.0f}ms/{unit_name}"
    return f" {seconds * 1e6:.0f}us/{unit_name}"


class Progbar:
    """A progress bar of `target` steps (None: unknown) showing averaged values."""

    def __init__(self, target, width=20, verbose=1, interval=0.05, stateful_metrics=None,
                 stateless_metrics=None, unit_name="step"):
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError("Progbar: give only one of `stateful_metrics` (names shown as "
                             "given, others averaged) and `stateless_metrics` (names averaged, "
                             "others shown as given).")
        self.target, self.width, self.verbose = target, width, verbose
        self.interval, self.unit_name = interval, unit_name
        self.stateful_metrics = None if stateless_metrics is not None else set(
            stateful_metrics or ())
        self.stateless_metrics = None if stateless_metrics is None else set(stateless_metrics)
        self._seen_so_far = 0
        self._values, self._values_order = {}, []
        self._start = time.time()
        self._last_update = 0.0
        self._first_step_time = None
        self._prev_width = 0

    def _averaged(self, name):
        if self.stateful_metrics is not None:
            return name not in self.stateful_metrics
        return name in self.stateless_metrics

    def _record(self, current, values, finalize):
        for name, value in values or []:
            if name not in self._values_order:
                self._values_order.append(name)
            value = float(np.mean(np.asarray(value)))
            if not self._averaged(name) or finalize:
                self._values[name] = [value, 1]
                continue
            weight = max(current - self._seen_so_far, 1)
            total, count = self._values.get(name, [0.0, 0])
            self._values[name] = [total + value * weight, count + weight]

    def value(self, name):
        """The value shown for `name`: its running mean (or last value when not averaged)."""
        total, count = self._values[name]
        return total / max(1, count)

    def _metrics_text(self):
        return "".join(f" - {k}:{_format_value(self.value(k))}" for k in self._values_order)

    def _time_per_step(self, current, now):
        if not current:
            return 0.0
        if self._first_step_time is None:
            self._first_step_time = now - self._start
            return self._first_step_time
        if current == 1:
            return self._first_step_time
        return (now - self._start - self._first_step_time) / (current - 1)

    def update(self, current, values=None, finalize=None):
        """Move to step `current`, folding in `values` [(name, value), ...]."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        self._record(current, values, finalize)
        self._seen_so_far = current
        now = time.time()
        per_step = self._time_per_step(current, now)
        if self.verbose == 1 and (finalize or now - self._last_update >= self.interval):
            self._draw(current, now, per_step, finalize)
        elif self.verbose == 2 and finalize and self.target:
            digits = int(math.log10(self.target)) + 1
            print_msg(f"{current:{digits}d}/{self.target} - {now - self._start:.0f}s -"
                      f"{_format_time(per_step, self.unit_name)}{self._metrics_text()}")
        self._last_update = now

    def _draw(self, current, now, per_step, finalize):
        if self.target:
            digits = int(math.log10(self.target)) + 1
            done = int(self.width * min(current / self.target, 1.0))
            bar = f"{current:{digits}d}/{self.target} " + "━" * done + "─" * (self.width - done)
        else:
            bar = f"{current:7d}/Unknown"
        if self.target and not finalize:
            eta = per_step * (self.target - current)
            info = f" {eta // 60:.0f}:{eta % 60:02.0f}" if eta > 60 else f" {eta:.0f}s"
        else:
            info = f" {now - self._start:.0f}s"
        line = bar + info + _format_time(per_step, self.unit_name) + self._metrics_text()
        padding = " " * max(self._prev_width - len(line), 0)
        self._prev_width = len(line)
        print_msg("\r" + line + padding + ("\n" if finalize else ""), line_break=False)

    def add(self, n, values=None):
        """Advance by `n` steps."""
        self.update(self._seen_so_far + n, values)

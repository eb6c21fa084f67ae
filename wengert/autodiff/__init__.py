"""Automatic differentiation: the reverse pass, GradientTape, and (later) forward mode."""

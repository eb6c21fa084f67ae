"""Op families. Each module declares its ops (kernel, gradient, shape rule) and public functions."""

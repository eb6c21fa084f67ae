"""The demo run by the README's first command: TensorFlow's classic GradientTape examples.

    python -m wengert.demo
"""
import wengert as tf


def main():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    print(f"y = x^2 at x = 3:             y = {float(y):g}, dy/dx = {float(tape.gradient(y, x)):g}")

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    print(f"z = (x*x)^2, persistent tape: dz/dx = {float(tape.gradient(z, x)):g}, "
          f"dy/dx = {float(tape.gradient(y, x)):g}")
    del tape

    x = tf.ones((2, 2))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x)
        z = y * y
    print(f"x = ones((2,2)), y = sum(x), z = y*y: dz/dy = {float(tape.gradient(z, y)):g}")

    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.relu(tf.matmul(w, w) - 10.0))
    print("d/dw sum(relu(w @ w - 10)) =\n", tape.gradient(loss, w).numpy())


if __name__ == "__main__":
    main()

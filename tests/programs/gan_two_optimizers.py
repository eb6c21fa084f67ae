"""A tiny GAN trained by a hand-written loop in the style of TensorFlow's DCGAN tutorial: two
models, two optimizers, two tapes in one tf.function step, binary cross-entropy from logits;
fixed noise from a seeded NumPy generator so that both frameworks see the same numbers."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(3)


def dense_model(sizes, final_activation=None):
    layers = [tf.keras.layers.Dense(n, activation="relu") for n in sizes[1:-1]]
    layers.append(tf.keras.layers.Dense(sizes[-1], activation=final_activation))
    model = tf.keras.Sequential([tf.keras.Input(shape=(sizes[0],))] + layers)
    model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.3
                       for w in model.get_weights()])
    return model


generator = dense_model([4, 16, 2])
discriminator = dense_model([2, 16, 1])
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
generator_optimizer = tf.keras.optimizers.Adam(1e-3)
discriminator_optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(real, noise):
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        fake = generator(noise, training=True)
        real_output = discriminator(real, training=True)
        fake_output = discriminator(fake, training=True)
        gen_loss = cross_entropy(tf.ones_like(fake_output), fake_output)
        disc_loss = (cross_entropy(tf.ones_like(real_output), real_output)
                     + cross_entropy(tf.zeros_like(fake_output), fake_output))
    gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    generator_optimizer.apply_gradients(zip(gen_grads, generator.trainable_variables))
    discriminator_optimizer.apply_gradients(zip(disc_grads, discriminator.trainable_variables))
    return gen_loss, disc_loss


real_data = (rng.normal(size=(8, 32, 2)) * 0.5 + [2.0, -1.0]).astype("float32")
noise_data = rng.normal(size=(8, 32, 4)).astype("float32")
for step in range(8):
    g, d = train_step(tf.constant(real_data[step]), tf.constant(noise_data[step]))
    print(f"step {step}: generator {float(g):.5f} discriminator {float(d):.5f}")
print("iterations:", int(generator_optimizer.iterations), int(discriminator_optimizer.iterations))
sample = generator(tf.constant(noise_data[0][:2]), training=False)
print("samples:", np.round(sample.numpy(), 4).tolist())

"""A TensorFlow 1 GAN skeleton as papers' code wrote it: generator and discriminator in their own
variable scopes, the discriminator shared between real and fake inputs through reuse_variables(),
variable lists filtered by scope name, two optimizers with their own var_list and a global step,
then AUTO_REUSE and a template."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()


def generator(z):
    with tf.variable_scope("generator"):
        w = tf.get_variable("w", [2, 4], initializer=tf.constant_initializer(0.2))
        b = tf.get_variable("b", [4], initializer=tf.constant_initializer(0.0))
        return tf.nn.tanh(tf.matmul(z, w) + b)


def discriminator(x, reuse=False):
    with tf.variable_scope("discriminator") as scope:
        if reuse:
            scope.reuse_variables()
        w = tf.get_variable("w", [4, 1], initializer=tf.constant_initializer(0.3))
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        return tf.identity(tf.matmul(x, w) + b, name="logits")


z = tf.placeholder(tf.float32, [None, 2], name="z")
real = tf.placeholder(tf.float32, [None, 4], name="real")
fake = generator(z)
d_real = discriminator(real)
d_fake = discriminator(fake, reuse=True)
print("logits:", d_real.name, d_fake.name)
xent = tf.nn.sigmoid_cross_entropy_with_logits
d_loss = tf.reduce_mean(xent(logits=d_real, labels=tf.ones_like(d_real))
                        + xent(logits=d_fake, labels=tf.zeros_like(d_fake)))
g_loss = tf.reduce_mean(xent(logits=d_fake, labels=tf.ones_like(d_fake)))
t_vars = tf.trainable_variables()
d_vars = [v for v in t_vars if v.name.startswith("discriminator")]
g_vars = tf.trainable_variables(scope="generator")
print("d_vars:", [v.op.name for v in d_vars], "g_vars:", [v.name for v in g_vars])
step = tf.train.get_or_create_global_step()
d_opt = tf.train.GradientDescentOptimizer(0.1).minimize(d_loss, var_list=d_vars,
                                                        global_step=step)
g_opt = tf.train.MomentumOptimizer(0.1, 0.9).minimize(g_loss, var_list=g_vars)
print("globals:", [v.name for v in tf.global_variables()])
zs = np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2)
rs = np.linspace(0, 1, 32, dtype=np.float32).reshape(8, 4)
with tf.Session() as sess:
    print("uninitialized:", len(sess.run(tf.report_uninitialized_variables())))
    sess.run(tf.global_variables_initializer())
    for i in range(5):
        _, dl = sess.run([d_opt, d_loss], {z: zs, real: rs})
        _, gl = sess.run([g_opt, g_loss], {z: zs})
    print(f"d_loss {dl:.5f} g_loss {gl:.5f} step {sess.run(step)}")
    print("d_w:", np.round(sess.run(d_vars[0]).ravel(), 4).tolist())
    with tf.variable_scope("discriminator", reuse=tf.AUTO_REUSE):
        print("shared:", tf.get_variable("w") is d_vars[0])
    scale = tf.make_template("scale", lambda x: x * tf.get_variable(
        "s", [], initializer=tf.constant_initializer(2.0)))
    a, b = scale(tf.constant(1.0)), scale(tf.constant(3.0))
    sess.run(tf.variables_initializer(scale.variables))
    print("template:", [v.name for v in scale.variables], sess.run([a, b]))

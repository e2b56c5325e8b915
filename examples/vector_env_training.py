"""A training loop on the native vector environment: one learning seat against
random bots, a linear softmax policy over the legal moves, REINFORCE on the
points each game ends with (docs/rules.md §6).  NumPy only; swap the policy
for your network (its logits masked by ``legal_ids`` / ``action_mask``)."""

import numpy as np

from ddzcore import VectorEnv

K, SEAT = 256, 0
env = VectorEnv(K, rules="standard", encoding="compact", seed=0, seats=(SEAT,), bot="random")
codes = env.space.codes
# One feature row per action id: cards in the move (scaled), pass, is a bomb or rocket.
ncards = sum(((codes["cards"] >> np.uint64(4 * r)) & np.uint64(0xF)).astype(np.float32) for r in range(15))
combo = (codes["info"] & np.uint64(31)).astype(np.int64)
phi = np.stack([ncards / 20, combo == 0, (combo == 13) | (combo == 14)], axis=1).astype(np.float32)
w = np.zeros(3, np.float32)
rng = np.random.default_rng(0)
rows = np.arange(K)
obs, info = env.reset()
grads = np.zeros((K, 3), np.float32)       # sum of grad log pi over the game so far, per env
returns: list[float] = []
for step in range(300):
    n = env.n_legal
    ids = env.legal_ids[:, : n.max()]                      # (K, L) padded legal ids
    valid = np.arange(ids.shape[1]) < n[:, None]
    logits = np.where(valid, phi[ids] @ w, -np.inf)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    pick = (p.cumsum(axis=1) < rng.random((K, 1))).sum(axis=1).clip(max=n - 1)
    action = ids[rows, pick]
    grads += phi[action] - np.einsum("kl,klf->kf", np.where(valid, p, 0), phi[ids])
    obs, rewards, terminations, truncations, info = env.step(action)
    done = terminations | truncations
    if done.any():                                          # REINFORCE: reward x grad log pi of the game
        r = rewards[done, SEAT]
        w += 0.01 * (r[:, None] * grads[done]).mean(axis=0)
        grads[done] = 0
        returns += r.tolist()
print(f"games {len(returns)}, mean points {np.mean(returns):+.3f}")
print("weights (cards, pass, bomb):", np.round(w, 3))

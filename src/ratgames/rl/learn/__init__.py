"""Learning in numpy alone: a masked PPO learner over the batched environments
(:mod:`ratgames.rl.learn.ppo`), its network with hand-written backpropagation and Adam
(:mod:`ratgames.rl.learn.network`), a bot that plays a trained policy
(:mod:`ratgames.rl.learn.policy`, ``--bots policy:file=...``) and records as training data
(:mod:`ratgames.rl.learn.dataset`).  ``ratgames train`` and ``ratgames dataset`` run them from
the command line; ``docs/research.md`` shows the learning curves and the shipped policies.
"""

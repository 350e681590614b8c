"""DP machine learning (lesson 08).

Modules
-------
- model: the classifiers trained (softmax regression, one hidden layer) and their per-example gradients
- dpsgd: DP-SGD in NumPy (per-example clipping, Gaussian noise, Poisson sampling)
- accounting: DP-SGD's privacy with dp-accounting (RDP, PLD) and the classic composition rules
"""

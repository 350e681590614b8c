"""Privacy budgets: a ledger, a database that refuses to overspend, Gaussian DP (lessons 03, 04, 06).

Modules
-------
- ledger: the privacy accountant, composition theorems and conversions
- private_database: a database that answers counts and sums only within its budget
- gdp: Gaussian differential privacy (Dong, Roth and Su 2022)
- zcdp: zCDP to (epsilon, delta) with Canonne, Kamath and Steinke's conversion (2020)
"""

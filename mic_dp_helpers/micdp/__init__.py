"""MIC-guided noise allocation and the audit of the published MIC-DP claim (lesson 05).

Modules
-------
- relevance: MIC, Pearson and Mahalanobis relevance scores
- allocation: splitting a budget across features
- release_utility: how useful a release is for prediction
- published: the published MIC-DP method, as shipped
"""

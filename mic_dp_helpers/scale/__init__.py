"""DP with production libraries and at scale: PyDP, PipelineDP and Spark (lessons 04, 09).

Modules
-------
- pydp_tools: Google's DP library through PyDP, with the course's ledger
- pydp_error: the predicted error (clamping bias, noise) of PyDP's bounded mean
- pipeline: contribution bounding, partition selection and PipelineDP pipelines
- spark: starting Spark for a lesson
"""

"""What the tests share: one caller of the SQL API (caller.py), the knowledge tests' caller
and vocabulary (knowledge.py) and the bi-temporal reference model (knowledge_model.py).

The package imports nothing on its own, so ``bench`` can import the reference model without
pulling in pytest or the test harness.
"""

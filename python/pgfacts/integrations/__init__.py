"""Adapters of pgfacts to other frameworks, one module each, each behind its own extra
(``pip install 'pgfacts[langgraph]'``). ``import pgfacts`` imports none of them."""

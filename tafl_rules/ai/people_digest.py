"""The sha256 of ``people-model.json``, written with the model by ``benchmarks/train_people.py``
(the board's worker fetches the model by it: :func:`tafl_rules.ai.people.browser_model_name`)."""

MODEL_DIGEST = "350d97a726858889b6f62887346cb96b1a6215e87d6cf0aececcd78b0a4484c4"

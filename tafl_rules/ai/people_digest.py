"""The sha256 of ``people-model.json``, written with the model by ``benchmarks/train_people.py``
(the board's worker fetches the model by it: :func:`tafl_rules.ai.people.browser_model_name`)."""

MODEL_DIGEST = "83b502bce99812a0edd7bec43e64c7cc130ce5aaf9003f201c05ecd4e09958f5"

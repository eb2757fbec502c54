"""The sha256 of ``people-model.json``, written with the model by ``benchmarks/train_people.py``
(the board's worker fetches the model by it: :func:`tafl_rules.ai.people.browser_model_name`)."""

MODEL_DIGEST = "0ef01f44d78cf1d86e8b70536b10a7f047edcca493839d28dc6e00e3c81944c5"

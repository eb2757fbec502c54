"""The sha256 of ``people-model.json``, written with the model by ``benchmarks/train_people.py``
(the board's worker fetches the model by it: :func:`tafl_rules.ai.people.browser_model_name`)."""

MODEL_DIGEST = "aca3d0330d89198cec43b3cee7561969383eb0d218d119b012ab4c929d1a3298"

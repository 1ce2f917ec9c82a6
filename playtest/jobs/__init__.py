"""Generic chunked background runs.

A job kind registers two pure functions:

- ``play_chunk(params, seed, first_game, games) -> dict``: plays games ``first_game`` to
  ``first_game + games - 1``. Each game must derive its randomness from ``(seed, game_number)``
  only, so the same seed gives the same results whatever the chunking or the number of workers.
- ``merge(partials, params) -> dict``: combines the chunks' results (given in chunk order)
  into the run's final result.

A **staged** kind (a tuning race) plans its games a stage at a time, from the merged results of the stages
before; it registers two more functions:

- ``next_stage(params, stages) -> plan | None``: ``stages`` are the finished stages, ``[{"plan", "result"}]`` in
  order (empty for the first). A plan is a dict with ``"games"`` (this stage's games, within what is left of
  the run's budget, ``games``) and whatever the chunks need; None ends the run. It must depend on its
  arguments only, so a run's stages are the same whatever the chunking and the workers.
- ``conclude(params, stages) -> dict``: the run's result from every stage.
- ``shortfall(params, stages, short) -> str`` (optional): why a finished run played ``short`` games fewer than its
  budget, for its page.

A stage's chunks get ``params`` with the plan under ``"stage"`` and number their games from 0 within the
stage; ``merge`` makes the stage's result from them. Each stage's plan is stored before its chunks are sent.

A staged kind may also register ``prepare(params) -> params``: the work a submission should not wait for (a tuning
run's shortlist). The run then starts with a preparation stage (plan ``{"games": 0, "prepare": True}``, one chunk of
no games): the worker that takes it stores the completed parameters, and the first stage of games is planned from
them. ``next_stage``, ``conclude`` and ``shortfall`` never see the preparation stage.

Services in ``playtest.jobs.services`` submit, dispatch, execute, cancel and reap runs; the
Celery tasks in ``playtest.tasks`` are thin wrappers around them.
"""

"""Generic chunked background runs.

A job kind registers two pure functions:

- ``play_chunk(params, seed, first_game, games) -> dict``: plays games ``first_game`` to
  ``first_game + games - 1``. Each game must derive its randomness from ``(seed, game_number)``
  only, so the same seed gives the same results whatever the chunking or the number of workers.
- ``merge(partials, params) -> dict``: combines the chunks' results (given in chunk order)
  into the run's final result.

Services in ``playtest.jobs.services`` submit, dispatch, execute, cancel and reap runs; the
Celery tasks in ``playtest.tasks`` are thin wrappers around them.
"""

"""The rules of the game in plain Python: board, editions, notation, scoring, draws, word lists, the top
finder, rule sets, tracking, end of game and rankings. Nothing here imports Django or an app of the project
(tests/scoring/test_engine_boundary.py proves it); the Django side of `scoring` adapts to it."""

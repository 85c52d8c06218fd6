"""The rules of the game in plain Python: board, editions, notation, scoring, draws, word lists, the top
finder, rule sets, tracking, end of game and rankings. Nothing here imports Django or an app of the project
(tests/test_boundaries.py proves it); the Django side of `scoring` adapts to it."""

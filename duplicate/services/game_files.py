"""A game file sent to the site (a session or a simultané created from it): read with the site's editions and the
rules chosen, its size checked before anything is read. The file's format and its checks are `duplicate.games`'."""

from scoring.models import Edition, RuleSet

from .. import games


def read_game_file(upload, rule_set: RuleSet) -> tuple[Edition, list[games.GameRound]]:
    """The edition and moves (`games.GameRound`s) of an uploaded game file, checked with `rule_set`; its size is
    checked before anything is read. Raises `DuplicateError` with the French reason."""
    if upload.size > games.MAX_FILE_BYTES:
        raise games.too_big()
    rules = RuleSet.objects.engine(rule_set.code)

    def engines(code):
        edition = Edition.objects.named(code).first()
        return None if edition is None else (Edition.objects.engine(edition.code), rules)

    code, rounds = games.game_from_file(upload.read(), engines)
    return Edition.objects.get(code=code), rounds

"""Replay GCG game records through the engine and report every move whose written score differs."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.engine.errors import ScoringError
from scoring.engine.gcg import decode_gcg, edition_code, parse_gcg, replay_gcg
from scoring.models import Edition, RuleSet


class Command(BaseCommand):
    help = (
        "Rejoue des parties GCG et signale chaque coup dont le score écrit diffère du calcul "
        "(fichier, ligne, écrit, calculé). Les coups retirés (--) sont ignorés."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument(
            "--edition",
            help="Édition (code ou nom anglais : french, english…). Par défaut : #tile-distribution, sinon fr.",
        )

    def handle(self, *files, **options):
        checked = mismatches = 0
        for path in options["files"]:
            try:
                game = parse_gcg(decode_gcg(path.read_bytes()))
            except OSError as error:
                raise CommandError(f"{path}: {error.strerror}") from error
            except ScoringError as error:
                raise CommandError(f"{path}: {error.message}") from error
            code = edition_code(options["edition"] or game.pragmas.get("tile-distribution", "fr"))
            try:
                edition = Edition.objects.engine(code)
            except ScoringError as error:
                raise CommandError(error.message) from error
            for move in replay_gcg(game, edition, RuleSet.objects.engine()):
                checked += 1
                if move.computed != move.event.score:
                    mismatches += 1
                    computed = move.computed if move.play else f"injouable ({move.error})"
                    self.stdout.write(f"{path}:{move.event.line}: écrit {move.event.score}, calculé {computed}")
        self.stdout.write(f"{checked} moves checked, {mismatches} mismatches")
        if mismatches:
            raise SystemExit(1)

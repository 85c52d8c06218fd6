"""Issue 23: the XLSX file of a large session. Under `make run` (no broker) an export runs within the request; the
workbook, kept whole in memory, looked for its last row at each row appended, and 2,000 players × 20 moves took 22 s
(14 s of CPU) of a web worker. It is now written as it streams."""

import io
import time

import pytest
from openpyxl import load_workbook

from duplicate import exports
from duplicate.models import Result, Round

from .conftest import make_session

pytestmark = pytest.mark.django_db

# Five moves keep the test's own writing of 10,000 results short; the file's cost grew with the players.
PLAYERS, MOVES = 2000, 5
CPU_SECONDS = 3  # 0.5 s here, on a machine shared with other work; the whole workbook kept in memory took 13 s


@pytest.fixture
def big_room(alice):
    """A personal session of 2,000 players at tables 1 to 2,000 over 5 moves of 30 points, each player scoring
    the remainder of his table by 31 on each, an avertissement on move 2 for every tenth table."""
    session = make_session(alice, players=[f"Joueur {table}" for table in range(1, PLAYERS + 1)])
    rounds = Round.objects.bulk_create(
        Round(session=session, number=number, draw="AEINRST", top="H4 SATINER", top_score=30)
        for number in range(1, MOVES + 1)
    )
    Result.objects.bulk_create(
        Result(
            round=round_, player=player, score=player.table % 31, warning=round_.number == 2 and player.table % 10 == 0
        )
        for round_ in rounds
        for player in session.players.all()
    )
    return session


def test_the_xlsx_of_2000_players_is_built_in_a_few_seconds_of_cpu(big_room):
    started = time.process_time()
    content = exports.build(big_room, "xlsx")
    spent = time.process_time() - started
    assert spent < CPU_SECONDS, f"{spent:.1f} s of CPU"
    sheet = load_workbook(io.BytesIO(content), read_only=True)["Classement"]
    rows = list(sheet.values)
    assert len(rows) == 3 + 1 + 1 + PLAYERS  # the title, the header, the tops, a row a player
    assert rows[3][:3] == ("Place", "Table", "Nom") and rows[3][-2:] == ("Coup 5", "Coup 5 : notes")
    assert rows[4][:7] == ("Tops", None, None, None, None, None, 150)
    assert (rows[5][0], rows[5][1] % 31, rows[5][6]) == (1, 30, 150)  # 30 points on each move
    assert (rows[-1][1] % 31, rows[-1][6]) == (0, 0)
    assert sorted(row[1] for row in rows[5:]) == list(range(1, PLAYERS + 1))

"""Issue 15: a classic game seen again: the board move by move, the scores as a chart, the end-of-game
adjustments, the racks (from GCG or typed) and the best moves they allowed, with the points left on the table."""

import pytest
from django.core.cache import cache

from scoring.engine.gcg import decode_gcg
from scoring.engine.movegen import OutOfTime, Ranking
from scoring.models import RuleSet
from sheets import review as review_module
from sheets import services
from sheets.gcg_files import game_from_gcg, game_to_gcg
from sheets.models import Line
from sheets.review import build_review, find_tops

from ..scoring.conftest import oracle_path
from .test_gcg import play_vague_and_avions

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()  # the best moves found are kept in the shared cache: each test searches afresh


def woogles_game(owner):
    text = decode_gcg(oracle_path("woogles_fra24_TfnqTZkYPL.gcg").read_bytes())
    game, _notes = game_from_gcg(owner=owner, text=text, rule_set=RuleSet.objects.get(code="tournoi"))
    return game


def reviewed(game):
    review = build_review(game)
    find_tops(review, game, refusal=lambda: "")
    return review


def test_the_woogles_game_replayed_with_its_best_moves(client, alice, settings):
    # The page's searches share one time limit; this test checks what they find, not how fast (make bench does):
    # on a machine busy with other work the limit would leave later racks unsearched.
    settings.SEARCH_TIME_LIMIT = 120
    game = woogles_game(alice)
    review = reviewed(game)
    steps = review.steps
    assert len(steps) == 24  # two exchanges and 22 plays, each one step
    assert [(s.line.kind, s.line.move, s.line.points, s.line.rack) for s in steps[:5]] == [
        ("exchange", "", 0, "GMNNPRY"),
        ("play", "H4 VERBE", 28, "ABEEGRV"),
        ("exchange", "", 0, "?MNPRTW"),
        ("play", "5C FILAGE", 20, "AAFGIIL"),
        ("play", "F4 MAX", 33, "?MNSTUX"),
    ]
    # Each step's board is the one the move was played on, its new tiles marked.
    assert steps[1].board_before.is_empty and not steps[2].board_before.is_empty
    new = [cell["name"] for _letter, cells in steps[1].cells for cell in cells if cell["new"]]
    assert new == ["H4", "H5", "H6", "H7", "H8"]
    scores = [(player.display_name, total) for player, total in steps[4].scores]
    assert scores == [("Thomas POTIER", 33), ("HastyBot", 48)]
    # The best moves of the rack on that board (the free list), and the points left on the table.
    assert steps[0].tops.moves[0] == ("H6 GYM", 28) and steps[0].points_left == 28
    assert steps[4].tops.moves[:2] == [("4B MiX", 50), ("D4 MIeUX", 48)] and steps[4].points_left == 17
    assert steps[5].tops.moves[0] == ("G8 HALERAI", 67) and steps[5].points_left == 0
    assert steps[8].tops.moves[0] == ("12D ImPROUVA", 76) and steps[8].points_left == 5
    assert [s.points_left for s in steps] == [
        28, 0, 42, 2, 17, 0, 0, 4, 5, 6, 0, 10, 8, 10, 0, 0, 8, 0, 0, 0, 17, 0, 0, 0,
    ]  # fmt: skip
    # EMIENT at O10 is worth 32, more than anything the free list allows there: a word of it is not in the list.
    assert steps[21].line.move == "O10 EMIENT" and steps[21].tops.best == 29 and steps[21].played_beats_list
    # The chart ends on the final scores (FISF rule: HastyBot +13, Thomas POTIER -13).
    assert [(series.name, series.last) for series in review.chart.series] == [("Thomas POTIER", 388), ("HastyBot", 490)]
    assert review.chart.x_ticks[-1][1] == "Fin"

    client.force_login(alice)
    html = client.get(f"/parties/{game.pk}/revoir/").content.decode()
    assert "Points laissés sur la table : <strong>17</strong>" in html
    assert "Liste libre Grammalecte (Dicollecte) »), pas de l'ODS" in html
    assert "4B MiX</span> <strong>50</strong>" in html
    assert "Le coup joué vaut plus que tous ceux trouvés : un de ses mots manque à la liste libre." in html
    assert "Décompte des lettres restantes : Le finisseur gagne les lettres des autres, qui les perdent (FISF)." in html
    assert "<td>Thomas POTIER</td><td>401</td><td>EEGQS</td><td>-13</td><td><strong>388</strong></td>" in html
    assert html.count('class="replay-step"') == 25  # the 24 turns and the end of the game
    assert html.count("<polyline") == 2


def test_best_moves_come_from_the_shared_cache_the_second_time(alice, monkeypatch):
    game = woogles_game(alice)
    reviewed(game)

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(review_module, "best_moves", no_search)
    assert reviewed(game).steps[4].points_left == 17


def test_a_search_cut_short_says_so(client, alice, game, monkeypatch):
    client.force_login(alice)
    play_vague_and_avions(client, game)
    services.line_set_rack(line=game.lines.first(), rack="VAGUEST")

    def out_of_time(*args, **kwargs):
        raise OutOfTime("…", Ranking([], 0))

    monkeypatch.setattr(review_module, "best_moves", out_of_time)
    html = client.get(f"/parties/{game.pk}/revoir/").content.decode()
    assert "Recherche arrêtée faute de temps" in html


def test_a_small_game_its_steps_scores_and_end(client, alice, game):
    client.force_login(alice)
    play_vague_and_avions(client, game)
    client.post(f"/parties/{game.pk}/lignes/", {"kind": "pass"})
    services.penalty_record(game=game, player=game.players.get(position=1), points=5)
    services.game_finish(game=game, racks={0: "EAU", 1: ""})
    review = build_review(game)
    assert [(s.index, s.row.number, s.line.kind, s.line.move) for s in review.steps] == [
        (1, 1, "play", "H4 VAGUE"),
        (2, 2, "play", "4G AVIONS"),
        (3, 3, "pass", ""),
    ]  # the penalty is on the list of every move, not a step
    assert [[total for _player, total in s.scores] for s in review.steps] == [[26, 0], [26, 18], [26, 18]]
    chart = review.chart
    # Lines 0 to 4, then the end: Alice 26 - 3, Bob 18 - 5 + 3.
    assert [(s.name, s.last) for s in chart.series] == [("Alice", 23), ("Bob", 16)]
    assert [label for _x, label in chart.x_ticks] == ["0", "1", "2", "3", "4", "Fin"]
    assert [value for _y, value in chart.y_ticks] == [0, 10, 20, 30]
    assert chart.series[0].points.split()[:2] == ["40.0,216.0", "114.0,37.5"]  # 0 then 26 points, on a 0–30 axis

    html = client.get(f"/parties/{game.pk}/revoir/").content.decode()
    title = '<h3 id="coup-2-title">Ligne 2 · Bob :\n        <span class="notation">4G AVIONS</span>, 18 points</h3>'
    assert title in html
    assert "<td>Alice</td><td>26</td><td>EAU</td><td>-3</td><td><strong>23</strong></td>" in html
    assert "<td>Bob</td><td>13</td><td>a terminé</td><td>+3</td><td><strong>16</strong></td>" in html


def test_a_move_typed_as_points_has_no_step_and_the_page_says_so(client, alice, game):
    client.force_login(alice)
    client.post(f"/parties/{game.pk}/grille/", {"start": "H4", "letters": "VAGUE", "action": "inscribe"})
    client.post(f"/parties/{game.pk}/lignes/", {"kind": "play", "points": "18"})
    third = services.line_record(game=game, kind=Line.Kind.PASS)
    services.line_set_rack(line=third, rack="AEIRST?")
    review = reviewed(game)
    assert [s.row.number for s in review.steps] == [1, 3]
    assert [entry.row.number for entry in review.unplaced] == [2]
    assert review.steps[1].tops is None
    html = client.get(f"/parties/{game.pk}/revoir/").content.decode()
    assert "Un coup a été saisi en points seulement : sa place sur la grille n'est pas connue" in html
    assert "Un coup saisi en points précède celui-ci : la grille d&#x27;alors n&#x27;est pas connue." in html
    assert "(hors grille)" in html


def test_gcg_import_keeps_the_racks_and_leaves_out_one_no_draw_gives(alice):
    record = (
        "#player1 ann Ann\n#player2 bob Bob\n>ann: AEGUVXX 8D VAGUE +26 26\n>bob: AINOSXY D7 A.IONS +18 18\n"
        ">ann: EEE?? - +0 26\n>bob: KLM -KLM +0 18\n"
    )
    game, notes = game_from_gcg(owner=alice, text=record, rule_set=RuleSet.objects.get(code="tournoi"))
    assert [(line.kind, line.rack) for line in game.lines.all()] == [
        ("play", ""),
        ("play", "AINOSXY"),
        ("pass", "EEE??"),
        ("exchange", "KLM"),
    ]
    assert notes == ["Ligne 3 : tirage « AEGUVXX » non retenu (le tirage compte 2 « X » : le jeu n'en a que 1)."]


def test_gcg_import_refuses_a_rack_without_the_tiles_played(alice):
    record = "#player1 ann Ann\n#player2 bob Bob\n>ann: AEGUVST 8D VAGUE +26 26\n>bob: EINOTTU D7 A.IONS +18 18\n"
    game, notes = game_from_gcg(owner=alice, text=record, rule_set=RuleSet.objects.get(code="tournoi"))
    assert [line.rack for line in game.lines.all()] == ["AEGUVST", ""]
    assert notes == [
        "Ligne 4 : tirage « EINOTTU » non retenu (ce tirage ne contient pas les jetons posés par le coup : il y "
        "manque A, S)."
    ]


def test_export_writes_the_racks_known_and_marks_the_others(client, alice, game):
    client.force_login(alice)
    play_vague_and_avions(client, game)
    client.post(f"/parties/{game.pk}/lignes/", {"kind": "exchange"})
    first, _second, exchange = game.lines.all()
    services.line_set_rack(line=first, rack="VAGUEST")
    services.line_set_rack(line=exchange, rack="EEKLMWZ")
    text = game_to_gcg(game)
    assert text.splitlines()[-4:] == [
        ">Alice: VAGUEST 8D VAGUE +26 26",
        "#clubsite-line no-rack",
        ">Bob: AIONS D7 A.IONS +18 18",
        ">Alice: EEKLMWZ -? +0 26",
    ]
    copy, _notes = game_from_gcg(owner=alice, text=text, rule_set=game.rule_set)
    assert [line.rack for line in copy.lines.all()] == ["VAGUEST", "", "EEKLMWZ"]


def test_a_typed_rack_is_kept_and_its_best_moves_shown(client, alice, game):
    client.force_login(alice)
    play_vague_and_avions(client, game)
    vague, avions = game.lines.all()
    response = client.post(f"/parties/{game.pk}/revoir/tirage/{avions.pk}/", {"rack": " aion s? e "})
    assert response.status_code == 302
    assert response["Location"] == f"/parties/{game.pk}/revoir/#coup-2"
    avions.refresh_from_db()
    assert avions.rack == "AIONS?E"
    step = reviewed(game).steps[1]
    assert step.tops.moves[0][1] > 18
    left = step.tops.moves[0][1] - 18
    assert step.points_left == left
    html = client.get(f"/parties/{game.pk}/revoir/").content.decode()
    assert f"Points laissés sur la table : <strong>{left}</strong>" in html
    # An empty box forgets the rack.
    client.post(f"/parties/{game.pk}/revoir/tirage/{avions.pk}/", {"rack": ""})
    avions.refresh_from_db()
    assert avions.rack == ""


@pytest.mark.parametrize(
    ("rack", "message"),
    [
        ("VAGUE1", "Caractère non accepté : « 1 ». Seules les lettres sont admises."),
        ("VAGUEST?", "Un chevalet porte au plus 7 jetons : ce tirage en compte 8."),
        ("VAGUEKK", "Le tirage compte 2 « K » : le jeu n&#x27;en a que 1."),
        ("???VAGU", "Le tirage compte 3 « ? » : le jeu n&#x27;en a que 2."),
        ("AIONSXY", "Ce tirage ne contient pas les jetons posés par le coup : il y manque E, G, U, V."),
        ("VAGUE" * 10, "Un chevalet porte au plus 7 jetons."),
        ("VA\x00GUE", "Caractère non accepté"),
    ],
)
def test_a_typed_rack_no_draw_gives_is_refused_with_its_reason(client, alice, game, rack, message):
    client.force_login(alice)
    play_vague_and_avions(client, game)
    vague = game.lines.first()
    services.line_set_rack(line=vague, rack="VAGUEST")
    response = client.post(f"/parties/{game.pk}/revoir/tirage/{vague.pk}/", {"rack": rack})
    assert response.status_code == 400
    html = response.content.decode()
    assert f'<p id="rack-{vague.pk}-error" class="error" role="alert">{message}' in html
    assert 'id="coup-1" data-current' in html  # the page opens at that move
    vague.refresh_from_db()
    assert vague.rack == "VAGUEST"


def test_a_penalty_takes_no_rack(client, alice, game):
    client.force_login(alice)
    penalty = services.penalty_record(game=game, player=game.players.first(), points=5)
    response = client.post(f"/parties/{game.pk}/revoir/tirage/{penalty.pk}/", {"rack": "EAU"})
    assert response.status_code == 403


def test_who_may_review_and_type_a_rack(client, alice, bob, charlie, game):
    client.force_login(alice)
    play_vague_and_avions(client, game)
    vague, avions = game.lines.all()  # Alice played VAGUE, Bob (linked) AVIONS
    review_url = f"/parties/{game.pk}/revoir/"
    rack_url = f"/parties/{game.pk}/revoir/tirage/{{}}/"

    assert client.get(review_url).status_code == 200
    assert client.post(rack_url.format(avions.pk), {"rack": "AIONSEE"}).status_code == 302  # the keeper: any move

    client.force_login(bob)
    html = client.get(review_url).content.decode()
    assert f'action="/parties/{game.pk}/revoir/tirage/{avions.pk}/"' in html  # his own move
    assert f'action="/parties/{game.pk}/revoir/tirage/{vague.pk}/"' not in html
    assert client.post(rack_url.format(avions.pk), {"rack": "AIONSTT"}).status_code == 302
    assert client.post(rack_url.format(vague.pk), {"rack": "VAGUEST"}).status_code == 403
    assert client.get(rack_url.format(avions.pk)).status_code == 405

    client.force_login(charlie)
    assert client.get(review_url).status_code == 404
    assert client.post(rack_url.format(avions.pk), {"rack": "AIONSEE"}).status_code == 404

    client.logout()
    assert client.get(review_url)["Location"].startswith("/compte/connexion/")
    assert client.post(rack_url.format(avions.pk), {"rack": "AIONSEE"}).status_code == 302
    assert [line.rack for line in game.lines.all()] == ["", "AIONSTT"]


def test_the_game_and_the_history_link_to_the_review(client, alice, game):
    client.force_login(alice)
    link = f'href="/parties/{game.pk}/revoir/"'
    assert link in client.get(f"/parties/{game.pk}/").content.decode()
    assert link in client.get("/parties/").content.decode()

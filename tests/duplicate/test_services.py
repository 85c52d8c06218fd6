"""Duplicate sessions through their services: draws, tops, results and the ranking, with the seed's numbers."""

import pytest

from clubsite.models import Invitation
from duplicate.errors import DuplicateError
from duplicate.models import Result, Session, Tournament
from duplicate.player_lines import parse_player_lines
from duplicate.services import board
from duplicate.services.bulletins import bulletin_enter, bulletins
from duplicate.services.players import players_add
from duplicate.services.rankings import ranking
from duplicate.services.results import Entry, result_mark, result_set, results_set
from duplicate.services.rounds import round_add, round_set_top
from duplicate.services.tournaments import tournament_create
from scoring.engine.moves import ReplayError
from scoring.models import RuleSet
from tests.conftest import accept_invitations

from .conftest import TOPS, make_session

pytestmark = pytest.mark.django_db


def scores_of(session):
    rows, tops_total = ranking(session)
    return tops_total, [(r.player.name, r.row.total, r.row.gap, r.row.percent, r.row.place, r.row.solos) for r in rows]


def test_typed_draw_and_top_scored_against_the_board(session):
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    assert (first.number, first.draw, first.top, first.top_score) == (1, "VAGUEST", "H4 VAGUE", 26)
    second = round_add(session=session, draw_text="ST+AIONX", top_text="4G AVIONS")
    assert (second.number, second.top_score) == (2, 18)
    position = board.position(session)
    assert position.board.tile_count == 10
    assert position.reliquat == ["T", "X"]


def test_the_position_before_a_move_and_while_its_top_is_missing(session):
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    round_add(session=session, draw_text="ST+AIONX")
    before_second = board.position(session, before=2)
    assert (before_second.board.tile_count, before_second.reliquat, before_second.next_number) == (5, ["S", "T"], 2)
    waiting = board.position(session)
    assert (waiting.board.tile_count, waiting.reliquat, waiting.next_number) == (5, list("STAIONX"), 3)


def test_a_stored_top_the_board_refuses_is_an_error_not_a_gap(session):
    session.rounds.create(number=1, draw="VAGUEST", top="A1 VAGUE", top_score=26)
    with pytest.raises(ReplayError, match="Grille, coup 1"):
        board.position(session)


@pytest.mark.parametrize(
    ("draw", "top", "message"),
    [
        (
            "VAGUEST",
            "A1 VAGUE",
            "Top refusé : le premier coup doit couvrir la case centrale H8 avec au moins deux lettres.",
        ),
        ("VAGUEST", "H4 VOGUE", "Le top H4 VOGUE ne se joue pas avec le tirage VAGUEST."),
        ("KKAEIOU", None, "Le tirage compte 2 « K » : le jeu n'en a que 1."),
    ],
)
def test_refused_draws_and_tops_write_nothing(session, draw, top, message):
    with pytest.raises(DuplicateError) as caught:
        round_add(session=session, draw_text=draw, top_text=top)
    assert str(caught.value) == message
    assert session.rounds.count() == 0


def test_kept_letters_must_be_the_reliquat(session):
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    with pytest.raises(DuplicateError) as caught:
        round_add(session=session, draw_text="AB+CDEFG")
    assert str(caught.value) == "Les lettres gardées (AB) ne sont pas le reliquat du coup précédent (ST)."


def test_server_draws_follow_the_seed_and_replay(session, alice, lyon):
    first = round_add(session=session)
    assert first.drawn_by_server and len(first.draw.replace("+", "").replace("-", "")) == 7
    twin = make_session(alice, lyon)
    twin.seed = session.seed
    twin.save()
    assert round_add(session=twin).draw == first.draw


def test_a_move_needs_the_previous_top(session):
    round_add(session=session, draw_text="VAGUEST")
    with pytest.raises(DuplicateError, match="Placez d'abord le top du coup 1."):
        round_add(session=session)


def test_seed_example_of_the_ranking(alice, lyon):
    """Seed 000: tops 24, 36, 18; players 24/30/18 and 20/36/9 → 72, −6, 92,3 % and 65, −13, 83,3 %."""
    session = make_session(alice, lyon, players=("Premier", "Second"))
    premier, second = session.players.all()
    first = round_add(session=session, draw_text="ZOEEERT", top_text="H8 ZOE")
    assert first.top_score == 24  # (10 + 1 + 1) × 2
    # Tops of 36 and 18 as the arbiter records them (the ranking only needs their value).
    rounds = [first, *(session.rounds.create(number=n, draw="EEEE+ABC", top_score=t) for n, t in ((2, 36), (3, 18)))]
    for round_, (a, b) in zip(rounds, [(24, 20), (30, 36), (18, 9)], strict=True):
        result_set(round_=round_, player=premier, score=a)
        result_set(round_=round_, player=second, score=b)
    # Solos: Premier on moves 1 and 3, Second on move 2; two players earn no bonus.
    assert scores_of(session) == (78, [("Premier", 72, -6, 92.3, 1, 2), ("Second", 65, -13, 83.3, 2, 1)])


def test_score_above_the_top_is_refused_and_changes_nothing(session):
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    alice_player = session.players.first()
    result_set(round_=round_, player=alice_player, score=20)
    with pytest.raises(DuplicateError) as caught:
        result_set(round_=round_, player=alice_player, score=27)
    assert str(caught.value) == "Score supérieur au top : faute de frappe ?"
    assert Result.objects.get().score == 20


def test_a_player_twice_in_one_batch_is_refused_by_the_service_naming_both_positions(session):
    """Issue 23: the service kept the last of two bulletins for one player, whoever called it; every caller (API,
    console, bulletins) is now refused with both positions (counted from 1), and nothing is written."""
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    alice_player, bob_player = session.players.order_by("table")
    entries = [Entry(alice_player.pk, 20), Entry(bob_player.pk, 18), Entry(alice_player.pk, 26)]
    with pytest.raises(DuplicateError) as caught:
        results_set(round_=round_, entries=entries)
    assert str(caught.value) == f"Le joueur {alice_player.pk} figure deux fois dans la liste (positions 1 et 3)."
    assert not Result.objects.exists()
    written = results_set(round_=round_, entries=entries[:2])
    assert [(r.player_id, r.score) for r in written] == [(alice_player.pk, 20), (bob_player.pk, 18)]


def test_result_from_a_move_scored_by_the_engine(session):
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    player = session.players.first()
    result = result_set(round_=round_, player=player, move="8H GUS")
    assert (result.score, result.move, result.reason) == (8, "8H GUS", "")
    result = result_set(round_=round_, player=player, move="H9 AGUE")
    assert (result.score, result.reason) == (
        0,
        "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres.",
    )
    result = result_set(round_=round_, player=player, move="H7 VOGUE")
    assert (result.score, result.reason) == (0, "Ce coup ne se joue pas avec le tirage VAGUEST.")
    result = result_set(round_=round_, player=player, move="H7 VAGUE")
    assert (result.score, result.reason) == (18, "")
    assert Result.objects.count() == 1  # sending again replaces
    with pytest.raises(DuplicateError) as caught:
        result_set(round_=round_, player=player, move="H4 VAGUES")
    assert str(caught.value) == "Ce coup vaut 28 points, plus que le top (26) : vérifiez le top."
    assert Result.objects.get().score == 18


def test_a_result_written_before_the_top_holds_the_top_to_it(session):
    """Players write during the move; the top, placed after, may not be worth less than a score given."""
    round_ = round_add(session=session, draw_text="VAGUEST")
    result_set(round_=round_, player=session.players.first(), score=30)
    with pytest.raises(DuplicateError, match=r"Alice \(table 1\) a déjà 30 points sur ce coup"):
        round_set_top(round_=round_, top_text="H4 VAGUE")
    result_set(round_=round_, player=session.players.first(), move="H4 VAGUE")
    assert round_set_top(round_=round_, top_text="H4 VAGUE").top_score == 26


def test_solo_bonus_from_sixteen_players(alice, lyon):
    for count, bonus in ((16, 10), (15, 0)):
        session = make_session(alice, lyon, players=[f"J{i}" for i in range(count)])
        round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
        players = list(session.players.all())
        result_set(round_=round_, player=players[0], score=26)
        for player in players[1:]:
            result_set(round_=round_, player=player, score=20)
        rows, _tops = ranking(session)
        assert (rows[0].player.name, rows[0].row.total, rows[0].row.solos) == ("J0", 26 + bonus, 1)


def test_warnings_and_penalty_marks(session):
    player = session.players.first()
    rounds = [round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")]
    for number in range(2, 6):
        round_ = session.rounds.create(number=number, draw="ABCDEFG", top="", top_score=10)
        rounds.append(round_)
    for round_ in rounds:
        result_set(round_=round_, player=player, score=10)
    for round_ in rounds[:3]:
        result_mark(round_=round_, player=player, warning=True)
    assert ranking(session)[0][0].row.total == 50
    result_mark(round_=rounds[3], player=player, warning=True)
    assert ranking(session)[0][0].row.total == 45
    result_mark(round_=rounds[4], player=player, penalty=5)
    assert ranking(session)[0][0].row.total == 40
    result_mark(round_=rounds[4], player=player, zero=True)
    assert ranking(session)[0][0].row.total == 35  # a zero with a penalty counts 0, not −5 (FISF §5)


def test_players_from_a_pasted_list_or_csv(session):
    rows = parse_player_lines("table;nom\n12;Claire Dupont\n13;Paul\n\nMarie\n")
    assert [row[:2] for row in rows] == [(12, "Claire Dupont"), (13, "Paul"), (None, "Marie")]
    players_add(session=session, rows=rows)
    assert session.players.count() == 5
    with pytest.raises(DuplicateError, match="La table 12 est déjà prise."):
        players_add(session=session, rows=[(12, "Zoé")])
    assert [row[:2] for row in parse_player_lines("1,Ann\n2,Bob")] == [(1, "Ann"), (2, "Bob")]


def test_five_hundred_players_at_once(alice, lyon, django_assert_max_num_queries):
    session = make_session(alice, lyon, players=())
    text = "\n".join(f"{table}\tJoueur {table}" for table in range(1, 501))
    with django_assert_max_num_queries(8):
        players_add(session=session, rows=parse_player_lines(text))
    assert session.players.count() == 500


def test_a_member_joins_by_his_username_once_he_accepts(session, bob):
    bob.first_name, bob.last_name = "Bob", "Martin"
    bob.save()
    players_add(session=session, rows=[(7, "@bob")])
    player = session.players.get(table=7)
    assert (player.name, player.member) == ("bob", None)  # the name typed, not his real name
    assert list(type(session).objects.played_by(bob)) == []
    accept_invitations(session.players.all())
    player.refresh_from_db()
    assert (player.name, player.member) == ("bob", bob)
    assert list(type(session).objects.played_by(bob)) == [session]
    with pytest.raises(DuplicateError, match="Aucun membre « personne »."):
        players_add(session=session, rows=[(8, "@personne")])


def test_a_session_and_its_players_are_created_together_or_not_at_all(alice, lyon):
    with pytest.raises(DuplicateError, match="La table 3 est déjà prise."):
        make_session(alice, lyon, players=[(3, "Anne"), (3, "Bruno")])
    with pytest.raises(DuplicateError, match="Aucun membre « personne »."):
        make_session(alice, lyon, players=[(1, "Anne"), (2, "@personne")])
    assert Session.objects.count() == 0
    session = make_session(alice, lyon, players=[(1, "Anne"), (2, "@alice")])
    assert list(session.players.values_list("table", "name", "member")) == [(1, "Anne", None), (2, "alice", alice.pk)]


def test_an_automatic_game_is_personal_and_played_by_its_creator(alice, lyon):
    with pytest.raises(DuplicateError, match="Une partie automatique est une séance personnelle, sans club."):
        make_session(alice, lyon, players=(), automatic=True)
    assert Session.objects.count() == 0
    session = make_session(alice, None, players=(), automatic=True, entry=Session.Entry.ARBITER)
    assert (session.entry, [(p.name, p.member) for p in session.players.all()]) == ("players", [("alice", alice)])


def test_a_tournament_takes_the_club_its_sessions_share(alice, lyon):
    first, second = make_session(alice, lyon), make_session(alice, lyon)
    tournament = tournament_create(name="Coupe d'hiver", creator=alice, sessions=[first, second])
    assert (tournament.club, set(tournament.sessions.all())) == (lyon, {first, second})
    personal = make_session(alice)
    tournament = tournament_create(name="Mélange", creator=alice, sessions=[first, personal])
    assert tournament.club is None
    with pytest.raises(DuplicateError, match="Un tournoi réunit au moins deux séances."):
        tournament_create(name="Seul", creator=alice, sessions=[first])
    assert Tournament.objects.count() == 2


def test_a_member_is_found_by_email_or_any_case_and_only_once(alice, bob, lyon):
    session = make_session(alice, lyon, players=[(1, "@BOB"), (2, "@alice@example.org")], accepted=False)
    # Alice places herself: linked at once; Bob is invited, and cannot be invited twice
    assert [(p.table, p.name, p.member) for p in session.players.all()] == [(1, "BOB", None), (2, "alice", alice)]
    with pytest.raises(DuplicateError, match="« @bob » figure deux fois dans la séance."):
        players_add(session=session, rows=[(3, "@bob")])
    # By his address, he is not refused (that would tell whose the address is): the seat is a name, no invitation
    players_add(session=session, rows=[(3, "@bob@example.org")])
    assert (session.players.get(table=3).name, Invitation.objects.count()) == ("bob", 1)


@pytest.mark.parametrize(
    ("draws", "message"),
    [
        (
            ["BCDFGHA"],
            "Au coup 1, le tirage doit compter au moins 2 voyelles et 2 consonnes (FISF §3.2) : il est à rejeter.",
        ),
        (["VAGUES"], "Le tirage compte 6 lettres : il en faut 7."),
        (["VAGUEST", "AEIRNLO"], "Le reliquat ST n'est pas gardé : écrivez « ST+… », ou « -… » après un rejet."),
    ],
)
def test_a_typed_draw_is_checked_as_the_server_draws(session, draws, message):
    """Issue 11: §3.2 counts, a full rack, the reliquat kept unless a rejet put it back."""
    *earlier, refused = draws
    for draw in earlier:
        round_add(session=session, draw_text=draw, top_text="H4 VAGUE")
    with pytest.raises(DuplicateError) as caught:
        round_add(session=session, draw_text=refused)
    assert str(caught.value) == message
    assert session.rounds.count() == len(earlier)


def test_after_a_rejet_the_reliquat_goes_back_and_a_typed_rack_is_accepted(session):
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    assert round_add(session=session, draw_text="-AEIRNLO").draw == "-AEIRNLO"


def test_the_first_top_is_horizontal_typed_or_computed(session):
    """FISF §3.4: the first move's top is played across."""
    round_ = round_add(session=session, draw_text="VAGUEST")
    with pytest.raises(DuplicateError, match=r"Le premier top se joue horizontalement \(FISF §3.4\) : 8D VAGUE."):
        round_set_top(round_=round_, top_text="8D VAGUE")
    assert round_.suggestions and all(s["move"][0].isalpha() for s in round_.suggestions)


@pytest.mark.parametrize(
    ("table", "entry", "message"),
    [
        ("", "20", "Tapez le numéro de table du bulletin (ou le nom d'un joueur sans table)."),
        ("x", "20", "Aucun joueur sans table ne s'appelle « x »."),
        ("9", "20", "Aucun joueur à la table 9."),
        ("1", " ", "Tapez le score ou le coup du bulletin."),
        ("1", "27", "Score supérieur au top : faute de frappe ?"),
    ],
)
def test_a_bulletin_at_the_keyboard_says_what_is_wrong(session, table, entry, message):
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    with pytest.raises(DuplicateError) as caught:
        bulletin_enter(round_=round_, table=table, entry=entry)
    assert str(caught.value) == message
    assert not round_.results.exists()


def test_a_player_without_a_table_is_named_at_the_keyboard(session):
    """Issue 11: bulletins at the keyboard for players who have no table: the start of the name, without case
    or accents; a start that names two players asks for more."""
    players_add(session=session, rows=[(None, "Éloïse Martin"), (None, "Élodie Roux"), (None, "Marc")])
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    player, result = bulletin_enter(round_=round_, table="eloi", entry="20")
    assert (player.name, result.score) == ("Éloïse Martin", 20)
    player, _result = bulletin_enter(round_=round_, table="MARC", entry="h4 vague")
    assert (player.name, _result.score) == ("Marc", 26)
    with pytest.raises(DuplicateError) as caught:
        bulletin_enter(round_=round_, table="Él", entry="12")
    assert str(caught.value) == (
        "« Él » désigne plusieurs joueurs : Élodie Roux, Éloïse Martin. Tapez davantage du nom."
    )
    assert round_.results.count() == 2
    with pytest.raises(DuplicateError) as caught:
        bulletin_enter(round_=round_, table="bob", entry="12")  # trial of issue 11: Bob has a table
    assert str(caught.value) == "Bob est à la table 2 : tapez 2."


def test_bulletins_count_who_is_missing(session):
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    player, result = bulletin_enter(round_=round_, table="2", entry="h4 vague")
    assert (player.name, result.score, result.move) == ("Bob", 26, "H4 VAGUE")
    state = bulletins(round_)
    assert (state.entered, state.total, [p.name for p in state.missing]) == (1, 2, ["Alice"])


def test_a_mark_without_a_bulletin_leaves_the_bulletin_missing(session):
    """Trial of issue 10: "Avert." or "−5" on an empty row recorded a score of 0 and hid the missing bulletin."""
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    alice_player, bob_player = session.players.all()
    result = result_mark(round_=round_, player=alice_player, warning=True)
    assert (result.score, result.warning) == (None, True)
    result_mark(round_=round_, player=bob_player, penalty=5)
    state = bulletins(round_)
    assert (state.entered, [p.name for p in state.missing]) == (0, ["Alice", "Bob"])
    assert scores_of(session)[1][1][1] == 0  # Bob: no bulletin; the penalty takes nothing below 0 (FISF §5)
    result_set(round_=round_, player=bob_player, score=20)
    assert bulletins(round_).entered == 1
    assert scores_of(session)[1][0][:2] == ("Bob", 15)  # his penalty, kept, now takes 5 of 20


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("6a", "« 6a » : un score en chiffres, ou un coup comme « H4 VAGUE », est attendu."),
        ("-3", "« -3 » : un score en chiffres, ou un coup comme « H4 VAGUE », est attendu."),
        ("situera", "« situera » : un score en chiffres, ou un coup comme « H4 VAGUE », est attendu."),
        ("66 H8 SITUERA", "Le mot contient un espace : écrivez-le d'un seul tenant (« 66 H8 SITUERA »)."),
    ],
)
def test_a_keyboard_slip_is_refused_not_saved_as_zero(session, entry, message):
    """Trial of issue 11: "6a" was read as a move, scored 0 and counted as a bulletin."""
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    with pytest.raises(DuplicateError) as caught:
        bulletin_enter(round_=round_, table="1", entry=entry)
    assert str(caught.value) == message
    assert not round_.results.exists()


def test_a_two_letter_move_in_lowercase_is_read_in_capitals_when_the_draw_has_no_jokers(session):
    """Trial of issue 11: "g8 ex" was read as two jokers the draw did not hold, worth 0."""
    round_ = round_add(session=session, draw_text="EXOZKWA")
    player, result = bulletin_enter(round_=round_, table="1", entry="h8 ex")
    assert (result.move, result.score, result.reason) == ("H8 EX", 22, "")  # (1 + 10) × 2 on the star


@pytest.mark.parametrize(
    ("move_seconds", "blitz_move_seconds", "total", "rule"),
    [
        (
            180,
            60,
            128 - 5,
            "Un avertissement coûte 5 points à partir du 4e (du 6e en blitz, à 60 s par coup ou moins).",
        ),
        (
            120,
            120,
            128,
            "Séance en blitz (120 s par coup au plus) : un avertissement coûte 5 points à partir du 6e (du 4e hors "
            "blitz).",
        ),
    ],
)
def test_blitz_is_the_rule_sets_time_and_the_warnings_rule_is_said(
    client, alice, lyon, move_seconds, blitz_move_seconds, total, rule
):
    """Trial of issue 16: the recap counted a 4th avertissement at 2 min and nobody could tell why (blitz was a
    literal 60 s, the threshold said nowhere). Blitz is now the rule set's figure, and the console, the recap and
    the player's recap say what an avertissement costs in this session."""
    rules = RuleSet.objects.get(code="tournoi")
    rules.blitz_move_seconds = blitz_move_seconds
    rules.save()  # as in the admin: the engine's copy follows
    session = make_session(alice, lyon, players=["Ann"], move_seconds=move_seconds)
    (ann,) = session.players.all()
    for draw, top in TOPS:
        round_ = round_add(session=session, draw_text=draw, top_text=top)
        results_set(round_=round_, entries=[Entry(ann.pk, round_.top_score)])
        result_mark(round_=round_, player=ann, warning=True)
    (row,), tops_total = ranking(session)
    assert (tops_total, row.row.total) == (128, total)
    assert session.warning_rule == rule
    client.force_login(alice)
    assert rule in client.get(f"/duplicate/{session.pk}/").content.decode()
    assert rule in client.get(f"/duplicate/{session.pk}/recapitulatif/").content.decode()

"""What the counter's pages give the scoring that runs in the visitor's browser (static/js/score_rules.js, driven by
static/js/counter_page.js): the engine's figures and the page's French sentences.

The browser computes every score from these; the server renders a page's first state (a share link, a form sent
without JavaScript) with the engine, in the same words.
"""

from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext

from clubsite.text import browser_pattern

from .engine.errors import gettext_noop
from .engine.figures import counter_figures
from .models import Lexicon

# The sentences score_rules.js writes, by the name it gives each: the engine's refusals (editions, board, moves,
# typed mode), the grid form's start square, the views' lines. tests/scoring/test_score_rules_js.py holds the
# script to the engine with the same sentences.
SCRIPT_SENTENCES = {
    "emptyWord": gettext_noop("Le mot est vide."),
    "tooLong": gettext_noop("Le mot compte %(count)d lettres : %(max)d au plus."),
    "openParenthesis": gettext_noop("Une parenthèse n'est pas refermée."),
    "space": gettext_noop("Le mot contient un espace : écrivez-le d'un seul tenant."),
    "badChar": gettext_noop("Caractère non accepté : « %(char)s ». Seules les lettres sont admises."),
    "badCoordinate": gettext_noop(
        "Coordonnée illisible : « %(text)s ». Écrivez la ligne (A à O) puis la colonne (1 à 15) pour un mot "
        "horizontal, comme H4, ou la colonne puis la ligne pour un mot vertical, comme 4H."
    ),
    "columnOff": gettext_noop("Colonne hors de la grille dans « %(text)s » : de 1 à 15."),
    "moveUnreadable": gettext_noop("Écrivez la coordonnée puis le mot, par exemple « H4 VAGUE » : « %(text)s »."),
    "moveSpace": gettext_noop("Le mot contient un espace : écrivez-le d'un seul tenant (« %(text)s »)."),
    "tooShort": gettext_noop("Un mot compte au moins deux lettres : « %(move)s »."),
    "offGrid": gettext_noop("« %(move)s » sort de la grille : %(length)d lettres à partir de %(start)s."),
    "boardDiffers": gettext_noop("En %(square)s, la grille porte déjà un %(on_board)s, pas un %(letter)s."),
    "wordContinues": gettext_noop(
        "Le mot continue sur la grille : la case %(square)s porte déjà une lettre. Écrivez le mot entier."
    ),
    "noTile": gettext_noop("Aucun jeton n'est posé."),
    "occupied": gettext_noop("La case %(square)s est déjà occupée."),
    "notOneLine": gettext_noop("Les jetons posés doivent être sur une seule ligne ou une seule colonne."),
    "gap": gettext_noop("Une case reste vide entre les jetons posés : %(square)s."),
    "nothingNew": gettext_noop("Ce coup ne pose aucun jeton nouveau : toutes ses cases sont occupées."),
    "overRack": gettext_noop("Ce coup poserait %(count)d jetons nouveaux : un chevalet n'en porte que %(rack)d."),
    "firstMove": gettext_noop("Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres."),
    "notTouching": gettext_noop("Le mot doit toucher une lettre déjà posée sur la grille."),
    "replay": gettext_noop("Grille, coup %(number)d (« %(move)s ») : %(reason)s"),
    "lettersOff": gettext_noop("Les lettres tapées sortent de la grille."),
    "tooManyWords": gettext_noop("Au plus sept mots secondaires."),
    "wordTooLong": gettext_noop("Un mot compte 15 jetons au plus."),
    "tooManyTiles": gettext_noop(
        "Plus de jetons posés que le chevalet n'en porte : marquez ceux qui étaient déjà sur le plateau."
    ),
    "startSwapped": gettext_noop(
        "« %(start)s » : une case s'écrit ligne puis colonne (%(swapped)s) ; le sens se choisit avec "
        "« Horizontal » ou « Vertical »."
    ),
    "startUnknown": gettext_noop(
        "« %(start)s » n'est pas une case de la grille : une ligne de A à O puis une colonne de 1 à 15 (H8)."
    ),
    "offBoard": gettext_noop("« %(move)s » ne tient plus sur la grille : %(reason)s"),
    "tilesPlaced": gettext_noop("Jetons posés depuis le chevalet"),
}

# What counter_page.js writes on the page besides: the words of the server's templates, the same msgids.
PAGE_SENTENCES = {
    "inList": gettext_noop("Dans la liste"),
    "outOfList": gettext_noop("Absent de la liste"),
    "wordListNote": gettext_noop(
        "Liste libre (Grammalecte), pas l'ODS : un repère sans valeur officielle. Le coup est compté dans tous les cas."
    ),
    "copyDetail": gettext_noop("Copier le détail"),
    "copied": gettext_noop("Copié"),
    "copyFailed": gettext_noop("Copie impossible : sélectionnez le texte"),
    "typedHint": gettext_noop(
        "Tapez un mot : chaque lettre devient un jeton. Touchez un jeton pour choisir sa case, le marquer déjà posé ou "
        "joker."
    ),
    "gridHint": gettext_noop(
        "Touchez la case où commence le mot, touchez-la encore pour changer de sens, puis tapez les lettres : elles "
        "remplissent les cases libres. Touchez ensuite un jeton neuf pour en faire un joker."
    ),
    "gridLettersHint": gettext_noop("Tapez les lettres du mot."),
    "joker": gettext_noop("(joker)"),
    # "Vérifier les mots dans une liste de mots libre": the list's download, told beside the box.
    "wordListLoading": gettext_noop("Téléchargement de la liste de mots…"),
    "wordListProgress": gettext_noop("Téléchargement de la liste de mots : %(percent)d %%"),
    "wordListFailed": gettext_noop(
        "La liste de mots n'a pas pu être téléchargée : vérifiez la connexion, puis cochez la case de nouveau."
    ),
    "noWordList": gettext_noop("Aucune liste de mots n'est définie pour cette édition."),
    # What a touch on the grid did, said on screen (a touch on a new tile and a touch on a free square differ).
    "jokerOn": gettext_noop("Le %(letter)s posé en %(square)s devient un joker."),
    "jokerOff": gettext_noop("Le %(letter)s posé en %(square)s n'est plus un joker."),
    "startHere": gettext_noop("Commencer un mot en %(square)s"),
    "started": gettext_noop("Case de départ %(square)s, sens %(direction)s."),
    "horizontal": gettext_noop("horizontal"),
    "vertical": gettext_noop("vertical"),
}


def total_sentence(score: int) -> str:
    """ "Total : 22 points", "Total : 1 point": the move's total, for "Copier le détail" and the page."""
    return ngettext("Total : %(score)s point", "Total : %(score)s points", score)


def bonus_sentence(count: int) -> str:
    """ "Prime pour 7 jetons posés : +50": the bonus line, `count` the tiles placed, which are the rule set's rack
    when there is a bonus (the sheets' line detail says the same)."""
    return ngettext(
        "Prime pour %(count)d jeton posé : +%(bonus)d", "Prime pour %(count)d jetons posés : +%(bonus)d", count
    )


def unseen_sentence(unseen: int) -> str:
    """The tile tracking's count of tiles still to come, as grid.html writes it."""
    return ngettext("%(unseen)s jeton hors de la grille", "%(unseen)s jetons hors de la grille", unseen)


def counter_texts() -> dict:
    """The page's sentences in the active language, and that language (`locale`); a sentence with a plural is
    given in each of the forms its rule chooses from, by Intl.PluralRules' names: French has "one", for 0 and 1,
    and "other", as the catalog's Plural-Forms (n > 1). `hidden` finds what a refusal writes as its code (a
    character that shows nothing…), as the server's refusals do."""
    texts = {name: gettext(msgid) for name, msgid in {**SCRIPT_SENTENCES, **PAGE_SENTENCES}.items()}
    texts["locale"] = get_language()
    texts["total"] = {"one": total_sentence(1), "other": total_sentence(2)}
    texts["bonus"] = {"one": bonus_sentence(1), "other": bonus_sentence(2)}
    texts["unseen"] = {"one": unseen_sentence(1), "other": unseen_sentence(2)}
    texts["hidden"] = browser_pattern()
    texts["wordListReady"] = {"one": word_list_sentence(1), "other": word_list_sentence(2)}
    return texts


def word_list_sentence(count: int) -> str:
    """What the box says once the list is in the browser: « Liste de mots téléchargée (400 344 mots) »."""
    return ngettext("Liste de mots téléchargée (%(count)s mot)", "Liste de mots téléchargée (%(count)s mots)", count)


def word_lists(editions) -> dict:
    """The address of each edition's default word list, by edition code (an edition without one is absent): the
    page downloads it once when the box is ticked and keeps it under that address, which carries its version."""
    rows = Lexicon.objects.downloads([edition.code for edition in editions])
    return {code: reverse("word_list", args=[code, row.download_version]) for code, row in rows.items()}


def page_data(editions, rules) -> dict:
    """The counter's three json_script blocks: the figures of the editions the page offers and of the rule set it
    counts with, its sentences, and where the editions' word lists are downloaded."""
    return {"figures": counter_figures(editions, rules), "texts": counter_texts(), "word_lists": word_lists(editions)}

// The sheet kept in the browser: its games in localStorage, newest first, the last `limits.games` kept, and every
// change to one of them (`change`: the game marked changed, kept, and the page drawn again), a line or a move taken
// off with a way back included. Another tab's changes are read back as they come.
globalThis.LocalSheet ??= {};

LocalSheet.store = (page) => {
  "use strict";

  const STORAGE_KEY = "clubsite.local-sheet.v1";
  const { $, format, limits, toast, fieldError } = page;

  let storageWorks = true;
  let store = load();

  function load() {
    try {
      const data = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
      if (data && Array.isArray(data.games)) return data;
    } catch (error) {
      storageWorks = !(error instanceof DOMException);
    }
    return { current: null, games: [] };
  }

  function persist() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(store));
      storageWorks = true;
    } catch {
      storageWorks = false;
    }
  }

  const currentGame = () => store.games.find((game) => game.id === store.current && page.shown(game)) || null;
  const gameById = (id) => store.games.find((game) => game.id === id) || null;
  /** The games shown under "Parties précédentes": every one but the current game. */
  const previousGames = () => store.games.filter((game) => game.id !== store.current && page.shown(game));

  /** Every change goes through here: the game is marked changed, kept, and the page drawn again. */
  function change(game, mutate) {
    for (const field of ["points", "penalty-points", "challenge-words"]) fieldError(field, "");
    mutate(game);
    game.updated = page.now();
    persist();
    page.render();
  }

  /** A new game, kept first and made the current one. */
  function add(game) {
    store.games.unshift(game);
    store.games = store.games.slice(0, limits.games);
    store.current = game.id;
    persist();
  }

  function open(id) {
    store.current = id;
    persist();
  }

  function remove(id) {
    store.games = store.games.filter((game) => game.id !== id);
    if (store.current === id) store.current = null;
    persist();
  }

  /** × takes `game[list][index]` (a line, a move) off at once, with "Annuler" to put it back: a tap never loses
   * one without a way back. `refuse(game)` says why it cannot go back (the game is full); `deleted` and `restored`
   * are the page's sentences, given its number. */
  function takeOff(game, list, index, { deleted, restored, refuse }) {
    const [item] = game[list].slice(index, index + 1);
    change(game, (g) => g[list].splice(index, 1));
    const number = index + 1;
    toast(format(deleted, { number }), {
      undo: () => {
        const kept = gameById(game.id);
        if (!kept || refuse(kept)) return;
        change(kept, (g) => g[list].splice(index, 0, item));
        toast(format(restored, { number }));
      },
    });
    $("toast-undo").focus();
  }

  window.addEventListener("storage", (event) => {
    if (event.key !== STORAGE_KEY) return;
    store = load();
    page.render();
  });

  return {
    storageWorks: () => storageWorks,
    persist,
    currentGame,
    gameById,
    previousGames,
    change,
    add,
    open,
    remove,
    takeOff,
  };
};

// The sheet kept in the browser: "Enregistrer dans mon compte", the one request the page makes, a member's explicit
// choice (POST /api/sheets/local-games, sheets/api.py). The account's sheets are classic games: a duplicate game
// stays in the browser.
globalThis.LocalSheet ??= {};

LocalSheet.account = (page) => {
  "use strict";

  const { root, text, format, toast } = page;
  const saveUrl = root.dataset.saveUrl || "";
  const csrfToken = root.dataset.csrf || "";

  const saveable = (game) => Boolean(saveUrl) && !page.isDuplicate(game);

  function payload(game) {
    return {
      edition: game.edition,
      rules: game.rules,
      players: game.players,
      lines: game.lines.map(({ player, kind, points, words }) => (kind === "challenge" ? { player, kind, points, words } : { player, kind, points })),
      racks: game.finished ? game.racks : null,
      started: game.started,
    };
  }

  /** The one request: the game to the member's account. Answers {status, data}, or null when the server is out of
   * reach. */
  async function sendToAccount(game) {
    let response;
    try {
      response = await fetch(saveUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken },
        body: JSON.stringify(payload(game)),
      });
    } catch {
      return null;
    }
    return { status: response.status, data: await response.json().catch(() => null) };
  }

  /** `button`, a game's "Enregistrer dans mon compte", pressed: the answer is said beside it. */
  async function save(game, button) {
    const message = button.closest(".save-control").querySelector(".save-message");
    const say = (sentence) => { message.textContent = sentence; message.classList.add("error"); button.disabled = false; };
    button.disabled = true;
    message.classList.remove("error");
    message.textContent = text.saving;
    const answer = await sendToAccount(game);
    if (!answer) return say(text.saveOffline);
    const { status, data } = answer;
    // Logged out in the meantime (401), or logged in again elsewhere, which changed the CSRF token (403).
    if (status === 401 || status === 403) return say(text.saveLogin);
    if (status === 201 && data?.url) {
      // Kept without touching `updated`: the copy in the account is this very state of the game.
      game.saved = { url: data.url, at: game.updated };
      page.persist();
      page.render();
      toast(text.saved);
      return;
    }
    if (data?.detail) return say(format(text.saveRefused, { reason: data.detail }));
    return say(text.saveLogin);
  }

  return { saveable, save };
};

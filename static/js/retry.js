// A score sent while the server cannot write it (its database restarting: 503; a proxy in between: 502, 504; no
// answer at all) is sent once more by itself, a second later, with the same values: writing a score is idempotent,
// sending it twice sets the same thing. If that fails too, the entry is marked unsaved, with a message on the field,
// and keeps what was typed, through the page's refreshes, until it is sent again and saved. No entry is lost
// silently.
(() => {
  const FORMS = "form[data-retry]";
  const RETRY_AFTER_MS = 1000;
  const script = document.currentScript?.dataset ?? {};
  const unsaved = script.unsaved || "Non enregistré.";
  const offline = script.offline || "";
  const retryable = (status) => status === 0 || status === 502 || status === 503 || status === 504;

  // What each form last sent, to send exactly that again (the button pressed included).
  document.addEventListener("htmx:configRequest", (event) => {
    const form = event.detail.elt?.closest?.(FORMS);
    if (form) form.lastSent = { verb: event.detail.verb, path: event.detail.path, values: [...event.detail.formData] };
  });

  const failed = (event) => {
    const form = event.detail.elt?.closest?.(FORMS);
    const status = event.detail.xhr?.status ?? 0;
    if (!form || !form.lastSent || !retryable(status)) return;
    if (!form.dataset.retried) {
      form.dataset.retried = "1";
      const { verb, path, values } = form.lastSent;
      const again = () => htmx.ajax(verb.toUpperCase(), path, { source: form, values: Object.fromEntries(values) });
      setTimeout(again, RETRY_AFTER_MS);
      return;
    }
    delete form.dataset.retried;
    // The server's own sentence when it gave one (a 503 says why), else the browser's: no answer at all.
    const said = status === 503 && event.detail.xhr.responseText
      ? new DOMParser().parseFromString(event.detail.xhr.responseText, "text/html").body.textContent.trim()
      : "";
    markUnsaved(form, `${unsaved} ${said || offline}`.trim());
  };
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);

  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt?.closest?.(FORMS);
    if (form && event.detail.successful) {
      delete form.dataset.retried;
      clearUnsaved(form);
    }
  });

  function markUnsaved(form, message) {
    form.classList.add("unsaved");
    const typed = [...form.querySelectorAll("input[type=text]")].filter((input) => input.value !== "");
    for (const input of typed) {
      input.classList.remove("saved");
      input.classList.add("dirty");
      input.dataset.unsaved = message;
    }
    let note = form.parentElement.querySelector(":scope > .unsaved-note");
    if (!note) {
      note = document.createElement("small");
      note.className = "error unsaved-note";
      note.setAttribute("role", "alert");
      form.after(note);
    }
    note.textContent = message;
  }

  function clearUnsaved(form) {
    form.classList.remove("unsaved");
    for (const input of form.querySelectorAll("input[data-unsaved]")) delete input.dataset.unsaved;
    form.parentElement?.querySelector(":scope > .unsaved-note")?.remove();
  }

  // An unsaved cell of the game's sheet is sent on "change": Enter sends it again even though its text did not
  // change since.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.matches?.(".sheet-form.unsaved")) htmx.trigger(form, "change");
  });

  // The page's refreshes (the sheet after another cell, the phone's poll) bring the saved values: an unsaved entry
  // keeps what was typed, and its mark, unless this answer is its own form's, saved at last.
  let kept = [];
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    const sender = (event.detail.requestConfig?.elt ?? event.detail.elt)?.closest?.(FORMS);
    kept = target
      ? [...target.querySelectorAll("input[data-unsaved][id]")]
          .filter((input) => input.closest(FORMS) !== sender)
          .map((input) => ({ id: input.id, value: input.value, message: input.dataset.unsaved }))
      : [];
  });
  document.addEventListener("htmx:afterSwap", () => {
    for (const { id, value, message } of kept) {
      const input = document.getElementById(id);
      const form = input?.closest(FORMS);
      if (!form) continue;
      input.value = value;
      markUnsaved(form, message);
    }
    kept = [];
  });
})();

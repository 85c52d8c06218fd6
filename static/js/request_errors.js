// A button or form sent by htmx that gets no useful answer (the server's database gone: 503; a proxy: 502, 504;
// no answer at all) says so beside itself, with the server's sentence when it gave one, instead of doing nothing.
// A page that refreshes itself (the console's, the phone's poll) shows one banner while the server does not answer,
// and takes it away once it does. The score forms (data-retry) send again first and say it themselves
// (retry.js). A refusal (4xx) comes with its own page region, as htmx's settings swap it.
(() => {
  const script = document.currentScript?.dataset ?? {};
  const server = (status) => status === 0 || status >= 500;
  const polling = (elt) => /\bevery\b/.test(elt.getAttribute?.("hx-trigger") ?? "");

  function banner(show) {
    let note = document.getElementById("connection-lost");
    if (!show) {
      note?.remove();
      return;
    }
    if (note) return;
    note = document.createElement("p");
    note.id = "connection-lost";
    note.className = "error connection-lost";
    note.setAttribute("role", "alert");
    note.textContent = script.polling || "";
    document.querySelector("main")?.prepend(note);
  }

  function failed(event) {
    const elt = event.detail.elt;
    const xhr = event.detail.xhr;
    const status = xhr?.status ?? 0;
    if (!elt || !server(status) || elt.closest?.("form[data-retry]")) return;
    if (polling(elt)) {
      banner(true);
      return;
    }
    const said = status === 503 && xhr.responseText
      ? new DOMParser().parseFromString(xhr.responseText, "text/html").body.textContent.trim()
      : "";
    const anchor = elt.closest("form") ?? elt;
    let note = anchor.nextElementSibling?.matches?.(".request-error") ? anchor.nextElementSibling : null;
    if (!note) {
      note = document.createElement("p");
      note.className = "error request-error";
      note.setAttribute("role", "alert");
      anchor.after(note);
    }
    note.textContent = said || script.offline || "";
  }
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);

  document.addEventListener("htmx:afterRequest", (event) => {
    const elt = event.detail.elt;
    if (!event.detail.successful || !elt) return;
    if (polling(elt)) banner(false);
    const anchor = elt.closest?.("form") ?? elt;
    if (anchor.nextElementSibling?.matches?.(".request-error")) anchor.nextElementSibling.remove();
  });
})();

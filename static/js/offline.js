// Every page registers the service worker (static/js/service_worker.js, at the address its script tag gives), which
// keeps the counter, the grid, the score sheet kept in the browser and the help for a visit without the network.
// A browser that refuses it (a private window, no service workers) has the site online as before.
(() => {
  "use strict";

  const address = document.currentScript?.dataset.worker;
  if (!address || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(address, { scope: "/" }).catch(() => {});
  });
})();

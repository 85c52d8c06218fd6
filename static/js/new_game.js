// "Nouvelle partie": only the seats of the chosen number of players are shown. A hidden seat's fields are
// disabled, so they are not sent: what the page shows is what the game gets. Without this script every seat shows,
// and a seat given a name counts as a player.
(() => {
  const count = document.getElementById("id_player_count");
  if (!count) return;
  const seats = document.querySelectorAll(".player-row");
  const show = () => {
    seats.forEach((seat, index) => {
      const hidden = index >= Number(count.value);
      seat.hidden = hidden;
      seat.querySelectorAll("input").forEach((field) => { field.disabled = hidden; });
    });
  };
  count.addEventListener("change", show);
  show();
})();

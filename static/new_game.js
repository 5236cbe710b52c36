// New-game form: show only the set-up for the number of names typed (and the
// variant); without this script every set-up stays listed.
"use strict";

(() => {
  const form = document.getElementById("new-game");
  function update() {
    const named = [...form.querySelectorAll("input[name^=name]")].filter((input) => input.value.trim()).length;
    const players = Math.min(5, Math.max(2, named));
    const doubled = form.querySelector("input[name=doubled]").checked ? "yes" : "no";
    form.querySelectorAll(".setup-card").forEach((card) => {
      card.hidden = !(card.dataset.players === String(players) && card.dataset.doubled === doubled);
    });
  }
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();

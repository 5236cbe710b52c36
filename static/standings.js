// The players' standings on the round page: the players table (orders
// delivered per round), and after round 3 the hand counts and the ranking.
"use strict";

const Standings = (() => {
  const { t, esc } = Cards;
  const $ = (id) => document.getElementById(id);

  function hands(state, act) {
    const box = $("hands");
    box.hidden = state.phase !== "counting";
    if (box.hidden || box.querySelector("form")) return;
    box.innerHTML = `<h2>${esc(t("hands.title"))}</h2><p>${esc(t("hands.explain"))}</p>`
      + `<form id="hands-form" class="stack" novalidate><p id="hands-error" class="error" role="alert" hidden></p>`
      + state.players.map((p) =>
        `<label class="hand"><span><span class="dot ${p.color}"></span>${esc(p.name)}</span>`
        + `<input type="number" name="${p.color}" min="0" max="7" step="1" inputmode="numeric" required class="big-input"></label>`).join("")
      + `<button type="submit" class="button primary huge">${esc(t("hands.submit"))}</button></form>`;
    box.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      const counts = {};
      for (const input of event.target.querySelectorAll("input")) {
        const n = Number(input.value);
        if (input.value === "" || !Number.isInteger(n) || n < 0 || n > 7) {
          const error = $("hands-error");
          error.textContent = t("hands.invalid");
          error.hidden = false;
          input.focus();
          return;
        }
        counts[input.name] = n;
      }
      act("hands", { counts });
    });
  }

  function ranking(state) {
    const box = $("ranking");
    box.hidden = !state.ranking;
    if (!state.ranking) return;
    box.innerHTML = `<h2>${esc(t("rank.title"))}</h2><ol class="ranking">` + state.ranking.map((r) =>
      `<li class="place-${r.place}" data-place="${r.place}" data-color="${r.color}"><span class="place">${r.place}</span>`
      + `<span class="dot ${r.color}"></span><b class="name">${esc(r.name)}</b>`
      + `<span>${esc(t("rank.delivered_n", { n: r.delivered }))}</span>`
      + `<span>${esc(t("rank.hand_n", { n: r.hand_cards }))}</span>`
      + (r.tie_break ? `<small class="tie">${esc(t("rank.tie_break"))}</small>` : "") + "</li>").join("") + "</ol>";
  }

  function players(state) {
    const rounds = Array.from({ length: state.rounds }, (_, i) => i + 1);
    // the rounds under one heading, numbered: a phone's width holds the table in every language
    $("players").innerHTML = `<table class="scores"><thead><tr><th rowspan="2"></th>`
      + `<th colspan="${state.rounds}" class="rounds-head">${esc(t("game.rounds_head"))}</th>`
      + `<th rowspan="2">${esc(t("game.total"))}</th><th rowspan="2">${esc(t("game.left"))}</th></tr><tr>`
      + rounds.map((r) => `<th title="${esc(t("scores.round_n", { n: r }))}">${r}</th>`).join("")
      + "</tr></thead><tbody>"
      + state.players.map((p) => `<tr data-color="${p.color}"><th><span class="dot ${p.color}"></span>${esc(p.name)}</th>`
        + p.delivered_per_round.map((n) => `<td>${n}</td>`).join("")
        + `<td class="total"><b>${p.delivered_total}</b></td><td class="left">${p.remaining.length}</td></tr>`).join("")
      + "</tbody></table>";
  }

  /** Draws all three from `state`; the hand counts go to the game through `act`. */
  function draw(state, act) {
    hands(state, act);
    ranking(state);
    players(state);
  }

  return { draw };
})();

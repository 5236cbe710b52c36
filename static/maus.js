// The Maus au Chocolat round page: the bids (tapped, or read from a photo of
// the bid cards), the picking order, then each player's combination in
// helper order (tapped, or read from a photo of the laid cards) with the
// verdict and the best use of the player's helper, the scores to 30 and the
// ranking. The page draws the state the API sends (embedded at first), and
// follows other devices' changes as table.js does (LiveFeed).
"use strict";

(() => {
  const { t, esc } = Cards;
  const $ = (id) => document.getElementById(id);
  Cards.setCatalog(JSON.parse($("catalog-data").textContent));
  const root = $("maus");
  const api = root.dataset.api;
  let state = JSON.parse($("state-data").textContent);
  let bids = [];            // coins tapped per seat this round (null: not yet)
  let bidsUnsure = [];      // seats whose coins the camera was not sure of
  let bidRound = null;
  let chosen = [];          // the cards tapped for the player laying now
  let verdict = null;       // the judge's answer for `chosen`
  let picked = 0;           // which way of laying them, best first
  let acting = false;

  // talking to the server ---------------------------------------------------------------

  async function send(path, body, version = state.version) {
    try {
      const response = await fetch(`${api}/${path}`, {
        method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(version === null ? body : { ...body, version }),
      });
      return { status: response.status, data: await response.json().catch(() => ({})) };
    } catch (error) {
      return { status: 0, data: {} };
    }
  }

  async function reload() {
    const response = await fetch(api, { headers: { Accept: "application/json" } });
    if (response.ok) {
      const next = await response.json();
      if (next.version >= state.version) state = next;
    }
  }

  /** One move; true when the game took it. */
  async function act(path, body) {
    if (acting) return false;
    acting = true;
    const { status, data } = await send(path, body);
    acting = false;
    if (status === 200) {
      state = data;
      message(null);
      if (path === "undo") toast(t("maus.undone"));
      forgetTurn();
    } else if (status === 409) {
      await reload().catch(() => {});
      message(t("err.stale"), "warn");
    } else {
      message(Cards.refusal(status, data, root.dataset.join), "error", true);
    }
    render();
    return status === 200;
  }

  function message(text, kind = "error", html = false) {
    const box = $("message");
    box.hidden = !text;
    box.className = `message ${kind}`;
    if (html) box.innerHTML = text || ""; else box.textContent = text || "";
  }

  function toast(text) {
    const box = $("toast");
    box.textContent = text;
    box.hidden = false;
    setTimeout(() => { box.hidden = true; }, 2500);
  }

  function forgetTurn() {
    chosen = [];
    verdict = null;
    picked = 0;
  }

  // drawing -------------------------------------------------------------------------------

  function player(seat) {
    return state.players[seat];
  }

  function render() {
    if (bidRound !== state.round || state.phase !== "bidding") {
      bidRound = state.phase === "bidding" ? state.round : null;
      bids = state.players.map(() => null);
      bidsUnsure = [];
    }
    $("m-title").textContent = state.phase === "over" ? t("phase.over") : t("maus.round", { n: state.round });
    $("m-undo").disabled = !state.can_undo;
    $("m-next").textContent = nextStep();
    renderBoard();
    renderBids();
    renderPicks();
    renderTurn();
    renderLaid();
    renderHelpers();
    renderRanking();
  }

  function nextStep() {
    const reached = state.players.some((p) => p.points >= state.target);
    if (state.phase === "over") return t("maus.next_over", { name: state.ranking[0].name });
    const last = reached ? ` ${t("maus.last_round", { target: state.target })}` : "";
    if (state.phase === "bidding") return t("maus.next_bids") + last;
    return t("maus.next_lay", { name: player(state.next_to_lay).name }) + last;
  }

  function renderBoard() {
    const rows = state.players.map((p) => {
      const width = Math.min(100, (100 * p.points) / state.target);
      const oldest = p.seat === state.oldest ? ` <small class="muted">(${esc(t("maus.oldest"))})</small>` : "";
      return `<tr data-seat="${p.seat}"><th>${esc(p.name)}${oldest}</th>`
        + `<td>${MausCards.helper(p.helper, state.numbers)}<br><small class="hand">${esc(t("maus.hand", { n: p.hand }))}</small></td>`
        + `<td class="score"><b>${p.points}</b><span class="to-target"><span style="width:${width}%"></span></span></td></tr>`;
    }).join("");
    $("m-board").innerHTML = `<table class="m-board"><tbody>${rows}</tbody></table>`
      + `<p class="muted">${esc(t("maus.target_line", { target: state.target }))}</p>`;
  }

  function renderBids() {
    const shown = state.phase === "bidding";
    $("m-bids").hidden = !shown;
    if (!shown) return;
    $("m-bid-rows").innerHTML = state.players.map((p) => {
      const keys = [0, 1, 2, 3, 4, 5, 6, 7].map((n) => `<button type="button" class="coin${bids[p.seat] === n ? " on" : ""}"`
        + ` data-seat="${p.seat}" data-coins="${n}" aria-pressed="${bids[p.seat] === n}">${n}</button>`).join("");
      const unsure = bidsUnsure.includes(p.seat) ? ` <span class="unsure">${esc(t("maus.camera_check"))}</span>` : "";
      return `<div class="bid-row" data-seat="${p.seat}"><span class="who">${esc(p.name)} `
        + `${MausCards.helper(p.helper)}</span>${unsure}<span class="coins" role="group" `
        + `aria-label="${esc(t("maus.coins_of", { name: p.name }))}">${keys}</span></div>`;
    }).join("");
    $("m-reveal").disabled = bids.some((n) => n === null);
  }

  function renderPicks() {
    const picks = state.picks;
    $("m-picks-panel").hidden = !picks.length;
    $("m-picks").innerHTML = picks.map((pick, index) => {
      const henri = pick.bonus ? ` <small>${esc(t("maus.henri_bonus", { n: pick.bonus }))}</small>` : "";
      const last = index === picks.length - 1 ? ` · ${esc(t("maus.picks_last"))}` : ` · ${esc(t("maus.picks_two"))}`;
      return `<li data-seat="${pick.seat}"><b>${esc(player(pick.seat).name)}</b> `
        + `${esc(t("maus.coins_n", { n: pick.coins }))}${henri}${last}</li>`;
    }).join("");
  }

  function renderTurn() {
    const seat = state.next_to_lay;
    const shown = state.phase === "laying" && seat !== null;
    $("m-turn").hidden = !shown;
    if (!shown) return;
    const p = player(seat);
    $("m-turn-title").textContent = t("maus.turn", { name: p.name });
    $("m-turn-helper").innerHTML = `${MausCards.helper(p.helper, state.numbers)} · ${esc(t("maus.hand", { n: p.hand }))}`;
    $("m-chosen").innerHTML = chosen.length
      ? chosen.map((c, i) => `<button type="button" class="chosen" data-index="${i}" aria-label="${esc(t("maus.remove", { card: MausCards.cardName(c) }))}">${MausCards.card(c)}</button>`).join("")
      : `<span class="muted">${esc(t("maus.tap_cards"))}</span>`;
    $("m-pad").innerHTML = MausCards.pad(chosen.length >= 4);
    $("m-verdict").innerHTML = verdictHtml();
    $("m-lay").disabled = !(verdict && verdict.legal);
  }

  function verdictHtml() {
    if (!verdict) return "";
    if (!verdict.legal) return `<p class="verdict illegal"><b>${esc(t("maus.illegal"))}</b> ${esc(verdict.why)}</p>`;
    const options = verdict.options.map((way, index) => `<li><label><input type="radio" name="m-way" value="${index}"`
      + `${index === picked ? " checked" : ""}> ${MausCards.way(way)}</label></li>`).join("");
    const best = verdict.options[0];
    return `<p class="verdict legal"><b>${esc(t("maus.legal"))}</b> ${MausCards.way(best)}</p>`
      + (verdict.options.length > 1 ? `<p class="muted">${esc(t("maus.options"))}</p><ol class="ways">${options}</ol>` : "");
  }

  function renderLaid() {
    $("m-laid-panel").hidden = !state.laid.length;
    $("m-laid").innerHTML = state.laid.map((laid) => `<li data-seat="${laid.seat}"><b>${esc(player(laid.seat).name)}</b>: `
      + (laid.skipped ? esc(t("maus.no_combination"))
        : `${MausCards.cards(laid.cards)} → ${MausCards.way(laid)}`) + "</li>").join("");
  }

  function renderHelpers() {
    const over = state.phase === "over";
    $("m-helpers-panel").hidden = over;
    if (over) return;
    $("m-helpers").innerHTML = state.players.map((p) => `<li data-seat="${p.seat}"><b>${esc(p.name)}</b>: `
      + `${MausCards.helper(p.next_helper, state.numbers)}</li>`).join("");
  }

  function renderRanking() {
    const over = state.phase === "over";
    $("m-ranking").hidden = !over;
    $("m-after").hidden = !over;
    if (!over) return;
    const rows = state.ranking.map((r) => `<tr><td>${r.place}</td><th>${esc(r.name)}</th><td><b>${r.points}</b></td>`
      + `<td>${MausCards.helper(r.helper, state.numbers)}${r.tie_break ? ` <small>${esc(t("maus.tie_break"))}</small>` : ""}</td></tr>`).join("");
    $("m-ranking").innerHTML = `<h2>${esc(t("maus.winner", { name: state.ranking[0].name }))}</h2>`
      + `<table class="scores ranking"><thead><tr><th>${esc(t("rank.place"))}</th><th>${esc(t("scores.player"))}</th>`
      + `<th>${esc(t("maus.points_head"))}</th><th>${esc(t("maus.helper_head"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  // the player's cards -------------------------------------------------------------------------

  async function judge() {
    verdict = null;
    picked = 0;
    if (chosen.length >= 3) {
      const asked = chosen.join(" ");
      const { status, data } = await send("judge", { seat: state.next_to_lay, cards: chosen }, null);
      if (chosen.join(" ") !== asked) return;  // more taps came meanwhile: their own verdict follows
      if (status === 200) verdict = data;
      else message(Cards.refusal(status, data, root.dataset.join), "error", true);
    }
    renderTurn();
  }

  async function readPhoto(input) {
    const file = input.files[0];
    input.value = "";
    if (!file) return null;
    toast(t("maus.camera_reading"));
    try {
      const response = await fetch(`${api}/read`, { method: "POST", body: file,
        headers: { "Content-Type": file.type === "image/png" ? "image/png" : "image/jpeg", Accept: "application/json" } });
      const data = await response.json().catch(() => ({}));
      $("toast").hidden = true;
      if (!response.ok) { message(Cards.refusal(response.status, data, root.dataset.join), "error", true); return null; }
      if (!data.cards.length) { message(t("maus.camera_none"), "warn"); return null; }
      return data;
    } catch (error) {
      $("toast").hidden = true;
      message(t("err.network"), "error");
      return null;
    }
  }

  // taps ----------------------------------------------------------------------------------------

  root.addEventListener("click", (event) => {
    const coin = event.target.closest("button.coin");
    if (coin) {
      bids[Number(coin.dataset.seat)] = Number(coin.dataset.coins);
      bidsUnsure = bidsUnsure.filter((s) => s !== Number(coin.dataset.seat));
      renderBids();
      return;
    }
    const key = event.target.closest("button.mkey");
    if (key && chosen.length < 4) {
      chosen.push(key.dataset.card);
      judge();
      return;
    }
    const chip = event.target.closest("button.chosen");
    if (chip) {
      chosen.splice(Number(chip.dataset.index), 1);
      judge();
    }
  });

  $("m-verdict").addEventListener("change", (event) => {
    if (event.target.name === "m-way") picked = Number(event.target.value);
  });

  $("m-reveal").addEventListener("click", () => act("bids", { coins: bids }));
  $("m-skip").addEventListener("click", () => act("skip", { seat: state.next_to_lay }));
  $("m-clear").addEventListener("click", () => { forgetTurn(); renderTurn(); });
  $("m-undo").addEventListener("click", () => act("undo", {}));
  $("m-lay").addEventListener("click", () => {
    if (!verdict || !verdict.legal) return;
    act("combination", { seat: state.next_to_lay, cards: chosen, change: verdict.options[picked].change });
  });

  $("m-bid-photo").addEventListener("change", async (event) => {
    const read = await readPhoto(event.target);
    if (!read) return;
    if (read.cards.length !== state.players.length) {
      message(t("maus.camera_bid_count"), "warn");
      return;
    }
    bids = read.cards.map((c) => c.coins);
    bidsUnsure = read.cards.flatMap((c, seat) => (c.sure && c.coins_sure ? [] : [seat]));
    message(bidsUnsure.length ? t("maus.camera_check_bids") : null, "warn");
    renderBids();
  });

  $("m-lay-photo").addEventListener("change", async (event) => {
    const read = await readPhoto(event.target);
    if (!read) return;
    chosen = read.cards.slice(0, 4).map((c) => c.card);
    message(read.sure ? null : t("maus.camera_check_cards"), "warn");
    judge();
  });

  // other devices ------------------------------------------------------------------------------

  LiveFeed.follow({
    url: root.dataset.live,
    got(next) {
      if (next.version > state.version && !acting) {
        const turn = state.next_to_lay;
        state = next;
        if (state.next_to_lay !== turn) forgetTurn();
        render();
      }
    },
    pollSeconds: Number(root.dataset.poll),
    async poll() {
      if (acting) return;
      const seen = state.version;
      try { await reload(); } catch (error) { return; }
      if (state.version !== seen) { forgetTurn(); render(); }
    },
    gone() { window.location.href = root.dataset.home; },
  });

  render();
})();

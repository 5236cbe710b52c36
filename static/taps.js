// Taps on the round page's pad, kept in the order they were made.
//
// Cards come off the oven pile faster than a reply comes back, often the same
// card several times in a row. A tap made while an earlier one is on its way
// waits its turn instead of being lost, and the taps go one at a time: each
// carries the version the previous reply brought, so a change made meanwhile
// by another device still gets its 409 instead of being built on unseen.
// Once one tap is not recorded, the taps behind it are dropped, not sent
// against a game that is no longer the one the player was looking at.
"use strict";

const Taps = (() => {
  const { card } = Cards;

  /** Consecutive equal cards counted: ["S", "S", "A"] → [["S", 2], ["A", 1]]. */
  function runs(cards) {
    const counted = [];
    for (const c of cards) {
      const last = counted[counted.length - 1];
      if (last && last[0] === c) last[1] += 1; else counted.push([c, 1]);
    }
    return counted;
  }

  /** `cards` as chips, a run of the same card drawn once with "×n". */
  function chips(cards, extraClass = "") {
    return runs(cards).map(([c, n]) => `<span class="tap-run" data-card="${Cards.esc(c)}" data-count="${n}">`
      + `${card(c, extraClass)}${n > 1 ? `<b class="tap-times">×${n}</b>` : ""}</span>`).join(" ");
  }

  /** The queue of taps. `version()` resolves to the game's version as the
   * page knows it, for the first tap of a run; `send(card, version)` resolves to
   * `{recorded: true, version}` or to `{recorded: false, ...why}`, and then
   * `dropped(cards, why)` gets that tap and every one behind it. `changed()`
   * follows every change of the queue. */
  function queue({ version, send, dropped, changed }) {
    const waiting = [];  // the first one is being sent while `running`
    let running = false;

    async function drain() {
      running = true;
      let based = await version();
      while (waiting.length) {
        const answer = await send(waiting[0], based).catch(() => ({ recorded: false }));
        if (answer.recorded) {
          waiting.shift();
          based = answer.version;
        } else {
          dropped(waiting.splice(0), answer);
        }
        running = waiting.length > 0;
        changed();
      }
    }

    return {
      add(c) {
        waiting.push(c);
        changed();
        if (!running) drain();
      },
      cards: () => [...waiting],
      idle: () => !running && waiting.length === 0,
    };
  }

  return { runs, chips, queue };
})();

// Changes made on other devices, as they happen: the round page listens to the
// server's event stream (server-sent events) and gets the game's whole state
// after each change. When the stream cannot be opened, or a newer one took
// its place (the server keeps a few open at most), the page asks for the state
// every few seconds instead and tries the stream again later; the browser
// itself opens a stream again after a dropped connection.
"use strict";

const LiveFeed = (() => {
  const AGAIN_MS = 60_000;  // how long a page polls before it tries the stream again

  /** Calls `got(state)` with each state the server pushes, from `url`; falls
   * back to `poll()` every `pollSeconds` (0: never) while no stream is open.
   * `gone()` is called when the game was deleted. */
  function follow({ url, got, poll, pollSeconds, gone }) {
    let source = null;
    let timer = null;

    function polling(on) {
      if (on && !timer && pollSeconds > 0) {
        timer = setInterval(() => { if (!document.hidden) poll(); }, pollSeconds * 1000);
      } else if (!on && timer) {
        clearInterval(timer);
        timer = null;
      }
    }

    function open() {
      if (!("EventSource" in window)) { polling(true); return; }
      source = new EventSource(url);
      source.addEventListener("open", () => polling(false));
      source.addEventListener("state", (event) => got(JSON.parse(event.data)));
      source.addEventListener("gone", () => { source.close(); gone(); });
      source.addEventListener("moved", () => {
        source.close();
        polling(true);
        setTimeout(open, AGAIN_MS);
      });
      source.addEventListener("error", () => {
        // CONNECTING: the browser tries again by itself; CLOSED: refused for good
        polling(true);
        if (source.readyState === EventSource.CLOSED) setTimeout(open, AGAIN_MS);
      });
    }

    open();
    return { close: () => { if (source) source.close(); polling(false); } };
  }

  return { follow };
})();

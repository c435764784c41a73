// The page's one websocket (docs/protocol.md): opened with a first message (join a table, or
// queue), reopened after a loss with a growing pause (0.5 s, 1 s, 2 s... up to 5 s), and closed for
// good when the page goes elsewhere. It knows nothing of the game: it hands each message on.

export class Connection {
  /**
   * `hello()`: the first message on each new socket, or null for none to open;
   * `onMessage(msg)`: each message, parsed; `onStatus(status)`: "connecting" | "open" | "lost" | "closed".
   */
  constructor({ hello, onMessage, onStatus }) {
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.joined = false; // the server answered the first message: the socket is in use
    this.backoff = 500;
    this.retry = null;
  }

  get url() {
    return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  }

  /** Whether a message sent now would go out. */
  get connected() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN && this.joined;
  }

  open() {
    clearTimeout(this.retry);
    const first = this.hello();
    if (!first) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this.joined = false;
    this.onStatus("connecting");
    ws.addEventListener("open", () => {
      if (this.ws === ws) ws.send(JSON.stringify(this.hello()));
    });
    ws.addEventListener("message", (ev) => {
      if (this.ws !== ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && typeof msg === "object") this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.joined = false;
      this.onStatus("lost");
      this.retry = setTimeout(() => this.open(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 5000);
    });
  }

  /** The server answered: the socket is in use, and the next loss starts the pauses afresh. */
  answered() {
    this.joined = true;
    this.backoff = 500;
    this.onStatus("open");
  }

  /** Drops this socket and opens a new one after the usual pause (a refusal that may pass). */
  tryAgain() {
    if (this.ws) this.ws.close(); // its "close" schedules the next try
  }

  /** Closes the socket for good (no reconnection). */
  close() {
    clearTimeout(this.retry);
    const old = this.ws;
    this.ws = null;
    this.joined = false;
    if (old) old.close();
    this.onStatus("closed");
  }

  send(msg) {
    if (!this.connected) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }
}

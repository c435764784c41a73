// Table chat: the lines and quick reactions of the people at a shared table (docs/protocol.md,
// the "chat" message). Every name and line is put on the page as text, never as HTML.

export const REACTIONS = ["bravo", "well_played", "thanks", "sorry", "hurry", "good_game"];
const KEEP = 100;

export class Chat {
  constructor(list) {
    this.list = list;
    this.lines = [];
    this.seen = new Set(); // a join sends the last lines again: each is shown once
  }

  clear() {
    this.lines = [];
    this.seen = new Set();
    this.list.textContent = "";
  }

  /** Keeps a line; false when it was already there. */
  add(line) {
    const key = `${line.at}|${line.seat}|${line.text}|${line.reaction}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    this.lines.push(line);
    if (this.lines.length > KEEP) this.lines.shift();
    return true;
  }

  /** Draws every line again (the words of reactions follow the page's language). */
  render(words) {
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    this.list.replaceChildren(...this.lines.map((line) => lineNode(line, words)));
    this.list.dataset.empty = words("chatEmpty");
    if (atBottom || this.lines.length < 4) this.list.scrollTop = this.list.scrollHeight;
  }
}

function lineNode(line, words) {
  const li = document.createElement("li");
  li.dataset.testid = "chat-line";
  li.dataset.seat = line.seat || "";
  const who = document.createElement("b");
  who.className = "who";
  who.textContent = `${line.name}: `;
  const what = document.createElement("span");
  what.className = "what";
  if (line.reaction) {
    li.classList.add("reaction");
    what.textContent = words(`react_${line.reaction}`);
  } else {
    what.textContent = line.text;
  }
  li.append(who, what);
  return li;
}

// Table chat: the lines and quick reactions of the people at a shared table, and of its spectators
// (docs/protocol.md, the "chat" message). Every name and line is put on the page as text, never as
// HTML; a reaction is the page's own picture (icons.js) and words. The reactions a table takes are
// the server's (GET /api/games, games.js REACTIONS).

import { reactionIcon } from "./icons.js";
import { esc } from "./dom.js";

const KEEP = 100;

/** A reaction's words: the page's (`react_<name>`), or for one it has none for, its name. */
export function reactionWords(name, words) {
  const key = `react_${name}`;
  const said = words(key);
  return said === key ? name.replaceAll("_", " ") : said;
}

/** A reaction as a bubble shows it: its picture, then its words. */
export function reactionHtml(name, words) {
  return `${reactionIcon(name)}<span class="react-words">${esc(reactionWords(name, words))}</span>`;
}

/** The quick reactions' buttons: each its picture, named and titled by its words. */
export function reactionButtonsHtml(names, words) {
  return names
    .map((r) => {
      const said = esc(reactionWords(r, words));
      return (
        `<button type="button" class="btn ghost reaction" data-reaction="${r}" data-testid="react-${r}" ` +
        `aria-label="${said}" title="${said}">${reactionIcon(r) || said}</button>`
      );
    })
    .join("");
}

/** Who said a line: a seated person's name, or a spectator's marked as one. */
export function whoSaid(line, words) {
  if (!line.spectator) return line.name;
  return line.name ? words("chatSpectatorNamed", { name: line.name }) : words("chatSpectator");
}

export class Chat {
  /** `hidden(line)`: whether a line is kept but not shown (a blocked player's). */
  constructor(list, hidden = () => false) {
    this.list = list;
    this.hidden = hidden;
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
    const key = `${line.at}|${line.seat}|${line.name}|${line.text}|${line.reaction}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    this.lines.push(line);
    if (this.lines.length > KEEP) this.lines.shift();
    return true;
  }

  /** Draws every line again (the words of reactions follow the page's language). */
  render(words) {
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    this.list.replaceChildren(...this.lines.filter((line) => !this.hidden(line)).map((line) => lineNode(line, words)));
    this.list.dataset.empty = words("chatEmpty");
    if (atBottom || this.lines.length < 4) this.list.scrollTop = this.list.scrollHeight;
  }
}

function lineNode(line, words) {
  const li = document.createElement("li");
  li.dataset.testid = "chat-line";
  li.dataset.seat = line.seat || "";
  if (line.spectator) li.classList.add("spectator");
  const who = document.createElement("b");
  who.className = "who";
  who.textContent = `${whoSaid(line, words)}: `;
  const what = document.createElement("span");
  what.className = "what";
  if (line.reaction) {
    li.classList.add("reaction");
    what.innerHTML = reactionIcon(line.reaction); // the page's own picture, no text of the line
    what.append(reactionWords(line.reaction, words));
  } else {
    what.textContent = line.text;
  }
  li.append(who, what);
  return li;
}

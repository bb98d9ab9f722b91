// The phone's outbox: a tap is kept, with its idempotency key, in the page's storage until the server has answered
// it, so a move survives a network drop and a reload and is recorded once (the server answers a key it has seen
// with its first answer). Storage and the sending are given, so the unit tests (tests/page/) run it without a
// browser: `storage` is localStorage's getItem/setItem/removeItem, `send(entry)` resolves to the server's answer
// ({status, data}) or rejects when no answer came.

// A fresh random key: 32 hex digits from `fill` (crypto.getRandomValues on the page).
export function freshKey(fill) {
  const bytes = new Uint8Array(16);
  fill(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Statuses that are no answer to the move: it was not carried out, so it is sent again with the same key.
const NOT_ANSWERED = new Set([0, 429, 502, 503, 504]);

export class Outbox {
  constructor(storage, name, send, fill) {
    this.storage = storage;
    this.name = name;
    this.send = send;
    this.fill = fill;
  }

  // The moves waiting for their answers, oldest first ([{key, path, body}]).
  get entries() {
    let text = null;
    try {
      text = this.storage.getItem(this.name);
    } catch {
      return [];
    }
    let list = [];
    try {
      list = JSON.parse(text || "[]");
    } catch {
      return [];
    }
    return Array.isArray(list)
      ? list.filter((entry) => entry && typeof entry.key === "string" && typeof entry.path === "string")
      : [];
  }

  // The move sent next, or null.
  get waiting() {
    return this.entries[0] || null;
  }

  // Keep a new move, with a fresh key, after those still waiting: a tap while another is on its way is sent once
  // that one is answered, in the order they were made.
  put(path, body) {
    const entry = { key: freshKey(this.fill), path, body };
    this.storage.setItem(this.name, JSON.stringify([...this.entries, entry]));
    return entry;
  }

  forget() {
    this.storage.removeItem(this.name);
  }

  // Send the oldest waiting move once: its answer (and it is forgotten), or null when no answer came (it stays, to
  // be sent again with the same key).
  async try() {
    const entry = this.waiting;
    if (!entry) return null;
    let answer;
    try {
      answer = await this.send(entry);
    } catch {
      return null;
    }
    if (!answer || NOT_ANSWERED.has(answer.status)) return null;
    const left = this.entries.filter((kept) => kept.key !== entry.key);
    if (left.length) this.storage.setItem(this.name, JSON.stringify(left));
    else this.forget();
    return { entry, answer };
  }
}

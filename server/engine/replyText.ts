// Why this file: models are asked for a structured TurnAnswer (JSON), but the panel should see the reply being
// written in words, not braces and keys. ReplyText reads the raw stream as it arrives and yields only the
// human-readable part: the `content` string of the JSON object (decoded as it comes, escapes and all), or the
// whole text when the model answers in prose. A `<think>…</think>` preamble is never shown. The structure is
// validated once, at the end, by parseTurnAnswer (answer.ts); this only decides what to show meanwhile.

type Mode = 'start' | 'think' | 'prose' | 'json' | 'content' | 'done';

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };

export class ReplyText {
  private mode: Mode = 'start';
  /** Text held while the start of the reply is still ambiguous (whitespace, a possible <think>). */
  private held = '';
  // JSON scanning outside the content string.
  private depth = 0;
  private inString = false;
  private escaped = false;
  private isKey = false;
  private stringSoFar = '';
  private key: string | null = null;
  private afterColon = false;
  /** An escape sequence inside the content string cut by a chunk boundary. */
  private escape = '';

  /** Feeds one raw piece of the model's output; returns the readable text it adds (possibly empty). */
  push(raw: string): string {
    let out = '';
    let rest = raw;
    while (rest) {
      switch (this.mode) {
        case 'start': {
          this.held += rest;
          rest = '';
          const t = this.held.replace(/^\s+/, '');
          if (!t) {
            this.held = '';
            break;
          }
          if ('<think>'.startsWith(t.slice(0, 7)) && t.length < 7) break; // could still become <think>
          this.held = '';
          if (t.startsWith('<think>')) {
            this.mode = 'think';
            rest = t.slice(7);
          } else if (t[0] === '{' || t[0] === '`') {
            this.mode = 'json';
            rest = t;
          } else {
            this.mode = 'prose';
            rest = t;
          }
          break;
        }
        case 'think': {
          this.held += rest;
          rest = '';
          const end = this.held.indexOf('</think>');
          if (end >= 0) {
            rest = this.held.slice(end + 8);
            this.held = '';
            this.mode = 'start';
          } else if (this.held.length > 16) this.held = this.held.slice(-16);
          break;
        }
        case 'prose':
          out += rest;
          rest = '';
          break;
        case 'json':
          rest = this.scan(rest);
          break;
        case 'content': {
          const [text, left] = this.decode(rest);
          out += text;
          rest = left;
          break;
        }
        case 'done':
          rest = '';
          break;
      }
    }
    return out;
  }

  /** Structural JSON: follows depth and keys until the top-level "content" string opens; returns what follows it. */
  private scan(s: string): string {
    for (let i = 0; i < s.length; i++) {
      const ch = s[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (ch === '\\') this.escaped = true;
        else if (ch === '"') {
          this.inString = false;
          if (this.isKey) this.key = this.stringSoFar;
        } else this.stringSoFar += ch;
        continue;
      }
      if (ch === '"') {
        if (this.depth === 1 && this.afterColon && this.key === 'content') {
          this.mode = 'content';
          return s.slice(i + 1);
        }
        this.inString = true;
        this.isKey = this.depth === 1 && !this.afterColon;
        this.stringSoFar = '';
      } else if (ch === '{' || ch === '[') this.depth++;
      else if (ch === '}' || ch === ']') this.depth--;
      else if (ch === ':' && this.depth === 1) this.afterColon = true;
      else if (ch === ',' && this.depth === 1) {
        this.afterColon = false;
        this.key = null;
      }
    }
    return '';
  }

  /** Inside the content string: decoded text up to its closing quote, and what is left after it. */
  private decode(s: string): [string, string] {
    let out = '';
    for (let i = 0; i < s.length; i++) {
      const ch = s[i];
      if (this.escape) {
        this.escape += ch;
        if (this.escape[1] === 'u') {
          if (this.escape.length < 6) continue;
          const code = Number.parseInt(this.escape.slice(2), 16);
          out += Number.isNaN(code) ? '' : String.fromCharCode(code);
        } else out += ESCAPES[this.escape[1]] ?? this.escape[1];
        this.escape = '';
      } else if (ch === '\\') this.escape = '\\';
      else if (ch === '"') {
        this.mode = 'done';
        return [out, ''];
      } else out += ch;
    }
    return [out, ''];
  }
}

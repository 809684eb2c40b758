// Just enough XML reading for the arXiv Atom feed, without a dependency: elements by local name
// (namespace prefixes ignored), attributes, CDATA and entities. Not a general parser: it assumes
// well-formed input and no nesting of an element inside one with the same name (true for Atom).

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n = code[1].toLowerCase() === 'x' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
    }
    return ENTITIES[code.toLowerCase()] ?? whole;
  });
}

/** Text content: CDATA kept verbatim, tags dropped, entities decoded, whitespace collapsed. */
export function textOf(inner: string): string {
  const parts: string[] = [];
  const re = /<!\[CDATA\[([\s\S]*?)\]\]>/g;
  let last = 0;
  for (let m = re.exec(inner); m; m = re.exec(inner)) {
    parts.push(decodeEntities(inner.slice(last, m.index).replace(/<[^>]*>/g, ' ')), m[1]);
    last = m.index + m[0].length;
  }
  parts.push(decodeEntities(inner.slice(last).replace(/<[^>]*>/g, ' ')));
  return parts.join('').replace(/\s+/g, ' ').trim();
}

export interface XmlElement {
  attrs: Record<string, string>;
  inner: string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every element named `name` (any namespace prefix) in `xml`, in document order. */
export function elements(xml: string, name: string): XmlElement[] {
  const n = escapeRe(name);
  const re = new RegExp(`<(?:[\\w.-]+:)?${n}(\\s[^>]*?)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${n}\\s*>)`, 'g');
  const out: XmlElement[] = [];
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push({ attrs: attributes(m[1] ?? ''), inner: m[2] ?? '' });
  return out;
}

export function attributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const re = /([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
  for (let m = re.exec(source); m; m = re.exec(source)) attrs[m[1]] = decodeEntities(m[3] ?? m[4] ?? '');
  return attrs;
}

export const firstText = (xml: string, name: string) => {
  const el = elements(xml, name)[0];
  return el ? textOf(el.inner) : '';
};

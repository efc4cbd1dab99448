// A small XML reader for the two machine-written list formats (UN SC, OFAC Enhanced XML).
// Why not fast-xml-parser: measured here it took ~330 ms for the 3.4 MB OFAC file and ~130 ms
// for the UN file; this reader takes ~85 ms and ~35 ms, and lists are parsed at every start.
// It keeps elements, attributes and text, decodes the predefined and numeric entities, skips
// comments, processing instructions and DOCTYPE, and never expands custom entities (so no XXE
// or entity bombs from an imported file). An imported file is untrusted: nesting and the number
// of elements are bounded, and error messages never quote the file.
import { FormatError } from './common';
import { collectWhenGrown } from '../../workers/collect';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const TOKEN =
  /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>|([^<]+)|(<)/g;
const ATTR = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name) return NAMED[name] ?? whole;
    const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16);
    return Number.isInteger(cp) && cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}

/** Local name without a namespace prefix ("ns:entity" -> "entity"). */
function local(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

export class XmlError extends FormatError {}

/**
 * The UN and OFAC files nest 10 deep at most. OFAC's 443-record CONS_ENHANCED.XML has 58,000
 * elements (~130 per record), which puts the ~18,000-record SDN_ENHANCED.XML near 2.4 million;
 * an element costs ~160 bytes parsed, so a file of empty elements stops well short of a GB.
 */
export const XML_LIMITS = { depth: 64, elements: 5_000_000 };

/**
 * Called as each element ends, with its parent and how deep it is (the root is at depth 1): true
 * when the caller has read it and it need not stay in the tree. A list's records are taken so,
 * one by one: a 30 MB file's tree of every record was ~250 MB live, its records alone a fraction.
 */
export type TakeElement = (el: XmlElement, parent: XmlElement, depth: number) => boolean;

/** Bytes of a file decoded and read at a time: its text is never one string (a 30 MB file's was 60 MB). */
const CHUNK_BYTES = 1 << 20;

/**
 * Parses a whole document, given as text or as its UTF-8 bytes (decoded and read a piece at a
 * time); throws XmlError when tags do not nest. Returns the root element, without the elements
 * `take` took.
 */
export function parseXml(xml: string | Uint8Array, limits: typeof XML_LIMITS = XML_LIMITS, take?: TakeElement, chunkBytes = CHUNK_BYTES): XmlElement {
  const p = parser(limits, take);
  if (typeof xml === 'string') {
    p.read(xml, true);
    return p.root();
  }
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for (let at = 0; at < xml.length; at += chunkBytes) {
    const last = at + chunkBytes >= xml.length;
    rest = p.read(rest + withoutSub(decoder.decode(xml.subarray(at, at + chunkBytes), { stream: !last })), last);
    collectWhenGrown(24);
  }
  if (xml.length === 0) p.read('', true);
  return p.root();
}

/** DOS's end-of-file character, which some exports leave in the text (as decodeText drops it). */
const withoutSub = (text: string) => (text.includes('\u001a') ? text.replace(/\u001a/g, '') : text);

function parser(limits: typeof XML_LIMITS, take: TakeElement | undefined) {
  const doc: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [doc];
  let elements = 0;
  return {
    /**
     * Reads the markup of `xml`. Unless it is the `last` piece, a token that reaches its end (it
     * may go on in the next piece) is not read: it is given back, to come before the next piece.
     */
    read(xml: string, last: boolean): string {
      TOKEN.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = TOKEN.exec(xml)) !== null) {
        if (!last && (TOKEN.lastIndex === xml.length || m[7] !== undefined)) return xml.slice(m.index);
        const top = stack[stack.length - 1] as XmlElement;
        const tag = m[2];
        if (tag !== undefined) {
          const name = local(tag);
          if (m[1]) {
            if (top.name !== name || stack.length === 1) throw new XmlError('a closing tag does not match the open element');
            stack.pop();
            const parent = stack[stack.length - 1] as XmlElement;
            // It is its parent's last child until the next sibling opens.
            if (take?.(top, parent, stack.length)) parent.children.pop();
            continue;
          }
          if (++elements > limits.elements) throw new XmlError(`more than ${limits.elements} elements`);
          const el: XmlElement = { name, attrs: {}, children: [], text: '' };
          const rawAttrs = m[3];
          if (rawAttrs) {
            ATTR.lastIndex = 0;
            let a: RegExpExecArray | null;
            while ((a = ATTR.exec(rawAttrs)) !== null) el.attrs[local(a[1] ?? '')] = decode(a[2] ?? a[3] ?? '');
          }
          top.children.push(el);
          if (!m[4]) {
            if (stack.length > limits.depth) throw new XmlError(`elements nested more than ${limits.depth} deep`);
            stack.push(el);
          } else if (take?.(el, top, stack.length)) {
            top.children.pop();
          }
        } else if (m[5] !== undefined) {
          top.text += m[5];
        } else if (m[6] !== undefined) {
          // Indentation between elements lands here too; readers trim.
          if (stack.length > 1) top.text += decode(m[6]);
        } else if (m[7] !== undefined) {
          throw new XmlError('malformed markup');
        }
      }
      return '';
    },
    /** The document's root, once every piece is read. */
    root(): XmlElement {
      if (stack.length !== 1) throw new XmlError('an element is not closed');
      const root = doc.children[0];
      if (!root) throw new XmlError('no root element');
      return root;
    },
  };
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** Trimmed text of a child element, '' when absent. */
export function textOf(el: XmlElement | undefined, name: string): string {
  const c = child(el, name);
  return c ? c.text.replace(/\s+/g, ' ').trim() : '';
}

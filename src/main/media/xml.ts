import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** One element of a parsed sidecar: local name (namespace prefix dropped), attributes, children, text. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ATTR = '@';
const TEXT = '#text';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  textNodeName: TEXT,
  removeNSPrefix: true,
  // No entity expansion at all: an entity declared in a DOCTYPE stays as its literal text, an external one makes the
  // parser refuse the document. The five predefined entities and character references are decoded below.
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return PREDEFINED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function toElement(name: string, value: unknown): XmlElement {
  const element: XmlElement = { name, attrs: {}, children: [], text: '' };
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    element.text = decode(String(value));
    return element;
  }
  if (typeof value !== 'object' || value === null) return element;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === TEXT) element.text = decode(String(v));
    else if (key.startsWith(ATTR)) element.attrs[key.slice(ATTR.length)] = decode(String(v));
    else if (Array.isArray(v)) for (const child of v) element.children.push(toElement(key, child));
  }
  return element;
}

/**
 * A sidecar XML document's root element, or null for text that is not well-formed XML or declares an external entity:
 * a damaged or hostile sidecar reads as no sidecar, never as a crash or a file read.
 */
export function parseXml(text: string): XmlElement | null {
  if (text.length > 4 * 1024 * 1024 || XMLValidator.validate(text) !== true) return null;
  let doc: unknown;
  try {
    doc = parser.parse(text);
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null) return null;
  const [name, value] = Object.entries(doc).find(([k]) => !k.startsWith('?')) ?? [];
  if (!name || !Array.isArray(value)) return null;
  return toElement(name, value[0]);
}

/** Every element named `name` under (and including) `root`, in document order. */
export function elements(root: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement): void => {
    if (e.name === name) out.push(e);
    e.children.forEach(walk);
  };
  walk(root);
  return out;
}

/** The text of the first element named `name` with text (an rdf:Alt/Seq's first rdf:li), or null. */
export function textOf(root: XmlElement, name: string): string | null {
  for (const e of elements(root, name)) {
    const own = e.text.trim() || elements(e, 'li')[0]?.text.trim();
    if (own) return own;
  }
  return null;
}

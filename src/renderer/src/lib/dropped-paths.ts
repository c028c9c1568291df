/**
 * Paths carried by dropped or pasted text: absolute paths one per line, or file:// URIs (what file managers put in
 * text/uri-list). A browser never reveals where a dropped File lives, so File objects alone give nothing here.
 */
export function pathsFromText(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('file://')) {
      try {
        const url = new URL(line);
        const path = decodeURIComponent(url.pathname);
        out.push(/^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path);
      } catch {
        continue;
      }
    } else if (line.startsWith('/') || /^[A-Za-z]:[\\/]/.test(line) || line.startsWith('\\\\')) out.push(line);
  }
  return [...new Set(out)];
}

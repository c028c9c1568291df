const isAbsolutePath = (p: string): boolean => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');

/** The path a line of text names (file:// URIs decoded), or null for a blank line, a comment or a bad URI. */
function pathOfLine(raw: string): string | null {
  const line = raw.trim();
  if (!line || line.startsWith('#')) return null;
  if (!line.startsWith('file://')) return line;
  try {
    const path = decodeURIComponent(new URL(line).pathname);
    return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
  } catch {
    return null;
  }
}

const lines = (text: string): string[] => [
  ...new Set(
    text
      .split(/\r?\n/)
      .map(pathOfLine)
      .filter((p): p is string => p !== null),
  ),
];

/**
 * Paths carried by dropped or pasted text: absolute paths one per line, or file:// URIs (what file managers put in
 * text/uri-list). A browser never reveals where a dropped File lives, so File objects alone give nothing here.
 */
export function pathsFromText(text: string): string[] {
  return lines(text).filter(isAbsolutePath);
}

/** Paths typed one per line: relative ones are kept, so main can answer each with why it is refused. */
export function typedPaths(text: string): string[] {
  return lines(text);
}

/** Everything one drop names: the dropped files' own paths (desktop only) first, then paths carried as text, once each. */
export function droppedPaths(filePaths: readonly string[], text: string): string[] {
  return [...new Set([...filePaths.filter(isAbsolutePath), ...pathsFromText(text)])];
}

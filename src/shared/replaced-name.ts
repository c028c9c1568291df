/**
 * Where an export's Replace by a typed path keeps the file it replaces: "markers.edl" -> "markers (replaced).edl"
 * (main numbers it when taken). A path gives its last part's.
 */
export function replacedName(file: string): string {
  const name = file.split(/[\\/]/).pop() ?? file;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (replaced)${name.slice(dot)}` : `${name} (replaced)`;
}

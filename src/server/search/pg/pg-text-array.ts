/** A text[] literal of lexemes, for a query parameter cast to text[]. */
export function textArray(lexemes: readonly string[]): string {
  return `{${lexemes.map((l) => `"${l.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

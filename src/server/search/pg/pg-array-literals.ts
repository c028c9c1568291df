/** A text[] literal of lexemes, for a query parameter cast to text[]. */
export function textArray(lexemes: readonly string[]): string {
  return `{${lexemes.map((l) => `"${l.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

/** An int[] or bigint[] literal, for a query parameter cast to either. */
export function intArray(values: readonly number[]): string {
  if (!values.every(Number.isSafeInteger)) throw new Error('intArray: every value must be an integer');
  return `{${values.join(',')}}`;
}

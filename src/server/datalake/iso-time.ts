/** Times on interface B's records: epoch milliseconds in the database, ISO 8601 UTC on the wire. */
export const iso = (ms: number): string => new Date(ms).toISOString();

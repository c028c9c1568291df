/**
 * The version of the rules the indexer writes a video's index by. Bump it by hand whenever what the indexer writes
 * for a video changes (a label threshold, a confirmation step, an analyzer added or dropped, what a segment row
 * holds): every video is stamped with the version it was indexed under (`videos.index_rules`), and the service
 * re-indexes PARSE videos stamped otherwise in the background (jobs/reindex-worker.ts), so a library indexed before
 * gets the new search without re-uploading. Any string; compared for equality only.
 */
export const INDEX_RULES_VERSION = '2026-11-29.1';

import type { Availability } from '../types';

/**
 * An analyzer's availability from loading its process-wide engine: ok with the engine's version, or why it did not
 * load, prefixed with what the analyzer needs.
 */
export async function engineAvailability(
  load: () => Promise<{ version: string }>,
  needs: string,
): Promise<{ availability: Availability; version: string | null }> {
  try {
    const engine = await load();
    return { availability: { ok: true }, version: engine.version };
  } catch (err) {
    const reason = `${needs}: ${err instanceof Error ? err.message : String(err)}`;
    return { availability: { ok: false, reason }, version: null };
  }
}

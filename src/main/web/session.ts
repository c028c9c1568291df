import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../log';
import { startWebServer, type WebServer, type WebServerOptions } from './server';

const sessionSchema = z.object({
  port: z.number().int().min(1).max(65535),
  token: z.string().regex(/^[A-Za-z0-9_-]{32,200}$/),
});
export type WebSession = z.infer<typeof sessionSchema>;

/** The web mode's address between runs: `<data>/web-session.json`, readable by its owner only (it holds the token). */
export function webSessionFile(dataDir: string): string {
  return join(dataDir, 'web-session.json');
}

/** The saved port and token of this data folder, or null (none yet, or a file that is not one: a new session then). */
export function readWebSession(dataDir: string, log: Logger): WebSession | null {
  let text: string;
  try {
    text = readFileSync(webSessionFile(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    return sessionSchema.parse(JSON.parse(text));
  } catch (err) {
    log.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'ignoring an invalid web-session.json: a new address is made',
    );
    return null;
  }
}

function writeWebSession(dataDir: string, session: WebSession): void {
  const file = webSessionFile(dataDir);
  writeFileSync(file, `${JSON.stringify(session)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // writeFileSync's mode applies only to a new file
}

function addressInUse(err: unknown): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
}

/**
 * Starts the web server at the address this data folder had last time, so a tab left open reconnects after a restart
 * of the app: the same token, and the same port while it is free (another one, saved for next time, when it is not).
 * An explicit port is used as given.
 */
export async function startStableWebServer(
  dataDir: string,
  options: Omit<WebServerOptions, 'token' | 'port'> & { port?: number },
  log: Logger,
): Promise<WebServer> {
  const saved = readWebSession(dataDir, log);
  const token = saved?.token ?? randomBytes(24).toString('base64url');
  let web: WebServer;
  if (options.port !== undefined) {
    web = await startWebServer({ ...options, token, port: options.port });
  } else {
    try {
      web = await startWebServer({ ...options, token, port: saved?.port ?? 0 });
    } catch (err) {
      if (!saved || !addressInUse(err)) throw err;
      log.warn({ port: saved.port }, 'the web mode port of the last run is taken: using another one');
      web = await startWebServer({ ...options, token, port: 0 });
    }
  }
  writeWebSession(dataDir, { port: Number(new URL(web.origin).port), token });
  return web;
}

import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ReelsyncApp } from './app';
import { defaultDataDir, rendererBuildDir } from './paths';
import { nodeKeyVault } from './settings/os-keychain';
import { startStableWebServer } from './web/session';

const Args = z.object({
  /** Default: the port of the last run on this data folder while it is free (web-session.json). */
  port: z.coerce.number().int().min(0).max(65535).optional(),
  host: z.enum(['127.0.0.1', 'localhost', '::1']).default('127.0.0.1'),
  data: z.string().min(1).optional(),
});

/** Headless web mode: the same UI and contract served to a browser on loopback. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' } },
  });
  const parsed = Args.safeParse(values);
  if (!parsed.success) {
    process.stderr.write(
      `reelsync web: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}\n`,
    );
    process.exit(2);
  }
  const dataDir = parsed.data.data ?? defaultDataDir();
  const app = new ReelsyncApp({ dataDir, mode: 'web', connect: true, vault: nodeKeyVault() });
  await app.start();
  const web = await startStableWebServer(
    dataDir,
    { app, rendererDir: rendererBuildDir, host: parsed.data.host, port: parsed.data.port },
    app.log,
  );
  process.stdout.write(`Reelsync is running in headless web mode. Open: ${web.url}\n`);
  const shutdown = (): void => {
    void web
      .close()
      .then(() => app.stop())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`reelsync web: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

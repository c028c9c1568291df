import { ReelsyncApp, type AppOptions } from '../../src/main/app';
import { rendererBuildDir } from '../../src/main/paths';
import { startWebServer, type WebServer } from '../../src/main/web/server';
import { tempDir } from './temp';

export interface RunningWebApp {
  app: ReelsyncApp;
  web: WebServer;
  dataDir: string;
  stop(): Promise<void>;
}

/** The client app in headless web mode on 127.0.0.1, with a throwaway data folder (and a library, if given). */
export async function startWebApp(library?: AppOptions['library']): Promise<RunningWebApp> {
  const { dir, cleanup } = await tempDir('reelsync-web-');
  const app = new ReelsyncApp({ dataDir: dir, mode: 'web', library });
  await app.start();
  const web = await startWebServer({ app, rendererDir: rendererBuildDir });
  return {
    app,
    web,
    dataDir: dir,
    stop: async () => {
      await web.close();
      await app.stop();
      await cleanup();
    },
  };
}

import { spawn } from 'node:child_process';
import { dirname } from 'node:path';

/** Shows a file in the system file manager; answers what happened in words the UI can show. */
export type Reveal = (file: string) => Promise<{ done: boolean; detail: string }>;

export interface RevealCommand {
  command: string;
  args: string[];
  /** Windows only: explorer parses `/select,"path"` itself, so the line is passed as written. */
  verbatim: boolean;
}

/**
 * The command a file manager reveals a file with: Finder selects it (`open -R`), Explorer selects it
 * (`explorer /select,"path"`); on Linux there is no common "select" verb, so the folder holding it opens (never the
 * file itself, which would run whatever app is tied to it).
 */
export function revealCommand(platform: NodeJS.Platform, file: string): RevealCommand {
  switch (platform) {
    case 'darwin':
      return { command: 'open', args: ['-R', file], verbatim: false };
    case 'win32':
      // A quote cannot occur in a Windows path; one here could end the quoted argument early.
      if (file.includes('"')) throw new Error(`not a Windows path: ${file}`);
      return { command: 'explorer.exe', args: [`/select,"${file}"`], verbatim: true };
    default:
      return { command: 'xdg-open', args: [dirname(file)], verbatim: false };
  }
}

/** How long an opener may run before it counts as started: xdg-open returns at once, or fails within this time. */
const SETTLE_MS = 3000;

/**
 * The web mode's reveal: runs the platform's file manager command on the machine the app runs on (the web mode only
 * listens on loopback, so that is the editor's own machine). Only paths main looked up from its own records (a
 * library file or a saved clip, by id) reach this.
 */
export function osReveal(platform: NodeJS.Platform = process.platform): Reveal {
  return (file) =>
    new Promise((resolve) => {
      let cmd: RevealCommand;
      try {
        cmd = revealCommand(platform, file);
      } catch (err) {
        resolve({ done: false, detail: err instanceof Error ? err.message : String(err) });
        return;
      }
      const child = spawn(cmd.command, cmd.args, {
        stdio: 'ignore',
        detached: true,
        windowsVerbatimArguments: cmd.verbatim,
      });
      const timer = setTimeout(() => {
        child.unref();
        resolve({ done: true, detail: file });
      }, SETTLE_MS);
      child.once('error', (err) => {
        clearTimeout(timer);
        resolve({
          done: false,
          detail: `No file manager could be opened here, so the file is not shown. It is at ${file} (${cmd.command} could not run: ${err.message})`,
        });
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        // Explorer answers 1 even when it opened the window.
        const opened = code === 0 || (platform === 'win32' && code === 1);
        resolve(
          opened
            ? { done: true, detail: file }
            : {
                done: false,
                detail: `No file manager could be opened here, so the file is not shown. It is at ${file} (${cmd.command} ended with ${code === null ? 'a signal' : `code ${code}`}${code === 3 && cmd.command === 'xdg-open' ? ': no file manager is set up' : ''})`,
              },
        );
      });
    });
}

import { spawn } from 'node:child_process';
import { refusedFormat } from '../../common/media/media-input';

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

export class ToolError extends Error {
  /** The input format ffmpeg refused under its whitelist (media-input.ts), if that is why it failed. */
  readonly refusedFormat: string | null;
  constructor(message: string, options?: { cause?: unknown; refusedFormat?: string | null }) {
    super(message, options);
    this.name = 'ToolError';
    this.refusedFormat = options?.refusedFormat ?? null;
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Called with each complete stdout line; stdout is then not collected. */
  onStdoutLine?: (line: string) => void;
  /** Keep only the last this-many characters of stderr (tools like showinfo can be chatty). */
  stderrLimit?: number;
}

/** Runs a tool to completion; rejects with ToolError (its stderr tail) on a non-zero exit, with the abort reason on abort. */
export function runTool(file: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const { signal, onStdoutLine, stderrLimit = 4 * 1024 * 1024 } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
    const chunks: Buffer[] = [];
    let pending = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (!onStdoutLine) {
        chunks.push(chunk);
        return;
      }
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onStdoutLine(line);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.length > stderrLimit * 2) stderr = stderr.slice(-stderrLimit);
    });
    child.on('error', (err) => {
      reject(
        signal?.aborted
          ? (signal.reason as Error)
          : new ToolError(`${file} could not start: ${err.message}`, { cause: err }),
      );
    });
    child.on('close', (code, killedBy) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      if (pending && onStdoutLine) onStdoutLine(pending);
      if (code === 0) {
        resolve({ stdout: Buffer.concat(chunks), stderr: stderr.slice(-stderrLimit) });
        return;
      }
      const tail = stderr.trim().split('\n').slice(-3).join('; ');
      reject(
        new ToolError(`${file} exited with ${code ?? killedBy}: ${tail}`, { refusedFormat: refusedFormat(stderr) }),
      );
    });
  });
}

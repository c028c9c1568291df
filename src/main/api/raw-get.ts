import { close, constants, open, writevSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { ChunkedDecoder } from './chunked-decoder';
import { framingOf, parseResponseHead, type BodyFraming, type ResponseHead } from './response-head';

/**
 * One HTTP/1.1 GET whose body goes straight from the socket's read buffers to a file. Large downloads are CPU-bound on
 * loopback and LAN links, and Node's HTTP stacks allocate a Buffer per socket read (~32 KiB) and then pay for it in
 * garbage collection (measured: ~1.8 s of CPU per GB in node:http and undici). Here the socket reads into 256 KiB
 * buffers from a small pool (`onread`), and each buffer's body bytes are written to the file from where they landed
 * (no copies) before the buffer goes back to the pool. It runs in the download thread (download-worker.ts), so the
 * writes block (`writevSync`: no thread-pool round trip per read, ~0.5 s less CPU per GB than async writes); bytes
 * that arrive while the file is being opened wait in their buffers, and reading pauses past 4 MiB of them.
 */
export interface RawGetOptions {
  headers: Record<string, string>;
  signal?: AbortSignal;
  /** No bytes for this long: the connection is given up. */
  idleTimeoutMs: number;
  /** Extra certificate authority to trust for https (a team server with its own CA). */
  ca?: string | Buffer;
}

/** What to do with the body, decided from the head. */
export type BodyPlan =
  | { kind: 'file'; path: string; start: number; onBytes?: (n: number) => void }
  | { kind: 'text'; limit: number }
  | { kind: 'discard' }
  /** Nothing of the body is wanted: the connection is closed right after the head. */
  | { kind: 'none' };

export interface RawGetResult {
  head: ResponseHead;
  /** Body bytes received (for a file: written). */
  bytes: number;
  /** The body, for a `text` plan. */
  text: string | null;
}

const READ_BUFFER_BYTES = 256 << 10;
const MAX_QUEUED_BYTES = 4 << 20;
/** Every buffer that can be waiting for the disk, plus the one being read into: none ever becomes garbage. */
const POOL_SIZE = MAX_QUEUED_BYTES / READ_BUFFER_BYTES + 2;
const MAX_HEAD_BYTES = 64 * 1024;

export function rawGet(url: string, o: RawGetOptions, plan: (head: ResponseHead) => BodyPlan): Promise<RawGetResult> {
  return new Promise((resolve, reject) => new RawGet(url, o, plan, resolve, reject).start());
}

function networkError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** Body bytes waiting for the disk, and the pooled read buffer they live in (null: a copy of our own). */
interface Pending {
  slices: Buffer[];
  owner: Uint8Array | null;
}

class RawGet {
  private socket: net.Socket | null = null;
  private readonly free: Uint8Array[] = [];
  private headBytes: Buffer = Buffer.alloc(0);
  private head: ResponseHead | null = null;
  private framing: BodyFraming = { type: 'until-close' };
  private chunked: ChunkedDecoder | null = null;
  private remaining = 0;
  private body: BodyPlan = { kind: 'discard' };
  private fd: number | null = null;
  private position = 0;
  private bytes = 0;
  private readonly textParts: Buffer[] = [];
  private queue: Pending[] = [];
  /** Memory held by bytes waiting for the disk (whole read buffers), for backpressure. */
  private queued = 0;
  private opening = false;
  private writing = false;
  private paused = false;
  private diskFailed = false;
  private complete = false;
  private ended = false;
  private settled = false;
  private error: Error | null = null;
  private readonly onAbort = (): void =>
    this.settle(this.o.signal?.reason instanceof Error ? this.o.signal.reason : new Error('aborted'));

  constructor(
    private readonly url: string,
    private readonly o: RawGetOptions,
    private readonly planFor: (head: ResponseHead) => BodyPlan,
    private readonly resolve: (r: RawGetResult) => void,
    private readonly reject: (e: Error) => void,
  ) {}

  start(): void {
    try {
      if (this.o.signal?.aborted)
        throw this.o.signal.reason instanceof Error ? this.o.signal.reason : new Error('aborted');
      const u = new URL(this.url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported protocol ${u.protocol}`);
      const request = requestText(u, this.o.headers);
      const secure = u.protocol === 'https:';
      const host = u.hostname.replace(/^\[|\]$/g, '');
      const port = Number(u.port || (secure ? 443 : 80));
      const onread = {
        buffer: () => this.free.pop() ?? new Uint8Array(READ_BUFFER_BYTES),
        callback: (n: number, buf: Uint8Array) => this.onRead(buf, n),
      };
      // Node honours `onread` on TLS sockets too (the https test covers it); its types only list it for net.
      const tlsOptions: tls.ConnectionOptions & { onread: net.OnReadOpts } = {
        host,
        port,
        servername: net.isIP(host) ? undefined : host,
        ca: this.o.ca,
        ALPNProtocols: ['http/1.1'],
        onread,
      };
      const socket = secure ? tls.connect(tlsOptions) : net.connect({ host, port, onread });
      this.socket = socket;
      socket.setTimeout(this.o.idleTimeoutMs, () =>
        this.settle(networkError(`no bytes for ${Math.round(this.o.idleTimeoutMs / 1000)} s`, 'ETIMEDOUT')),
      );
      socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(request));
      socket.on('error', (err: Error) => this.settle(err));
      socket.on('end', () => this.onEnd());
      socket.on('close', () => this.onEnd());
      this.o.signal?.addEventListener('abort', this.onAbort, { once: true });
    } catch (err) {
      this.settle(asError(err));
    }
  }

  /** One socket read landed in `buf` (now ours until released). Returns false to pause reading. */
  private onRead(buf: Uint8Array, n: number): boolean {
    if (this.settled) return false;
    try {
      if (this.head) return this.consume(Buffer.from(buf.buffer, buf.byteOffset, n), buf);
      const rest = this.readHead(Buffer.from(buf.buffer, buf.byteOffset, n));
      this.release(buf);
      if (!rest) return true;
      if (this.body.kind === 'none') {
        this.settle(null);
        return false;
      }
      if (this.body.kind === 'file') this.openFile(this.body.path, this.body.start);
      return this.consume(rest, null);
    } catch (err) {
      this.settle(asError(err));
      return false;
    }
  }

  /** Accumulates the head; once complete, returns the body bytes that followed it (a copy: the read buffer is reused). */
  private readHead(chunk: Buffer): Buffer | null {
    this.headBytes = Buffer.concat([this.headBytes, chunk]);
    for (;;) {
      const end = this.headBytes.indexOf('\r\n\r\n');
      if (end === -1) {
        if (this.headBytes.length > MAX_HEAD_BYTES) throw networkError('response head larger than 64 KiB', 'EPROTO');
        return null;
      }
      const head = parseResponseHead(this.headBytes.toString('latin1', 0, end));
      this.headBytes = this.headBytes.subarray(end + 4);
      if (head.status >= 100 && head.status < 200) continue; // informational (103 Early Hints): the real head follows
      this.head = head;
      this.framing = framingOf(head);
      if (this.framing.type === 'chunked') this.chunked = new ChunkedDecoder();
      if (this.framing.type === 'length') this.remaining = this.framing.bytes;
      this.body = this.planFor(head);
      return this.headBytes;
    }
  }

  private openFile(path: string, start: number): void {
    this.opening = true;
    // Never through a symlink planted at the part file's name (O_NOFOLLOW); private to the user until it is placed.
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (start > 0 ? 0 : constants.O_TRUNC);
    open(path, flags, 0o600, (err, fd) => {
      this.opening = false;
      if (!err) {
        this.fd = fd;
        this.position = start;
      }
      if (this.settled) return this.closeOut();
      if (err) {
        this.diskFailed = true;
        return this.settle(err);
      }
      this.pump();
    });
  }

  private consume(input: Buffer, owner: Uint8Array | null): boolean {
    const slices = this.frame(input);
    const size = slices.reduce((n, s) => n + s.length, 0);
    if (this.body.kind === 'file' && size > 0) {
      this.queue.push({ slices, owner });
      this.queued += owner?.byteLength ?? size;
      this.pump();
      this.paused = this.queued >= MAX_QUEUED_BYTES;
      return !this.paused;
    }
    if (this.body.kind === 'text') {
      if (this.bytes + size > this.body.limit)
        throw networkError(`response body larger than ${this.body.limit} bytes`, 'EPROTO');
      for (const s of slices) this.textParts.push(Buffer.from(s));
    }
    if (this.body.kind !== 'file') this.bytes += size;
    if (owner) this.release(owner);
    if (this.complete) this.pump();
    return true;
  }

  /** Body slices of this read, per the framing; sets `complete` when the body's end is in it. */
  private frame(input: Buffer): Buffer[] {
    switch (this.framing.type) {
      case 'until-close':
        return [input];
      case 'chunked': {
        const out = this.chunked?.push(input) ?? [];
        this.complete = this.chunked?.done ?? false;
        return out;
      }
      case 'length': {
        const take = Math.min(this.remaining, input.length);
        this.remaining -= take;
        this.complete = this.remaining === 0;
        return take > 0 ? [input.subarray(0, take)] : [];
      }
    }
  }

  /** Writes what waits (one writev at a time); when nothing does, finishes, reads on, or handles the end of the connection. */
  private pump(): void {
    if (this.settled || this.writing || this.opening) return;
    if (this.queue.length > 0 && this.fd !== null) return this.writeQueued(() => this.pump());
    if (this.queue.length > 0) return;
    if (this.complete) return this.settle(null);
    if (this.ended) return this.onEnd();
    if (this.paused) {
      this.paused = false;
      this.socket?.resume();
    }
  }

  private writeQueued(then: () => void): void {
    const batch = this.queue;
    this.queue = [];
    const slices = batch.flatMap((p) => p.slices);
    const size = slices.reduce((n, s) => n + s.length, 0);
    const memory = batch.reduce((n, p) => n + (p.owner?.byteLength ?? p.slices.reduce((m, s) => m + s.length, 0)), 0);
    const onBytes = this.body.kind === 'file' ? this.body.onBytes : undefined;
    const fd = this.fd ?? -1;
    const done = (err: Error | null, written: number): void => {
      this.writing = false;
      this.queued -= memory;
      for (const p of batch) if (p.owner) this.release(p.owner);
      if (!err && written === size) {
        this.position += written;
        this.bytes += written;
        onBytes?.(written);
      } else if (!this.settled) {
        this.diskFailed = true;
        return this.settle(err ?? new Error(`short write: ${written} of ${size} bytes`));
      } else {
        this.diskFailed = true;
      }
      then();
    };
    this.writing = true;
    let written = 0;
    try {
      written = writevSync(fd, slices, this.position);
    } catch (err) {
      return done(asError(err), 0);
    }
    done(null, written);
  }

  private release(buf: Uint8Array): void {
    if (this.free.length < POOL_SIZE) this.free.push(buf);
  }

  private onEnd(): void {
    this.ended = true;
    if (this.settled || this.writing || this.opening || this.queue.length > 0) return;
    if (!this.head) return this.settle(networkError('the connection closed before a response', 'ECONNRESET'));
    if (this.complete || this.framing.type === 'until-close') return this.settle(null);
    const expected = this.framing.type === 'length' ? ` of ${this.bytes + this.remaining}` : '';
    this.settle(networkError(`connection ended after ${this.bytes}${expected} body bytes`, 'ECONNRESET'));
  }

  /** Ends the request once; the file gets every byte received before it is closed and the answer given. */
  private settle(err: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    this.error = err;
    this.socket?.destroy();
    this.o.signal?.removeEventListener('abort', this.onAbort);
    this.closeOut();
  }

  private closeOut(): void {
    if (this.writing || this.opening) return; // their callbacks come back here
    if (this.fd !== null && this.queue.length > 0 && !this.diskFailed) return this.writeQueued(() => this.closeOut());
    if (this.fd === null) return this.answer();
    const fd = this.fd;
    this.fd = null;
    close(fd, (closeErr) => {
      if (closeErr && !this.error) this.error = closeErr;
      this.answer();
    });
  }

  private answer(): void {
    if (this.error) return this.reject(this.error);
    if (!this.head) return this.reject(new Error('no response'));
    const text = this.body.kind === 'text' ? Buffer.concat(this.textParts).toString('utf8') : null;
    this.resolve({ head: this.head, bytes: this.bytes, text });
  }
}

function requestText(u: URL, headers: Record<string, string>): string {
  const lines = [`GET ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(value))
      throw new Error(`invalid request header ${JSON.stringify(name)}`);
    lines.push(`${name}: ${value}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A model host on 127.0.0.1 answering as the Hugging Face Hub does: `/<repo>/resolve/<revision>/<file>`, every answer
 * with `X-Repo-Commit`. Files kept in LFS (*.onnx) answer 302 to a signed address on another host (a second server,
 * another origin) with `X-Linked-Etag: "<sha256>"` and `X-Linked-Size`; that host's own ETag is a different 64-hex
 * value (as a CDN's is). Small files answer 307 to a relative `/api/resolve-cache/models/<repo>/<commit>/<file>` with
 * `ETag: "<git blob sha1>"`. `main` can move to a new commit while a download runs (`moveMain`); the commit it left
 * keeps answering. Faults for the tests: cut a file's first transfer after some bytes, state a wrong checksum, send
 * slowly, stall.
 */
export interface ModelHub {
  url: string;
  /** The commit `main` points at now. */
  commit: string;
  /**
   * Moves `main` to a new commit in which these files have other contents (the old commit still answers as before).
   * Files not named keep theirs.
   */
  moveMain(changed: Map<string, Uint8Array>): void;
  /** Every request to either host: method, path and Range header. */
  requests: { method: string; path: string; range?: string }[];
  faults: {
    /** The first GET of this file (its CDN address) sends this many bytes, then the connection is cut. */
    cutOnce?: { file: string; afterBytes: number };
    /** Every GET of this file (its CDN address) sends this many bytes, then nothing more, the connection left open. */
    stall?: { file: string; afterBytes: number };
    /** This file's stated checksum is wrong. */
    wrongChecksum?: string;
    /** Sends bodies in chunks of `chunk` bytes, `delayMs` apart. */
    slow?: { chunk: number; delayMs: number };
    /** Once this many resolve requests were answered, `main` moves (moveMain) to these contents. */
    moveMainAfter?: { requests: number; changed: Map<string, Uint8Array> };
  };
  close(): Promise<void>;
}

export async function startModelHub(repo: string, files: Map<string, Uint8Array>): Promise<ModelHub> {
  const bySha = new Map<string, { name: string; data: Uint8Array }>();
  const commits = new Map<string, Map<string, Uint8Array>>();
  const addCommit = (contents: Map<string, Uint8Array>): string => {
    const commit = createHash('sha1').update(`commit ${commits.size}`).digest('hex');
    commits.set(commit, contents);
    for (const [name, data] of contents) bySha.set(sha256(data), { name, data });
    return commit;
  };
  const cut = new Set<string>();
  let resolved = 0;
  const hub: ModelHub = {
    url: '',
    commit: addCommit(new Map(files)),
    moveMain: (changed) => {
      hub.commit = addCommit(new Map([...(commits.get(hub.commit) ?? []), ...changed]));
    },
    requests: [],
    faults: {},
    close: () => Promise.resolve(),
  };

  const send = async (
    req: IncomingMessage,
    res: ServerResponse,
    name: string,
    data: Uint8Array,
    extra: Record<string, string>,
  ): Promise<void> => {
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start > data.length) {
      res.writeHead(416, { 'content-range': `bytes */${data.length}` }).end();
      return;
    }
    const headers: Record<string, string> = {
      ...extra,
      'content-length': String(data.length - start),
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
    };
    if (range) headers['content-range'] = `bytes ${start}-${data.length - 1}/${data.length}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === 'HEAD') return void res.end();
    let body = data.subarray(start);
    const stall = hub.faults.stall;
    if (stall?.file === name) {
      res.write(body.subarray(0, stall.afterBytes));
      return;
    }
    const fault = hub.faults.cutOnce;
    const cutting = fault?.file === name && !cut.has(name);
    if (cutting) {
      cut.add(name);
      body = body.subarray(0, fault.afterBytes);
    }
    const slow = hub.faults.slow;
    const chunk = slow?.chunk ?? body.length;
    for (let at = 0; at < body.length; at += chunk) {
      if (res.destroyed) return;
      res.write(body.subarray(at, at + chunk));
      if (slow) await new Promise((r) => setTimeout(r, slow.delayMs));
    }
    if (cutting) res.socket?.destroy();
    else res.end();
  };

  // The CDN: another origin, signed addresses, an ETag of its own that is not the content's sha256.
  const cdn = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://cdn').pathname);
    hub.requests.push({ method: req.method ?? '', path, range: req.headers.range });
    const found = /^\/cdn\/([0-9a-f]{64})$/.exec(path);
    const file = found ? bySha.get(found[1] ?? '') : undefined;
    if (!file) return void res.writeHead(404).end();
    void send(req, res, file.name, file.data, { etag: `"${sha256(new TextEncoder().encode(`cdn ${path}`))}"` });
  });

  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://hub').pathname);
    hub.requests.push({ method: req.method ?? '', path, range: req.headers.range });
    const cached = new RegExp(`^/api/resolve-cache/models/${repo}/([0-9a-f]{40})/(.+)$`).exec(path);
    if (cached) {
      const data = commits.get(cached[1] ?? '')?.get(cached[2] ?? '');
      if (!data) return void res.writeHead(404).end('Entry not found');
      void send(req, res, cached[2] ?? '', data, { etag: `"${gitBlobSha1(data)}"`, 'x-repo-commit': cached[1] ?? '' });
      return;
    }
    const prefix = `/${repo}/resolve/`;
    if (!path.startsWith(prefix)) return void res.writeHead(404).end('Repository not found');
    const move = hub.faults.moveMainAfter;
    if (move && ++resolved > move.requests) {
      hub.faults.moveMainAfter = undefined;
      hub.moveMain(move.changed);
    }
    const [revision = '', ...rest] = path.slice(prefix.length).split('/');
    const name = rest.join('/');
    const commit = revision === 'main' ? hub.commit : revision;
    const data = commits.get(commit)?.get(name);
    if (!data) return void res.writeHead(404).end('Entry not found');
    const lie = hub.faults.wrongChecksum === name;
    if (name.endsWith('.onnx')) {
      const sum = sha256(data);
      res
        .writeHead(302, {
          location: `${cdnUrl}/cdn/${sum}?X-Amz-Signature=${sha256(new TextEncoder().encode(name)).slice(0, 16)}`,
          'x-linked-etag': `"${lie ? sha256(new Uint8Array([1])) : sum}"`,
          'x-linked-size': String(data.length),
          'x-repo-commit': commit,
        })
        .end();
      return;
    }
    res
      .writeHead(307, {
        location: `/api/resolve-cache/models/${repo}/${commit}/${name}`,
        etag: `"${lie ? gitBlobSha1(new Uint8Array([1])) : gitBlobSha1(data)}"`,
        'x-repo-commit': commit,
      })
      .end();
  });
  const listen = async (s: Server): Promise<string> => {
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  const cdnUrl = await listen(cdn);
  hub.url = await listen(server);
  const closing = (s: Server): Promise<void> =>
    new Promise<void>((r) => {
      s.closeAllConnections();
      s.close(() => r());
    });
  hub.close = async () => {
    await Promise.all([closing(server), closing(cdn)]);
  };
  return hub;
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function gitBlobSha1(data: Uint8Array): string {
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}

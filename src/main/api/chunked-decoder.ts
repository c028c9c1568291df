/**
 * Incremental decoder of an HTTP/1.1 `Transfer-Encoding: chunked` body. `push` takes bytes as they arrive (split
 * anywhere) and returns the data slices they complete, as views into the input (no copies). Chunk extensions and
 * trailers are read and ignored. Malformed framing throws.
 */
export class ChunkedDecoder {
  private state: 'size' | 'data' | 'data-crlf' | 'trailer' | 'done' = 'size';
  /** Bytes of the current size or trailer line seen so far (lines may be split across pushes). */
  private line = '';
  private left = 0;

  get done(): boolean {
    return this.state === 'done';
  }

  push(input: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let i = 0;
    while (i < input.length && this.state !== 'done') {
      if (this.state === 'data') {
        const take = Math.min(this.left, input.length - i);
        out.push(input.subarray(i, i + take));
        i += take;
        this.left -= take;
        if (this.left === 0) this.state = 'data-crlf';
        continue;
      }
      const nl = input.indexOf(0x0a, i);
      const end = nl === -1 ? input.length : nl + 1;
      this.line += input.toString('latin1', i, end);
      i = end;
      if (this.line.length > 4096) throw new Error('chunked body: a framing line longer than 4096 bytes');
      if (nl === -1) continue;
      const text = this.line.replace(/\r?\n$/, '');
      this.line = '';
      this.onLine(text);
    }
    if (i < input.length) throw new Error('chunked body: bytes after the last chunk');
    return out;
  }

  private onLine(text: string): void {
    switch (this.state) {
      case 'size': {
        const m = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(text);
        if (!m?.[1]) throw new Error(`chunked body: bad chunk size line ${JSON.stringify(text.slice(0, 40))}`);
        this.left = parseInt(m[1], 16);
        this.state = this.left === 0 ? 'trailer' : 'data';
        return;
      }
      case 'data-crlf':
        if (text !== '') throw new Error('chunked body: chunk data longer than its size');
        this.state = 'size';
        return;
      case 'trailer':
        if (text === '') this.state = 'done';
        return;
      case 'data':
      case 'done':
        throw new Error(`chunked body: unexpected line in state ${this.state}`);
    }
  }
}

import { describe, expect, it } from 'vitest';
import { rewritePlaylist } from './pull-relay';

describe('rewritePlaylist', () => {
  const relay = (u: string): string => `R(${u})`;
  it('routes every URI through the relay: segment and variant lines, and URI="..." of any tag, made absolute first', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x1',
      '#EXT-X-MAP:URI="../init.mp4"',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",URI="http://10.0.0.1/a.m3u8"',
      '#EXTINF:1.0,',
      's0.ts',
      '  http://127.0.0.1:9/s1.ts  ',
      '#EXT-X-STREAM-INF:BANDWIDTH=1',
      '//cdn.example/v.m3u8',
      'file:///etc/passwd',
      '',
    ].join('\r\n');
    expect(rewritePlaylist(text, 'https://h.example/live/x.m3u8', relay).split('\n')).toEqual([
      '#EXTM3U',
      '#EXT-X-KEY:METHOD=AES-128,URI="R(https://h.example/live/key.bin)",IV=0x1',
      '#EXT-X-MAP:URI="R(https://h.example/init.mp4)"',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",URI="R(http://10.0.0.1/a.m3u8)"',
      '#EXTINF:1.0,',
      'R(https://h.example/live/s0.ts)',
      'R(http://127.0.0.1:9/s1.ts)',
      '#EXT-X-STREAM-INF:BANDWIDTH=1',
      'R(https://cdn.example/v.m3u8)',
      'R(file:///etc/passwd)',
      '',
    ]);
  });
});

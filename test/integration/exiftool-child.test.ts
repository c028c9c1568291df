import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { UploadedVideo } from '../../src/shared/api-types';
import { fixturePath } from '../fixtures/media';
import { apiClient, waitForStatus } from '../helpers/api';
import { useService } from '../helpers/use-service';

/** Every process as `ps` lists it: pid, parent pid, command line. */
function processes(): { pid: number; ppid: number; args: string }[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] ?? '' }));
}

/**
 * Issue 28 item 8: killing the library service left its exiftool (perl) behind. exiftool in -stay_open mode ignores
 * the end of its stdin; the watcher it starts with ends it once the service is gone.
 */
describe.skipIf(process.platform === 'win32')("the service's exiftool dies with the service", () => {
  const service = useService();

  it('leaves no exiftool process behind when the service is killed (SIGKILL)', async () => {
    const api = apiClient(service().baseUrl, service().key);
    // Indexing reads the capture metadata: the service starts its exiftool.
    const up = await api.upload<UploadedVideo>(fixturePath('phoneH264Mp4'));
    await waitForStatus(api, up.json.data?.videoNo ?? '');
    const pid = service().pid;
    const exiftool = processes().filter((p) => p.ppid === pid && /exiftool/.test(p.args));
    expect(exiftool.length).toBeGreaterThan(0);

    await service().kill();
    const left = () => {
      const alive = new Set(processes().map((p) => p.pid));
      return exiftool.filter((p) => alive.has(p.pid)).map((p) => p.args);
    };
    await expect.poll(left, { timeout: 5_000, interval: 200 }).toEqual([]);
    await service().restart();
  }, 60_000);
});

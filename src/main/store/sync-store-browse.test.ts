import { beforeEach, describe, expect, it } from 'vitest';
import { useTempClientDb } from '../../../test/helpers/temp-db';
import { SyncStore } from './sync-store';
import { type FileMedia } from './sync-rows';

const temp = useTempClientDb();
let store: SyncStore;
beforeEach(() => {
  store = new SyncStore(temp.db);
});

const media = (m: Partial<FileMedia>): FileMedia => ({
  duration: null,
  width: null,
  height: null,
  fps: null,
  codec: null,
  camera: null,
  takenAt: null,
  ...m,
});

describe('library browsing: media facts sorted and filtered in SQL', () => {
  it('sorts by duration, resolution and name (unknown facts last), filters by codec, and pages the result', () => {
    const w = store.addWatchFolder({
      path: '/footage',
      folderId: null,
      folderName: null,
      tags: [],
      ignore: [],
      polling: 'auto',
    });
    const add = (name: string, m: Partial<FileMedia> | null): number => {
      const { id } = store.recordFile(w.id, `/footage/${name}`, 100, 1, 1);
      if (m) store.setFileMedia(id, media(m));
      return id;
    };
    add('b-long.mp4', { duration: 30, width: 1920, height: 1080, codec: 'h264', camera: 'iPhone 15 Pro' });
    add('A-short.mov', { duration: 2, width: 640, height: 360, codec: 'hevc' });
    add('c-mid.mkv', { duration: 10, width: 3840, height: 2160, codec: 'vp9' });
    add('d-unprobed.mp4', null);
    const names = (rows: { path: string }[]): string[] => rows.map((r) => r.path.slice('/footage/'.length));

    expect(names(store.filesPage(1, 10, { sort: 'duration' }).rows)).toEqual([
      'A-short.mov',
      'c-mid.mkv',
      'b-long.mp4',
      'd-unprobed.mp4',
    ]);
    expect(names(store.filesPage(1, 10, { sort: 'duration', desc: true }).rows)).toEqual([
      'b-long.mp4',
      'c-mid.mkv',
      'A-short.mov',
      'd-unprobed.mp4',
    ]);
    expect(names(store.filesPage(1, 10, { sort: 'resolution', desc: true }).rows)).toEqual([
      'c-mid.mkv',
      'b-long.mp4',
      'A-short.mov',
      'd-unprobed.mp4',
    ]);
    expect(names(store.filesPage(1, 10, { sort: 'name' }).rows)).toEqual([
      'A-short.mov',
      'b-long.mp4',
      'c-mid.mkv',
      'd-unprobed.mp4',
    ]);
    const h264 = store.filesPage(1, 10, { codec: 'h264' });
    expect(names(h264.rows)).toEqual(['b-long.mp4']);
    expect(h264.total).toBe(1);
    expect(names(store.filesPage(2, 2, { sort: 'duration' }).rows)).toEqual(['b-long.mp4', 'd-unprobed.mp4']);
    expect(store.fileCodecs()).toEqual(['h264', 'hevc', 'vp9']);
    expect(store.file(1)?.camera).toBe('iPhone 15 Pro');
  });

  it('filters by camera and by a part of the name, its LIKE wildcards taken literally, combined with sort and paging', () => {
    const w = store.addWatchFolder({
      path: '/footage',
      folderId: null,
      folderName: null,
      tags: [],
      ignore: [],
      polling: 'auto',
    });
    const add = (name: string, camera: string | null, duration: number): void => {
      const { id } = store.recordFile(w.id, `/footage/day_1/${name}`, 100, 1, 1);
      store.setFileMedia(id, media({ codec: 'h264', camera, duration }));
    };
    add('Beach_100%.mp4', 'iPhone 15 Pro', 30);
    add('beachX100.mp4', 'iPhone 15 Pro', 10);
    add('BEACH-sunset.mov', 'Sony A7 IV', 20);
    add('city.mp4', 'iPhone 15 Pro', 5);
    const names = (rows: { path: string }[]): string[] => rows.map((r) => r.path.slice('/footage/day_1/'.length));

    expect(store.fileCameras()).toEqual(['iPhone 15 Pro', 'Sony A7 IV']);
    expect(names(store.filesPage(1, 10, { camera: 'Sony A7 IV' }).rows)).toEqual(['BEACH-sunset.mov']);
    // Case-insensitive, anywhere in the name, never in the folder ("day_1" holds an underscore and a 1).
    expect(names(store.filesPage(1, 10, { name: 'beach', sort: 'duration' }).rows)).toEqual([
      'beachX100.mp4',
      'BEACH-sunset.mov',
      'Beach_100%.mp4',
    ]);
    expect(store.filesPage(1, 10, { name: 'day' }).total).toBe(0);
    // % and _ match themselves only: "h_1" would match "hX1" as a wildcard.
    expect(names(store.filesPage(1, 10, { name: '_100%' }).rows)).toEqual(['Beach_100%.mp4']);
    expect(names(store.filesPage(1, 10, { name: 'h_1' }).rows)).toEqual(['Beach_100%.mp4']);
    expect(names(store.filesPage(1, 10, { name: '%' }).rows)).toEqual(['Beach_100%.mp4']);
    expect(store.filesPage(1, 10, { name: '\\' }).total).toBe(0);
    // Combined: camera and name, sorted descending, paged.
    const both = store.filesPage(2, 1, { camera: 'iPhone 15 Pro', name: 'BEACH', sort: 'duration', desc: true });
    expect(both.total).toBe(2);
    expect(names(both.rows)).toEqual(['beachX100.mp4']);
  });

  it('sorts names after the last separator of Windows paths too', () => {
    const w = store.addWatchFolder({
      path: 'C:\\footage',
      folderId: null,
      folderName: null,
      tags: [],
      ignore: [],
      polling: 'auto',
    });
    store.recordFile(w.id, 'C:\\footage\\zz\\a.mp4', 1, 1, 1);
    store.recordFile(w.id, 'C:\\footage\\aa\\b.mp4', 1, 1, 1);
    expect(store.filesPage(1, 10, { sort: 'name' }).rows.map((r) => r.path)).toEqual([
      'C:\\footage\\zz\\a.mp4',
      'C:\\footage\\aa\\b.mp4',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { newAccount, newVideo } from '../../../test/helpers/library-rows';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { Refusal } from '../domain-errors';
import { Folders } from './folders';
import { Videos } from './videos';

describe.each(SERVICE_SQL_ENGINES)('Folders on %s', (engine) => {
  const store = useServiceSql(engine);

  it('makes the Default folder once, also when many requests ask for it at once, and names it -1', async () => {
    const folders = new Folders(store.sql);
    const accountId = await newAccount(store.sql);
    const ids = await Promise.all(Array.from({ length: 8 }, () => folders.defaultFolderId(accountId)));
    expect(new Set(ids).size).toBe(1);
    const id = ids[0] ?? 0;
    expect(await folders.resolve(accountId, undefined, undefined)).toBe(id);
    expect(await folders.resolve(accountId, -1, undefined)).toBe(id);
    expect(await folders.publicIds([id])).toEqual(new Map([[id, -1]]));
    const list = await folders.list(accountId);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ folder_id: -1, name: 'Default', unique_id: null, video_count: 0 });
  });

  it('makes one folder per unique_id, also for concurrent requests; a filter on an unknown one matches nothing', async () => {
    const folders = new Folders(store.sql);
    const accountId = await newAccount(store.sql);
    expect(await folders.resolveFilter(accountId, undefined, 'shoot-1')).toBe(0);
    const ids = await Promise.all(Array.from({ length: 6 }, () => folders.resolve(accountId, undefined, 'shoot-1')));
    expect(new Set(ids).size).toBe(1);
    const id = ids[0] ?? 0;
    expect(await folders.resolveFilter(accountId, undefined, 'shoot-1')).toBe(id);
    expect(await folders.resolveFilter(accountId, undefined, undefined)).toBeUndefined();
    expect(await folders.get(accountId, id)).toMatchObject({ folder_id: id, name: 'shoot-1', unique_id: 'shoot-1' });
    // The same unique_id of another account is another folder.
    const other = await newAccount(store.sql);
    expect(await folders.resolve(other, undefined, 'shoot-1')).not.toBe(id);
  });

  it("refuses another account's folder and ids that are not folders", async () => {
    const folders = new Folders(store.sql);
    const owner = await newAccount(store.sql);
    const stranger = await newAccount(store.sql);
    const folder = await folders.create(owner, 'Mine');
    await expect(folders.resolve(stranger, folder.folder_id, undefined)).rejects.toThrow(/does not belong/);
    await expect(folders.resolveFilter(stranger, folder.folder_id, undefined)).rejects.toThrow(Refusal);
    await expect(folders.resolve(owner, 0, undefined)).rejects.toThrow(/must be -1 or a positive/);
    expect(await folders.get(stranger, folder.folder_id)).toBeUndefined();
    await expect(folders.rename(stranger, folder.folder_id, 'Theirs')).rejects.toThrow(/does not belong/);
    await expect(folders.delete(stranger, folder.folder_id)).rejects.toThrow(/does not belong/);
    expect(await folders.get(owner, folder.folder_id)).toMatchObject({ name: 'Mine' });
  });

  it('lists the Default folder first, then the others in creation order, with their video counts', async () => {
    const folders = new Folders(store.sql);
    const videos = new Videos(store.sql);
    const accountId = await newAccount(store.sql);
    const b = await folders.create(accountId, 'B roll');
    const a = await folders.create(accountId, 'A roll');
    await videos.insert(newVideo(accountId, b.folder_id));
    const list = await folders.list(accountId);
    expect(list.map((f) => [f.name, f.video_count])).toEqual([
      ['Default', 0],
      ['B roll', 1],
      ['A roll', 0],
    ]);
    expect(await folders.nameOf(a.folder_id)).toBe('A roll');
    expect(await folders.nameOf(a.folder_id + 1000)).toBeUndefined();
    expect(await folders.publicIds([a.folder_id, b.folder_id, a.folder_id])).toEqual(
      new Map([
        [a.folder_id, a.folder_id],
        [b.folder_id, b.folder_id],
      ]),
    );
    expect(await folders.publicIds([])).toEqual(new Map());

    expect(await folders.rename(accountId, a.folder_id, 'Aerials')).toMatchObject({ name: 'Aerials' });
    await expect(folders.delete(accountId, -1)).rejects.toThrow(/Default folder cannot be deleted/);
    await expect(folders.delete(accountId, b.folder_id)).rejects.toThrow(/still holds 1 videos/);
    await folders.delete(accountId, a.folder_id);
    expect((await folders.list(accountId)).map((f) => f.name)).toEqual(['Default', 'B roll']);
  });
});

import type { LibraryClient } from '../api/client';
import { libraryCall } from '../api/app-errors';
import type { HandlerMap } from '../ipc/registry';
import type { Db } from '../store/database';
import { LibraryCacheStore } from '../store/library-cache-store';
import { LocalOriginals } from '../sync';
import { runSearch } from './run-search';
import { SearchCache } from './search-cache';
import { videoDetail } from './video-detail';
import { OriginalIdentities } from '../media/identities';
import { SqliteIdentityStore } from '../media/identity-store';

export interface SearchHandlerDeps {
  /** The library service's client, or an `offline` AppError saying why there is none. */
  client: () => LibraryClient;
  db: () => Db;
}

/** Searching the library, a video's detail, the library's folders, and the last results (kept for offline browsing). */
export function searchHandlers(d: SearchHandlerDeps) {
  const lastResults = (): SearchCache => new SearchCache(new LibraryCacheStore(d.db()));
  return {
    'search:run': async (req) => {
      const answer = await libraryCall(() => runSearch(d.client(), new LocalOriginals(d.db()), req));
      lastResults().record(req, answer.hits);
      return answer;
    },
    'search:last-results': () => ({ results: lastResults().last() }),
    'library:video': async ({ videoNo }) =>
      libraryCall(() =>
        videoDetail(d.client(), new LocalOriginals(d.db()), videoNo, {
          db: d.db(),
          identities: new OriginalIdentities(new SqliteIdentityStore(d.db())),
        }),
      ),
    'library:transcript': async ({ videoNo }) => {
      const t = await libraryCall(() => d.client().getTranscription(videoNo));
      const lines = (t?.transcriptions ?? [])
        .map((s) => ({ start: s.startTime, end: s.endTime, text: s.content.trim() }))
        .filter((l) => l.text !== '')
        .sort((a, b) => a.start - b.start);
      return { lines };
    },
    'library:folders': async () => ({
      folders: (await libraryCall(() => d.client().listFolders())).map((f) => ({
        folderId: f.folder_id,
        name: f.name,
        videoCount: f.video_count,
      })),
    }),
  } satisfies HandlerMap;
}

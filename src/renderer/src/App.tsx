import * as Tooltip from '@radix-ui/react-tooltip';
import { useState } from 'react';
import type { SearchHit } from '../../shared/contract/library';
import { Sidebar, type PageId } from './components/Sidebar';
import { StatusBar } from './components/StatusBar';
import { Toaster } from './components/Toaster';
import { useSyncEvents } from './hooks/useSyncEvents';
import { LibraryPage } from './pages/LibraryPage';
import { PlayerPage } from './pages/PlayerPage';
import { SearchPage, type SearchState } from './pages/SearchPage';
import { SettingsPage } from './pages/SettingsPage';
import { UploadsPage } from './pages/UploadsPage';

function Shell(): React.JSX.Element {
  useSyncEvents();
  const [page, setPage] = useState<PageId>('library');
  const [search, setSearch] = useState<SearchState>({ request: null, selected: 0 });
  const [player, setPlayer] = useState<{ hits: SearchHit[]; index: number } | null>(null);
  const select = (id: PageId): void => {
    setPlayer(null);
    setPage(id);
  };
  return (
    <div className="app">
      <Sidebar current={page} onSelect={select} />
      <main className="main-pane" aria-live="polite">
        {player ? (
          <PlayerPage
            hits={player.hits}
            index={player.index}
            onIndex={(index) => {
              setPlayer({ ...player, index });
              setSearch({ ...search, selected: index });
            }}
            onBack={() => setPlayer(null)}
          />
        ) : (
          <>
            {page === 'library' && <LibraryPage onOpenSettings={() => select('settings')} />}
            {page === 'search' && <SearchPage state={search} setState={setSearch} onOpen={(hits, index) => setPlayer({ hits, index })} />}
            {page === 'uploads' && <UploadsPage />}
            {page === 'settings' && <SettingsPage />}
          </>
        )}
      </main>
      <StatusBar />
    </div>
  );
}

export function App(): React.JSX.Element {
  return (
    <Tooltip.Provider delayDuration={400}>
      <Toaster>
        <Shell />
      </Toaster>
    </Tooltip.Provider>
  );
}

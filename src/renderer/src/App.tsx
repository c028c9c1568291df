import * as Tooltip from '@radix-ui/react-tooltip';
import { useCallback, useState } from 'react';
import type { SearchHit } from '../../shared/contract/library';
import { Sidebar, type PageId } from './components/Sidebar';
import { StatusBar } from './components/StatusBar';
import { DropOverlay } from './components/DropOverlay';
import { ServiceBanner } from './components/ServiceBanner';
import { Toaster } from './components/Toaster';
import { useLibraryEvents } from './hooks/useLibraryEvents';
import { useSearchShortcut } from './hooks/useSearchShortcut';
import { useTheme } from './hooks/useTheme';
import { useSyncEvents } from './hooks/useSyncEvents';
import { ClipsPage } from './pages/ClipsPage';
import { LibraryPage } from './pages/LibraryPage';
import { PlayerPage } from './pages/PlayerPage';
import { ShortcutSheet } from './components/ShortcutSheet';
import { SearchPage, type SearchState } from './pages/SearchPage';
import { SettingsPage } from './pages/SettingsPage';
import { UploadsPage } from './pages/UploadsPage';

function Shell(): React.JSX.Element {
  useSyncEvents();
  useLibraryEvents();
  useTheme();
  const [page, setPage] = useState<PageId>('library');
  const [search, setSearch] = useState<SearchState>({ request: null, selected: 0 });
  const [player, setPlayer] = useState<{
    hits: SearchHit[];
    index: number;
    found: { query: string; searchType: string | null };
    from: 'library' | 'search';
  } | null>(null);
  const [focusSearch, setFocusSearch] = useState(0);
  const select = (id: PageId): void => {
    setPlayer(null);
    setPage(id);
  };
  useSearchShortcut(
    useCallback(() => {
      setPlayer(null);
      setPage('search');
      setFocusSearch((n) => n + 1);
    }, []),
  );
  return (
    <div className="app">
      <Sidebar current={page} onSelect={select} />
      <main className="main-pane" aria-live="polite">
        <ServiceBanner />
        {player ? (
          <PlayerPage
            hits={player.hits}
            index={player.index}
            found={player.found}
            from={player.from}
            onIndex={(index) => {
              setPlayer({ ...player, index });
              setSearch({ ...search, selected: index });
            }}
            onBack={() => setPlayer(null)}
          />
        ) : (
          <>
            {page === 'library' && (
              <LibraryPage
                onOpenSettings={() => select('settings')}
                onOpen={(hit) =>
                  setPlayer({ hits: [hit], index: 0, found: { query: '', searchType: null }, from: 'library' })
                }
              />
            )}
            {page === 'search' && (
              <SearchPage
                state={search}
                setState={setSearch}
                focusSearch={focusSearch}
                onOpen={(hits, index, found) => setPlayer({ hits, index, found, from: 'search' })}
              />
            )}
            {page === 'clips' && <ClipsPage />}
            {page === 'uploads' && <UploadsPage />}
            {page === 'settings' && <SettingsPage />}
          </>
        )}
      </main>
      <StatusBar />
      <DropOverlay />
      <ShortcutSheet />
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

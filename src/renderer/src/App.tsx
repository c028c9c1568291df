import { useState } from 'react';
import { Sidebar, type PageId } from './components/Sidebar';
import { StatusBar } from './components/StatusBar';
import { OverviewPage } from './pages/OverviewPage';

export function App(): React.JSX.Element {
  const [page, setPage] = useState<PageId>('overview');
  return (
    <div className="app">
      <Sidebar current={page} onSelect={setPage} />
      <main className="main-pane" aria-live="polite">
        {page === 'overview' && <OverviewPage />}
      </main>
      <StatusBar />
    </div>
  );
}

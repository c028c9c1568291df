// First: before any schema parses.
import './lib/zod-jitless';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { styleNonce } from './lib/style-nonce';
import { applyTheme, lastTheme } from './lib/theme';
// The UI's styles, one file per component or page, in cascade order (later files win ties): the base (variables,
// themes), the shell and shared controls, then the pages, then the overlays, menus and dialogs drawn over them.
import './styles/base.css';
import './components/sidebar.css';
import './pages/page.css';
import './components/controls.css';
import './components/states.css';
import './components/badges.css';
import './pages/library.css';
import './pages/search.css';
import './pages/player.css';
import './pages/settings.css';
import './components/overlays.css';
import './components/status-bar.css';
import './components/menus.css';
import './components/tag-editor.css';
import './pages/clips.css';
import './components/dialogs.css';
import './components/library-row.css';

// Radix's scroll lock injects a <style> element: it carries this page load's nonce, the only inline style the CSP allows.
if (styleNonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = styleNonce;

applyTheme(lastTheme());

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);

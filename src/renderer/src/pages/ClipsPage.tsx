import * as Tabs from '@radix-ui/react-tabs';
import { Scissors, Search as SearchIcon, SearchX } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { ClipCard } from '../components/ClipCard';
import { ClipDetail } from '../components/ClipDetail';
import { ClipSelectionActions } from '../components/ClipSelectionActions';
import { SelectionBar } from '../components/SelectionBar';
import { Choice } from '../components/Choice';
import { DownloadsList } from '../components/DownloadsList';
import { ExportDialog } from '../components/ExportDialog';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { useClipCount, useDownloads } from '../hooks/queries';
import { useClipList, type ClipStateFilter } from '../hooks/useClipList';
import { useGridKeys } from '../hooks/useGridKeys';
import { useGrowingList } from '../hooks/useGrowingList';
import { useReveal, useRevealLabel } from '../hooks/useReveal';
import { EMPTY_SELECTION, keepShown, pick, selectAll, type PickKeys, type Selection } from '../lib/selection';

const PLAIN: PickKeys = { shiftKey: false, ctrlKey: false, metaKey: false };
/** Cards rendered at first and added each time the end of the grid comes near. */
const CARDS_STEP = 120;

/** Every saved clip: local search and filters, a detail pane that plays and edits, marker export; and the downloads. */
export function ClipsPage(): React.JSX.Element {
  const [tab, setTab] = useState<'clips' | 'downloads'>('clips');
  const [text, setText] = useState('');
  const [tag, setTag] = useState<string | null>(null);
  const [state, setState] = useState<ClipStateFilter>('all');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [picked, setPicked] = useState<Selection>(EMPTY_SELECTION);
  const shiftHeld = useRef(false);
  const grid = useRef<HTMLDivElement>(null);
  const reveal = useReveal('clip');
  const revealLabel = useRevealLabel();
  const total = useClipCount();
  const downloads = useDownloads();
  const { query, clips, searching } = useClipList(text, tag, state);
  const index = Math.max(
    0,
    clips.findIndex((c) => c.id === selectedId),
  );
  const selected = clips[index];
  const rendered = useGrowingList(clips.length, CARDS_STEP, index);
  const order = clips.map((c) => c.id);
  // What the actions apply to: the cards picked and still shown (a filter may have hidden some).
  const shown = keepShown(picked, order);
  const pickedClips = clips.filter((c) => shown.ids.has(c.id));
  const choose = (id: number, keys: PickKeys): void => {
    setPicked(pick(shown, order, id, keys));
    setSelectedId(id);
  };
  const tags = [...new Set((query.data ?? []).flatMap((c) => c.tags))].sort();
  const play = (): void => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid="clip-video"]');
    if (v) void (v.paused ? v.play() : Promise.resolve(v.pause())).catch(() => undefined);
  };
  const onKeyDown = useGridKeys({
    grid,
    count: clips.length,
    index,
    setIndex: (i) => {
      const id = clips[i]?.id;
      // Shift with an arrow extends the selection from its anchor, as in a file manager.
      if (id !== undefined) choose(id, { ...PLAIN, shiftKey: shiftHeld.current });
    },
    onOpen: play,
    onPreview: play,
  });
  const onGridKey = (e: KeyboardEvent): void => {
    if ((e.ctrlKey || e.metaKey) && (e.key === 'a' || e.key === 'A')) {
      e.preventDefault();
      setPicked(selectAll(order));
      return;
    }
    if (e.key === 'Escape' && shown.ids.size > 1) {
      e.preventDefault();
      setPicked(selected ? pick(EMPTY_SELECTION, order, selected.id, PLAIN) : EMPTY_SELECTION);
      return;
    }
    shiftHeld.current = e.shiftKey;
    onKeyDown(e);
    shiftHeld.current = false;
  };
  const activeDownloads = (downloads.data?.downloads ?? []).filter(
    (d) => d.state === 'queued' || d.state === 'downloading',
  ).length;
  return (
    <section className="page page-fill" data-testid="clips-page">
      <header className="page-header row">
        <h1>Clips</h1>
        <Tabs.Root value={tab} onValueChange={(v) => setTab(v === 'downloads' ? 'downloads' : 'clips')}>
          <Tabs.List className="tabs" aria-label="Clips or downloads">
            <Tabs.Trigger value="clips" className="tab">
              Clips <span className="tab-count">{total.data ?? ''}</span>
            </Tabs.Trigger>
            <Tabs.Trigger value="downloads" className="tab" data-testid="tab-downloads">
              Downloads{' '}
              <span className="tab-count">
                {activeDownloads > 0 ? `${activeDownloads} active` : (downloads.data?.downloads.length ?? '')}
              </span>
            </Tabs.Trigger>
          </Tabs.List>
        </Tabs.Root>
        <span className="spacer" />
        {tab === 'clips' && (
          <ExportDialog
            ids={searching || tag || state !== 'all' ? clips.map((c) => c.id) : undefined}
            disabled={clips.length === 0}
          />
        )}
      </header>
      {tab === 'downloads' && <DownloadsList />}
      {tab === 'clips' && (
        <>
          <div className="filters clip-filters">
            <label className="search-bar compact">
              <SearchIcon size={14} aria-hidden="true" />
              <input
                className="search-input"
                aria-label="Search clips"
                placeholder="Search clips: caption, transcript, notes, tags, query…"
                value={text}
                onChange={(e) => setText(e.target.value)}
              />
            </label>
            <Choice
              label="Tag"
              value={tag ?? 'any'}
              options={[{ value: 'any', label: 'Any tag' }, ...tags.map((t) => ({ value: t, label: t }))]}
              onChange={(v) => setTag(v === 'any' ? null : v)}
            />
            <Choice
              label="State"
              value={state}
              options={[
                { value: 'all', label: 'All' },
                { value: 'ready', label: 'Ready' },
                { value: 'working', label: 'In progress' },
                { value: 'failed', label: 'Failed' },
              ]}
              onChange={(v) => setState(v === 'ready' || v === 'working' || v === 'failed' ? v : 'all')}
            />
          </div>
          {query.isLoading && <LoadingState label="Reading clips…" />}
          {query.isError && <ErrorState title="Could not read the clips" error={query.error} />}
          {query.isSuccess && total.data === 0 && (
            <EmptyState icon={Scissors} title="No clips yet" testId="clips-empty">
              <p>
                Save a moment from a search result (right-click a card, or press S) or from the player (set I and O,
                then S). Clips stay here and play with no network.
              </p>
            </EmptyState>
          )}
          {query.isSuccess && total.data !== 0 && clips.length === 0 && (
            <EmptyState icon={SearchX} title="No clip matches" testId="clips-no-match">
              <p>Try other words or clear the filters.</p>
            </EmptyState>
          )}
          <SelectionBar count={pickedClips.length} noun={['clip', 'clips']} onClear={() => setPicked(EMPTY_SELECTION)}>
            <ClipSelectionActions clips={pickedClips} onDone={() => setPicked(EMPTY_SELECTION)} />
          </SelectionBar>
          {clips.length > 0 && (
            <div className="clips-layout">
              <div
                className="hit-grid"
                role="grid"
                aria-label="Clips"
                aria-multiselectable="true"
                ref={grid}
                onKeyDown={onGridKey}
              >
                <div role="row" className="hit-grid-row">
                  {clips.slice(0, rendered.count).map((c, i) => (
                    <ClipCard
                      key={c.id}
                      clip={c}
                      selected={i === index}
                      picked={shown.ids.has(c.id) || (shown.ids.size === 0 && i === index)}
                      actions={{
                        onSelect: (keys) => choose(c.id, keys ?? PLAIN),
                        onOpen: play,
                        onReveal: () => reveal.mutate(c.id),
                        revealLabel,
                      }}
                    />
                  ))}
                </div>
                {rendered.more && (
                  <div className="grid-more" ref={rendered.sentinel} data-testid="clips-more" aria-hidden="true" />
                )}
              </div>
              {selected && <ClipDetail clip={selected} />}
            </div>
          )}
        </>
      )}
    </section>
  );
}

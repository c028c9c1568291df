import * as Tabs from '@radix-ui/react-tabs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Search as SearchIcon, SearchX, SlidersHorizontal, WifiOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { SearchHit, SearchRequestView, UiSearchType } from '../../../shared/contract/library';
import { DialogFrame } from '../components/DialogFrame';
import { HitCard } from '../components/HitCard';
import { SaveClipDialog, type ClipTarget } from '../components/SaveClipDialog';
import { SemanticHint } from '../components/SemanticHint';
import { UnmatchedNote } from '../components/UnmatchedNote';
import { SearchFilters, type Filters } from '../components/SearchFilters';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { useLibraryOffline } from '../hooks/queries';
import { useGridKeys } from '../hooks/useGridKeys';
import { timecode } from '../lib/format';
import { returnFocusTo } from '../lib/return-focus';
import { call, ContractError, localMediaUrl } from '../transport';

const TYPES: { id: UiSearchType; label: string }[] = [
  { id: 'BY_CLIP', label: 'Visual' },
  { id: 'BY_AUDIO', label: 'Speech' },
  { id: 'BY_CAPTION', label: 'Captions' },
];

export interface SearchState {
  request: SearchRequestView | null;
  selected: number;
}

/** One search box with the search types and filters; results as a keyboard-driven grid of keyframe cards. */
export function SearchPage({
  state,
  setState,
  onOpen,
  focusSearch,
}: {
  state: SearchState;
  setState: (s: SearchState) => void;
  onOpen: (hits: SearchHit[], index: number, found: { query: string; searchType: string | null }) => void;
  /** Changes each time `/` or Ctrl+K asks for the search box. */
  focusSearch: number;
}): React.JSX.Element {
  const [text, setText] = useState(state.request?.query ?? '');
  const [type, setType] = useState<UiSearchType>(state.request?.type ?? 'BY_CLIP');
  const [filters, setFilters] = useState<Filters>({});
  const [showFilters, setShowFilters] = useState(false);
  const [preview, setPreview] = useState<SearchHit | null>(null);
  const grid = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const selectedCard = (): HTMLElement | undefined =>
    grid.current?.querySelectorAll<HTMLElement>('[role="gridcell"]')[state.selected];
  const req = state.request;
  const [saving, setSaving] = useState<ClipTarget | null>(null);
  const offline = useLibraryOffline();
  const results = useQuery({
    queryKey: ['search', req],
    queryFn: () => call('search:run', req ?? { query: '' }),
    enabled: req !== null && !offline,
    retry: false,
    staleTime: 60_000,
  });
  const serviceDown =
    offline || (results.isError && results.error instanceof ContractError && results.error.code === 'offline');
  const last = useQuery({
    queryKey: ['search-last'],
    queryFn: () => call('search:last-results', {}),
    enabled: serviceDown,
  });
  const lastResults = serviceDown ? (last.data?.results ?? null) : null;
  const hits = lastResults ? lastResults.hits : (results.data?.hits ?? []);
  const shownQuery = lastResults ? lastResults.query : (req?.query ?? '');
  const found = { query: shownQuery, searchType: lastResults ? lastResults.type : (req?.type ?? null) };
  const saveClip = (i: number): void => {
    const hit = hits[i];
    if (hit) setSaving({ hit, start: hit.start, end: hit.end, ...found });
  };
  const qc = useQueryClient();
  const submit = (t: UiSearchType = type): void => {
    if (!text.trim()) return;
    const request = { query: text.trim(), type: t, ...filters };
    // A search asked again runs again, even when its answer is cached: main then keeps it as the last results, so
    // offline shows the search the editor made last, not an older one.
    void qc.invalidateQueries({ queryKey: ['search', request], exact: true });
    setState({ request, selected: 0 });
  };
  // Back from the player (or any page) to results: the card it came from has the focus; with no results, the search box.
  const focusedOnce = useRef(false);
  useEffect(() => {
    if (focusedOnce.current || (hits.length === 0 && (results.isFetching || last.isFetching))) return;
    focusedOnce.current = true;
    if (document.activeElement === input.current) return;
    const card = hits.length > 0 ? selectedCard() : undefined;
    if (card) card.focus();
    else input.current?.focus();
  });
  useEffect(() => {
    if (focusSearch === 0) return;
    input.current?.focus();
    input.current?.select();
  }, [focusSearch]);
  const onKeyDown = useGridKeys({
    grid,
    count: hits.length,
    index: state.selected,
    setIndex: (i) => setState({ ...state, selected: i }),
    onOpen: (i) => onOpen(hits, i, found),
    onPreview: (i) => setPreview(hits[i] ?? null),
    onSave: saveClip,
  });
  return (
    <section className="page page-fill">
      <form
        className="search-bar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <SearchIcon size={16} aria-hidden="true" />
        <input
          className="search-input"
          aria-label="Search the library"
          placeholder="Search footage: words on screen, what is said, what is seen…"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            // Down leaves the field for the results, as the empty state promises.
            if (e.key !== 'ArrowDown' || hits.length === 0) return;
            e.preventDefault();
            const card = selectedCard();
            card?.focus();
            card?.scrollIntoView({ block: 'nearest' });
          }}
          ref={input}
        />
        <Tabs.Root
          value={type}
          onValueChange={(v) => {
            const t = TYPES.find((x) => x.id === v)?.id ?? 'BY_CLIP';
            setType(t);
            if (req) submit(t);
          }}
        >
          <Tabs.List className="segmented" aria-label="Search type">
            {TYPES.map((t) => (
              <Tabs.Trigger key={t.id} value={t.id} className="segment">
                {t.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
        <button
          type="button"
          className={showFilters ? 'icon-button on' : 'icon-button'}
          aria-label="Filters"
          aria-pressed={showFilters}
          onClick={() => setShowFilters(!showFilters)}
        >
          <SlidersHorizontal size={14} />
        </button>
        <button type="submit" className="button primary">
          Search
        </button>
      </form>
      {showFilters && <SearchFilters value={filters} onChange={setFilters} />}
      {serviceDown && (
        <div className="callout warn offline-banner" role="status" data-testid="offline-banner">
          <WifiOff size={16} aria-hidden="true" />
          <div>
            <strong>Offline — showing your last results</strong>
            <div className="muted">
              {lastResults
                ? `“${lastResults.query}”, searched ${new Date(lastResults.at).toLocaleString()}. New searches run when the library service is back; clips and their files keep working.`
                : 'The library service cannot be reached and there is no earlier search stored on this computer.'}
            </div>
          </div>
        </div>
      )}
      {req === null && !lastResults && (
        <EmptyState icon={SearchIcon} title="Find any moment" testId="search-empty">
          <p>
            Search words that appear on screen, are spoken, or describe what is seen. Enter searches, Down moves to the
            results, arrow keys move through them, Enter opens the player, Space previews, S saves a clip. Press ? for
            every shortcut.
          </p>
        </EmptyState>
      )}
      {!serviceDown && results.isLoading && <LoadingState label={`Searching for “${req?.query ?? ''}”…`} />}
      {!serviceDown && results.isError && <ErrorState title="Search failed" error={results.error} />}
      {!serviceDown && results.isSuccess && hits.length === 0 && (
        <EmptyState icon={SearchX} title={`Nothing matches “${req?.query ?? ''}”`} testId="search-no-results">
          <p>
            Try another word, another search type, or fewer filters. Files still indexing become searchable when they
            finish.
          </p>
          <SemanticHint empty />
        </EmptyState>
      )}
      {hits.length > 0 && (
        <>
          {!lastResults && <SemanticHint empty={false} />}
          <p className="muted results-count" data-testid="results-count">
            {hits.length} {hits.length === 1 ? 'moment' : 'moments'}
            {lastResults ? ` for “${lastResults.query}” (stored)` : ` · ${results.data?.tookMs ?? 0} ms`}
          </p>
          <UnmatchedNote hits={hits} />
          <div className="hit-grid" role="grid" aria-label="Search results" ref={grid} onKeyDown={onKeyDown}>
            <div role="row" className="hit-grid-row">
              {hits.map((hit, i) => (
                <HitCard
                  key={hit.id}
                  hit={hit}
                  selected={i === state.selected}
                  actions={{
                    onSelect: () => setState({ ...state, selected: i }),
                    onOpen: () => onOpen(hits, i, found),
                    onPreview: () => setPreview(hit),
                    onSave: () => saveClip(i),
                  }}
                />
              ))}
            </div>
          </div>
        </>
      )}
      <SaveClipDialog target={saving} onClose={() => setSaving(null)} returnFocus={selectedCard} />
      <DialogFrame
        open={preview !== null}
        onOpenChange={(open) => !open && setPreview(null)}
        className="preview-dialog"
        testId="preview-dialog"
        closeLabel="Close preview"
        onCloseAutoFocus={returnFocusTo(selectedCard)}
        onKeyDown={(e) => {
          // Space opened the preview and closes it again (Quick Look), wherever focus sits inside it.
          if (e.key !== ' ' || e.defaultPrevented) return;
          e.preventDefault();
          setPreview(null);
        }}
        title={
          <>
            {preview?.videoName ?? preview?.videoNo} · {timecode(preview?.start ?? 0)} – {timecode(preview?.end ?? 0)}
          </>
        }
      >
        {preview?.localPath ? (
          <video
            className="preview-video"
            src={`${localMediaUrl(preview.localPath)}#t=${preview.start},${preview.end}`}
            autoPlay
            muted
            controls
            data-testid="preview-video"
          />
        ) : (
          <p className="muted">The original of this video is not on this computer, so it cannot be previewed here.</p>
        )}
      </DialogFrame>
    </section>
  );
}

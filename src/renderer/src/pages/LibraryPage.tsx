import * as Tabs from '@radix-ui/react-tabs';
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Film, FolderOpen, FolderPlus, LayoutGrid, List } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { AddPathsDialog } from '../components/AddPathsDialog';
import type { SearchHit } from '../../../shared/contract/library';
import type { FileView } from '../../../shared/contract/sync';
import { Choice } from '../components/Choice';
import { ColumnChooser } from '../components/ColumnChooser';
import { LibraryHeader } from '../components/LibraryHeader';
import { LibraryGrid } from '../components/LibraryGrid';
import { LibraryRow, type LibraryRowActions } from '../components/LibraryRow';
import { LibrarySelectionActions } from '../components/LibrarySelectionActions';
import './library-columns.css';
import { RemoveFromLibraryDialog } from '../components/RemoveFromLibraryDialog';
import { SaveClipDialog, type ClipTarget } from '../components/SaveClipDialog';
import { SelectionBar } from '../components/SelectionBar';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { useFolders, useSyncStatus } from '../hooks/queries';
import { useFileActions } from '../hooks/useFileActions';
import { usePagedFiles, type FileStateFilter } from '../hooks/usePagedFiles';
import { useUploadProgress } from '../hooks/useSyncEvents';
import { useToast } from '../hooks/useToast';
import { fileName } from '../lib/format';
import {
  libraryReturn,
  rememberedOrder,
  rememberedView,
  rememberOrder,
  rememberView,
  type LibraryOrder,
  type PageView,
} from '../lib/library-prefs';
import { useLibrarySelection } from '../hooks/useLibrarySelection';
import { columnTemplate, rememberedHidden, rememberHidden, type ColumnId } from '../lib/library-columns';
import { codecLabel } from '../lib/media-facts';
import { call } from '../transport';

const FILTERS: { id: string; label: string; state: FileStateFilter }[] = [
  { id: 'all', label: 'All', state: undefined },
  { id: 'linked', label: 'In library', state: 'linked' },
  { id: 'pending', label: 'Waiting', state: 'pending' },
  { id: 'skipped', label: 'Rejected', state: 'skipped' },
  { id: 'deleted', label: 'Deleted locally', state: 'deleted' },
];

const ROW_HEIGHT = 64;
const ANY_CODEC = 'any';
const ANY_CAMERA = 'any';

/** The player takes search hits: a whole file is one hit from its start to its end. */
function wholeFileHit(file: FileView): SearchHit {
  return {
    id: `${file.videoNo ?? ''}@0-${file.duration ?? 0}`,
    videoNo: file.videoNo ?? '',
    videoName: fileName(file.path),
    start: 0,
    end: file.duration ?? 0,
    score: 1,
    text: null,
    keyframe: null,
    // A file deleted from disk plays from nowhere local: the player says so and offers the library's copy.
    localPath: file.status === 'deleted' ? null : file.path,
  };
}
const NONE: string[] = [];

/** Watched folders and every file with its picture, facts and status, sorted and filtered in SQL, in a virtualised list. */
export function LibraryPage({
  onOpenSettings,
  onOpen,
}: {
  onOpenSettings: () => void;
  onOpen: (hit: SearchHit) => void;
}): React.JSX.Element {
  const [adding, setAdding] = useState(false);
  const [saving, setSaving] = useState<ClipTarget | null>(null);
  const [removing, setRemoving] = useState<FileView[] | null>(null);
  const [hidden, setHiddenState] = useState<ColumnId[]>(rememberedHidden);
  const setHidden = (next: ColumnId[]): void => {
    setHiddenState(next);
    rememberHidden(next);
  };
  const [view, setViewState] = useState<PageView>(() => rememberedView('library'));
  const setView = (next: PageView): void => {
    setViewState(next);
    rememberView('library', next);
  };
  const [filter, setFilter] = useState('all');
  const [order, setOrderState] = useState<LibraryOrder>(rememberedOrder);
  const setOrder = (next: LibraryOrder): void => {
    setOrderState(next);
    rememberOrder(next);
  };
  const [codec, setCodec] = useState(ANY_CODEC);
  const codecs = useQuery({ queryKey: ['sync', 'codecs'], queryFn: () => call('sync:codecs', {}), retry: false });
  const [camera, setCamera] = useState(ANY_CAMERA);
  const cameras = useQuery({ queryKey: ['sync', 'cameras'], queryFn: () => call('sync:cameras', {}), retry: false });
  const [name, setName] = useState('');
  const nameFilter = name.trim().slice(0, 200);
  const narrowed = filter !== 'all' || codec !== ANY_CODEC || camera !== ANY_CAMERA || nameFilter !== '';
  const toast = useToast();
  const state = FILTERS.find((f) => f.id === filter)?.state;
  const folders = useFolders();
  const status = useSyncStatus();
  const scroller = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState({ start: 0, end: 50 });
  const filesQuery = {
    state,
    codec: codec === ANY_CODEC ? undefined : codec,
    camera: camera === ANY_CAMERA ? undefined : camera,
    name: nameFilter === '' ? undefined : nameFilter,
    ...order,
  };
  const files = usePagedFiles(filesQuery, visible);
  const selection = useLibrarySelection(files.total, files.row, filesQuery);
  const progress = useUploadProgress();
  const fileActions = useFileActions();
  const actions: LibraryRowActions = {
    ...fileActions,
    open: (file) => {
      libraryReturn.path = file.path;
      libraryReturn.offset = scroller.current?.scrollTop ?? 0;
      onOpen(wholeFileHit(file));
    },
    saveClip: (file) =>
      setSaving({ hit: wholeFileHit(file), start: 0, end: file.duration ?? 0, query: '', searchType: null }),
    remove: (file) => setRemoving([file]),
    pick: selection.pick,
    copyPath: (path) => {
      navigator.clipboard.writeText(path).then(
        () => toast({ title: 'Path copied', body: path }),
        () => toast({ title: 'Could not reach the clipboard', body: path, tone: 'bad' }),
      );
    },
  };
  const virtualizer = useVirtualizer({
    count: files.total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    initialOffset: libraryReturn.offset,
    overscan: 12,
    onChange: (v) => {
      const items = v.getVirtualItems();
      const start = items[0]?.index ?? 0;
      const end = items[items.length - 1]?.index ?? 0;
      if (start !== visible.start || end !== visible.end) setVisible({ start, end });
    },
  });

  // Camera: left out while the library knows no camera at all; Date taken: while no row on screen has one. Their room
  // goes to names and reasons; the editor's own choice (the column chooser) adds to these.
  const onScreen = virtualizer.getVirtualItems().map((item) => files.row(item.index));
  const empty: ColumnId[] = [];
  if (cameras.isSuccess && cameras.data.cameras.length === 0) empty.push('camera');
  if (onScreen.length > 0 && onScreen.every((f) => f !== undefined && f !== null && !f.takenAt)) empty.push('taken');
  const shownHidden = [...new Set([...hidden, ...empty])];
  const template = columnTemplate(shownHidden);

  const focusRow = (index: number, triesLeft = 10): void => {
    const row = scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"] [data-testid="file-row"]`);
    if (row) row.focus();
    else if (triesLeft > 0) requestAnimationFrame(() => focusRow(index, triesLeft - 1));
  };
  // Up and Down (Home, End, Page Up/Down) move between rows as in any list; Enter and the menu act on the focused one.
  const onRowKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const row = e.target instanceof HTMLElement && e.target.dataset.testid === 'file-row' ? e.target : null;
    const at = Number(row?.parentElement?.dataset.index);
    if (!row || !Number.isInteger(at) || selection.onKey(e, at) || e.altKey || e.ctrlKey || e.metaKey) return;
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
    const to =
      e.key === 'Home' ? 0 : e.key === 'End' ? files.total - 1 : e.key in step ? at + (step[e.key] ?? 0) : null;
    if (to === null) return;
    e.preventDefault();
    const next = Math.max(0, Math.min(files.total - 1, to));
    virtualizer.scrollToIndex(next, { align: 'auto' });
    focusRow(next);
    selection.moved(at, next, e);
  };
  // Back from the player: the row it was opened from gets the focus again.
  useEffect(() => {
    if (!libraryReturn.path) return;
    const rows = scroller.current?.querySelectorAll<HTMLElement>('[data-testid="file-row"]') ?? [];
    const back = [...rows].find((r) => r.dataset.path === libraryReturn.path);
    if (!back) return;
    back.focus({ preventScroll: true });
    libraryReturn.path = null;
  });

  if (status.isError) {
    return (
      <section className="page">
        <header className="page-header">
          <h1>Library</h1>
        </header>
        <ErrorState
          title="The library service is not connected"
          error={status.error}
          action={
            <button type="button" className="button" onClick={onOpenSettings}>
              Open settings
            </button>
          }
        />
      </section>
    );
  }
  const folderList = folders.data?.folders ?? [];
  return (
    <section className="page page-fill">
      <header className="page-header row">
        <h1>Library</h1>
        <span className="spacer" />
        <button type="button" className="button" onClick={() => setAdding(true)} data-testid="add-footage">
          <FolderPlus size={14} aria-hidden="true" /> Add footage
        </button>
        <AddPathsDialog open={adding} onOpenChange={setAdding} dropped={NONE} />
        <SaveClipDialog target={saving} onClose={() => setSaving(null)} />
        <RemoveFromLibraryDialog
          files={removing}
          onClose={() => {
            setRemoving(null);
            selection.clear();
          }}
        />
      </header>
      {folderList.length > 0 && (
        <ul className="folder-chips" aria-label="Watched folders">
          {folderList.map((f) => (
            <li key={f.id} className="folder-chip" title={f.path}>
              <FolderOpen size={14} aria-hidden="true" />
              <span className="mono">{f.path}</span>
              {f.tags.length > 0 && <span className="muted">#{f.tags.join(' #')}</span>}
            </li>
          ))}
        </ul>
      )}
      <div className="library-bar">
        <Tabs.Root value={filter} onValueChange={setFilter}>
          <Tabs.List className="tabs" aria-label="Filter files">
            {FILTERS.map((f) => (
              <Tabs.Trigger key={f.id} value={f.id} className="tab">
                {f.label}
                {f.state && status.data ? <span className="tab-count">{status.data.files[f.state] ?? 0}</span> : null}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
        <div className="library-tools row">
          <label className="field">
            <span className="field-label">Name</span>
            <input
              type="search"
              className="input library-name-filter"
              placeholder="Part of the file name"
              aria-label="Filter by name"
              value={name}
              maxLength={200}
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <Choice
            label="Camera"
            value={camera}
            options={[
              { value: ANY_CAMERA, label: 'Any camera' },
              ...(cameras.data?.cameras ?? []).map((c) => ({ value: c, label: c })),
            ]}
            onChange={setCamera}
          />
          <Choice
            label="Codec"
            value={codec}
            options={[
              { value: ANY_CODEC, label: 'Any codec' },
              ...(codecs.data?.codecs ?? []).map((c) => ({ value: c, label: codecLabel(c) })),
            ]}
            onChange={setCodec}
          />
          {view === 'list' && <ColumnChooser hidden={hidden} onChange={setHidden} />}
          <Tabs.Root
            value={view}
            onValueChange={(v) => setView(v === 'grid' ? 'grid' : 'list')}
            className="view-switch"
          >
            <Tabs.List className="segmented" aria-label="View">
              <Tabs.Trigger value="list" className="segment" data-testid="view-list">
                <List size={14} aria-hidden="true" /> List
              </Tabs.Trigger>
              <Tabs.Trigger value="grid" className="segment" data-testid="view-grid">
                <LayoutGrid size={14} aria-hidden="true" /> Grid
              </Tabs.Trigger>
            </Tabs.List>
          </Tabs.Root>
        </div>
      </div>
      <SelectionBar
        count={selection.files.length}
        noun={['file', 'files']}
        onClear={selection.clear}
        matching={{
          total: files.total,
          all: selection.all,
          busy: selection.selectingAll,
          onSelectAll: () => void selection.selectAll(),
        }}
      >
        <LibrarySelectionActions files={selection.files} onRemove={setRemoving} />
      </SelectionBar>
      {files.first.isLoading && <LoadingState label="Reading the library…" />}
      {files.first.isError && <ErrorState title="Could not list files" error={files.first.error} />}
      {files.first.isSuccess &&
        files.total === 0 &&
        (folderList.length === 0 ? (
          <EmptyState icon={FolderPlus} title="No folders watched yet" testId="library-empty">
            <p>
              Add the folders where your footage lands. Reelsync uploads every video in them and keeps watching for new
              ones.
            </p>
            <button type="button" className="button primary" onClick={() => setAdding(true)}>
              Add a folder
            </button>
          </EmptyState>
        ) : (
          <EmptyState icon={Film} title={!narrowed ? 'No videos found yet' : 'Nothing here'} testId="library-empty">
            <p>
              {!narrowed
                ? 'The watched folders are being scanned; files appear here as they are found.'
                : 'No file matches this filter.'}
            </p>
          </EmptyState>
        ))}
      {files.total > 0 && view === 'grid' && (
        <div ref={scroller} className="virtual-list" data-testid="file-grid">
          <LibraryGrid
            scroller={scroller}
            total={files.total}
            row={files.row}
            isPicked={selection.isPicked}
            actions={actions}
            onVisible={(v) => {
              if (v.start !== visible.start || v.end !== visible.end) setVisible(v);
            }}
            onKey={selection.onKey}
            onMoved={selection.moved}
          />
        </div>
      )}
      {files.total > 0 && view === 'list' && (
        <div
          ref={scroller}
          className={`virtual-list library-list${template ? ' columns-chosen' : ''}`}
          style={template ? ({ '--library-columns': template } as React.CSSProperties) : undefined}
          data-hidden={shownHidden.join(' ')}
          data-testid="file-list"
          role="table"
          aria-label="Library files"
          onKeyDown={onRowKey}
        >
          <LibraryHeader sort={order.sort} desc={order.desc} onSort={(sort, desc) => setOrder({ sort, desc })} />
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const file = files.row(item.index);
              return (
                <div
                  key={item.key}
                  className="virtual-row"
                  data-index={item.index}
                  style={{ height: item.size, transform: `translateY(${item.start}px)` }}
                >
                  {file ? (
                    <LibraryRow
                      file={file}
                      progress={progress.get(file.id)}
                      picked={selection.isPicked(file)}
                      actions={actions}
                    />
                  ) : (
                    <div className="file-row skeleton" aria-hidden="true" />
                  )}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </section>
  );
}

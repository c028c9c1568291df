import * as Dialog from '@radix-ui/react-dialog';
import { ChevronRight, Folder, FolderOpen, HardDrive, House, Monitor } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { BrowsePlace } from '../../../shared/contract/browse';
import { breadcrumbs, useFolderBrowser } from '../hooks/useFolderBrowser';
import { DialogFrame } from './DialogFrame';
import './folder-picker.css';

const PLACE_ICON: Record<BrowsePlace['kind'], typeof House> = { home: House, root: Monitor, volume: HardDrive };

/**
 * The web mode's "Choose folder…": a browser never tells a page where a folder is, so the app lists its folders
 * (folders:browse) and the editor walks to one. Double-click or Enter opens a folder, Backspace goes up, the arrows
 * move; the path field takes a typed path. The desktop app keeps the OS dialog.
 */
export function FolderPicker({
  open,
  onOpenChange,
  onChoose,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChoose: (path: string) => void;
}): React.JSX.Element {
  const browser = useFolderBrowser();
  const { listing, go, reset } = browser;
  const [active, setActive] = useState(0);
  const [typed, setTyped] = useState('');
  // True while the path field holds what the editor typed and has not sent: a listing that arrives then (the first
  // one, still loading when they started typing) must not overwrite it.
  const editing = useRef(false);
  const list = useRef<HTMLUListElement>(null);
  /** A move by click or key: the path field follows it again. */
  const goTo = (path: string): Promise<boolean> => {
    editing.current = false;
    return go(path);
  };

  useEffect(() => {
    editing.current = false;
    if (open) void go(undefined);
    else reset();
    // Opening starts at home; `go` changes with the hidden switch, which must not send the editor home.
  }, [open]);
  useEffect(() => {
    setActive(0);
    if (!editing.current) setTyped(listing?.path ?? '');
  }, [listing?.path]);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const folders = listing?.folders ?? [];
  const join = (name: string): string =>
    listing?.path.endsWith('/') ? listing.path + name : `${listing?.path}/${name}`;
  const openAt = (i: number): void => {
    const name = folders[i];
    if (name === undefined || !listing) return;
    // A folder that vanished meanwhile: its error stays shown, and the list is read again without it.
    void goTo(join(name)).then((moved) =>
      moved ? list.current?.focus() : go(listing.path, { keepError: true }).then(() => undefined),
    );
  };
  const up = (): void => {
    if (listing?.parent) void goTo(listing.parent);
  };
  const onListKey = (e: KeyboardEvent<HTMLUListElement>): void => {
    const last = folders.length - 1;
    const to: Record<string, number> = {
      ArrowDown: Math.min(last, active + 1),
      ArrowUp: Math.max(0, active - 1),
      Home: 0,
      End: last,
      PageDown: Math.min(last, active + 10),
      PageUp: Math.max(0, active - 10),
    };
    if (e.key in to) setActive(Math.max(0, to[e.key] ?? 0));
    else if (e.key === 'Enter') openAt(active);
    else if (e.key === 'Backspace' || (e.key === 'ArrowUp' && e.altKey)) up();
    else return;
    e.preventDefault();
  };
  const name = listing ? (breadcrumbs(listing.path).at(-1)?.name ?? listing.path) : '';

  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      className="folder-picker"
      testId="folder-picker"
      onOpenAutoFocus={(e) => {
        e.preventDefault();
        list.current?.focus();
      }}
      title={
        <>
          <FolderOpen size={14} aria-hidden="true" /> Choose a folder to watch
        </>
      }
    >
      <nav className="folder-crumbs" aria-label="Current folder" data-testid="folder-crumbs">
        {listing &&
          breadcrumbs(listing.path).map((c, i, all) => (
            <span key={c.path} className="folder-crumb">
              {i > 0 && <ChevronRight size={12} aria-hidden="true" className="muted" />}
              <button
                type="button"
                className="crumb-button"
                aria-current={i === all.length - 1 ? 'location' : undefined}
                onClick={() => void goTo(c.path)}
              >
                {c.name}
              </button>
            </span>
          ))}
      </nav>
      <div className="folder-picker-body">
        <ul className="folder-places" aria-label="Places">
          {(listing?.places ?? []).map((p) => {
            const Icon = PLACE_ICON[p.kind];
            return (
              <li key={p.path}>
                <button
                  type="button"
                  className={`folder-place${listing?.path === p.path ? ' on' : ''}`}
                  title={p.path}
                  onClick={() => void goTo(p.path)}
                >
                  <Icon size={14} aria-hidden="true" /> {p.label}
                </button>
              </li>
            );
          })}
        </ul>
        <ul
          ref={list}
          className="folder-list"
          role="listbox"
          aria-label={`Folders in ${name}`}
          aria-activedescendant={folders.length ? `folder-option-${active}` : undefined}
          aria-busy={browser.loading}
          tabIndex={0}
          onKeyDown={onListKey}
          data-testid="folder-list"
        >
          {listing && folders.length === 0 && (
            <li className="folder-empty muted" role="presentation">
              No folders inside “{name}”. Choose it, or go up with Backspace.
            </li>
          )}
          {folders.map((f, i) => (
            <li
              key={f}
              id={`folder-option-${i}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              className="folder-option"
              data-testid="folder-option"
              onClick={() => setActive(i)}
              onDoubleClick={() => openAt(i)}
            >
              <Folder size={14} aria-hidden="true" />
              <span className="folder-name">{f}</span>
            </li>
          ))}
          {listing && listing.more > 0 && (
            <li className="folder-more muted" role="presentation">
              {listing.more.toLocaleString()} more folders not shown: type the path to go to one.
            </li>
          )}
        </ul>
      </div>
      <form
        className="row folder-path-form"
        onSubmit={(e) => {
          e.preventDefault();
          const path = typed.trim();
          editing.current = false;
          if (path) void go(path).then((moved) => moved && list.current?.focus());
        }}
      >
        <input
          className="input mono wide"
          aria-label="Folder path"
          value={typed}
          onChange={(e) => {
            editing.current = true;
            setTyped(e.target.value);
          }}
          spellCheck={false}
          data-testid="folder-path"
        />
        <button type="submit" className="button">
          Go
        </button>
        <label className="row folder-hidden muted">
          <input type="checkbox" checked={browser.hidden} onChange={(e) => browser.toggleHidden(e.target.checked)} />{' '}
          Hidden folders
        </label>
      </form>
      {browser.error && (
        <p className="error-text" role="alert" data-testid="folder-picker-error">
          {browser.error}
        </p>
      )}
      <div className="row">
        <span className="muted folder-count">
          {listing ? `${folders.length + listing.more} folder${folders.length + listing.more === 1 ? '' : 's'}` : ''}
        </span>
        <span className="spacer" />
        <Dialog.Close className="button">Cancel</Dialog.Close>
        <button
          type="button"
          className="button primary"
          disabled={!listing || browser.loading}
          onClick={() => listing && onChoose(listing.path)}
          data-testid="folder-choose"
          title={listing?.path}
        >
          Choose “{name}”
        </button>
      </div>
    </DialogFrame>
  );
}

import * as ContextMenu from '@radix-ui/react-context-menu';
import { FolderOpen, Pause, Play, RotateCcw, X } from 'lucide-react';
import type { FileStatus, FileView } from '../../../shared/contract/sync';
import type { ProxyProgress, UploadProgress } from '../hooks/useSyncEvents';
import { bytes, eta, fileName, folderOf, rate } from '../lib/format';
import { ProgressBar } from './ProgressBar';
import { ReasonLine } from './ReasonLine';
import { StatusBadge } from './StatusBadge';
import { Tip } from './Tip';

export interface FileActions {
  retry(id: number): void;
  pause(id: number): void;
  resume(id: number): void;
  cancel(id: number): void;
  /** Shows the file in the system file manager (by id: main looks up the path). */
  reveal(id: number): void;
  /** "Show in Finder", "Show in Explorer" or "Show in Folder". */
  revealLabel: string;
}

/** Statuses whose reason says what went wrong; any other file's reason says what is being done or awaited. */
const FAILED: ReadonlySet<FileStatus> = new Set(['skipped', 'failed', 'index_failed']);

/** The status badge with upload/index progress or the reason. */
export function FileStatusCell({
  file,
  progress,
  proxy,
}: {
  file: FileView;
  progress: UploadProgress | undefined;
  proxy?: ProxyProgress | undefined;
}): React.JSX.Element {
  return (
    <div className="file-status">
      <StatusBadge status={file.status} />
      {file.paused && <span className="badge badge-idle">Paused</span>}
      {file.status === 'queued' && proxy && (
        <div className="inline-progress proxy-progress" data-testid="proxy-progress">
          <ProgressBar value={proxy.percent} label={`Making the proxy of ${fileName(file.path)}`} tone="warn" />
          <span className="muted">
            {`Proxy ${Math.round(proxy.percent)}% · ${proxy.speed.toFixed(1)}× real time · ${eta(proxy.etaSeconds)}`}
          </span>
        </div>
      )}
      {file.status === 'uploading' && (
        <div className="inline-progress" data-testid="upload-progress">
          <ProgressBar
            value={progress ? (progress.bytes / Math.max(1, progress.total)) * 100 : null}
            label={`Uploading ${fileName(file.path)}`}
          />
          <span className="muted">
            {progress
              ? `${Math.round((progress.bytes / Math.max(1, progress.total)) * 100)}% · ${rate(progress.rate)} · ${eta(progress.etaSeconds)}`
              : 'starting…'}
          </span>
        </div>
      )}
      {file.status === 'indexing' && (
        <div className="inline-progress" data-testid="index-progress">
          <ProgressBar value={file.indexProgress} label={`Indexing ${fileName(file.path)}`} tone="ok" />
          <span className="muted">{Math.round(file.indexProgress)}% indexed</span>
        </div>
      )}
      {file.reason && file.status !== 'indexed' && (
        <ReasonLine reason={file.reason} details={file.details} tone={FAILED.has(file.status) ? 'error' : 'info'} />
      )}
    </div>
  );
}

/** Retry, pause, resume, cancel: the ones that apply to the file's state. */
export function FileActionButtons({ file, actions }: { file: FileView; actions: FileActions }): React.JSX.Element {
  const canRetry =
    file.status === 'failed' ||
    file.status === 'index_failed' ||
    file.status === 'cancelled' ||
    file.status === 'skipped';
  const canPause =
    !file.paused && (file.status === 'queued' || file.status === 'uploading' || file.status === 'waiting');
  const canCancel = file.status === 'queued' || file.status === 'uploading' || file.status === 'waiting';
  return (
    <div className="file-actions">
      {canRetry && (
        <Tip text={file.status === 'skipped' ? 'Check this file again' : 'Retry'}>
          <button
            type="button"
            className="icon-button"
            aria-label={`Retry ${fileName(file.path)}`}
            onClick={() => actions.retry(file.id)}
          >
            <RotateCcw size={14} />
          </button>
        </Tip>
      )}
      {canPause && (
        <Tip text="Pause this file">
          <button
            type="button"
            className="icon-button"
            aria-label={`Pause ${fileName(file.path)}`}
            onClick={() => actions.pause(file.id)}
          >
            <Pause size={14} />
          </button>
        </Tip>
      )}
      {file.paused && (
        <Tip text="Resume this file">
          <button
            type="button"
            className="icon-button"
            aria-label={`Resume ${fileName(file.path)}`}
            onClick={() => actions.resume(file.id)}
          >
            <Play size={14} />
          </button>
        </Tip>
      )}
      {canCancel && (
        <Tip text="Cancel the upload">
          <button
            type="button"
            className="icon-button"
            aria-label={`Cancel ${fileName(file.path)}`}
            onClick={() => actions.cancel(file.id)}
          >
            <X size={14} />
          </button>
        </Tip>
      )}
    </div>
  );
}

/** A file row's context menu. */
export function FileMenu({ children }: { children: React.ReactNode }): React.JSX.Element {
  return (
    <ContextMenu.Portal>
      <ContextMenu.Content className="menu" data-testid="file-menu">
        {children}
      </ContextMenu.Content>
    </ContextMenu.Portal>
  );
}

/** The context menu's "Show in Folder" (the platform's words). */
export function RevealItem({ file, actions }: { file: FileView; actions: FileActions }): React.JSX.Element {
  return (
    <ContextMenu.Item className="menu-item" onSelect={() => actions.reveal(file.id)}>
      <FolderOpen size={13} aria-hidden="true" /> {actions.revealLabel}
    </ContextMenu.Item>
  );
}

/** One file: name, folder, status with its progress or reason, the actions that apply to its state; right-click reveals it. */
export function FileRow({
  file,
  progress,
  proxy,
  actions,
}: {
  file: FileView;
  progress: UploadProgress | undefined;
  proxy?: ProxyProgress | undefined;
  actions: FileActions;
}): React.JSX.Element {
  return (
    <ContextMenu.Root>
      <ContextMenu.Trigger asChild>
        <div className="file-row" data-testid="file-row" data-path={file.path} data-status={file.status}>
          <div className="file-main">
            <div className="file-name" title={file.path}>
              {fileName(file.path)}
            </div>
            <div className="file-sub muted">
              {folderOf(file.path)} · {bytes(file.size)}
              {file.duplicateOf ? ' · already in the library' : ''}
            </div>
          </div>
          <FileStatusCell file={file} progress={progress} proxy={proxy} />
          <FileActionButtons file={file} actions={actions} />
        </div>
      </ContextMenu.Trigger>
      <FileMenu>
        <RevealItem file={file} actions={actions} />
      </FileMenu>
    </ContextMenu.Root>
  );
}

import * as Tabs from '@radix-ui/react-tabs';
import { replacedName } from '../../../shared/replaced-name';
import './export-dialog.css';
import { useMutation } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useState } from 'react';
import {
  EXPORT_EXTENSIONS,
  EXPORT_FORMATS,
  EXPORT_FRAME_RATES,
  type ExportFrameRate,
} from '../../../shared/contract/clips';
import { useDestinations } from '../hooks/queries';
import { call, ContractError } from '../transport';
import { ConfirmDialog } from './ConfirmDialog';

type Format = (typeof EXPORT_FORMATS)[number];

const LABEL: Record<Format, string> = {
  csv: 'CSV',
  edl: 'EDL (CMX3600)',
  fcpxml: 'FCPXML',
  xmeml: 'Premiere XML',
  otio: 'OpenTimelineIO',
};
const HINT: Record<Format, string> = {
  csv: 'A spreadsheet of every clip: file, camera original, source timecode in and out, query, tags, notes.',
  edl: 'Imports as a sequence in Premiere, Resolve and Avid, linked to the camera originals by reel and timecode.',
  fcpxml: 'Imports into Final Cut Pro and Resolve with the camera originals at their source timecode.',
  xmeml: 'Final Cut Pro 7 XML: imports into Premiere Pro and Resolve, linked to the camera originals.',
  otio: 'Imports into Resolve, Avid (through OpenTimelineIO adapters) and Python pipelines.',
};

function defaultFile(exportsRoot: string, format: Format): string {
  const sep = exportsRoot.includes('\\') && !exportsRoot.includes('/') ? '\\' : '/';
  return `${exportsRoot}${sep}reelsync-clips.${EXPORT_EXTENSIONS[format]}`;
}

type OnExists = 'refuse' | 'rename' | 'replace';

const RATE_LABEL: Record<ExportFrameRate, string> = {
  auto: 'Most common of the clips',
  '23.976': '23.976',
  '24': '24',
  '25': '25',
  '29.97': '29.97 NDF',
  '29.97-df': '29.97 DF',
  '30': '30',
  '50': '50',
  '59.94': '59.94 NDF',
  '59.94-df': '59.94 DF',
  '60': '60',
};

/**
 * Exports marker lists (the selected clips or all). In the desktop app the file comes from the native save dialog
 * (main grants it once); in a browser the path must lie inside an allowed folder, and an existing file is kept: the
 * user saves under a new name, or replaces it (the old file moved aside to "<name> (replaced)").
 */
export function ExportDialog({ ids, disabled }: { ids: number[] | undefined; disabled: boolean }): React.JSX.Element {
  const destinations = useDestinations();
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<Format>('edl');
  const [file, setFile] = useState('');
  const [frameRate, setFrameRate] = useState<ExportFrameRate>('auto');
  const [chosen, setChosen] = useState<{ grant: string; path: string } | null>(null);
  const dialog = destinations.data?.dialog ?? false;
  const exportsRoot = destinations.data?.roots.find((r) => r.builtin && /[\\/]exports$/.test(r.path))?.path ?? '';
  const target = file || (exportsRoot ? defaultFile(exportsRoot, format) : '');
  const run = useMutation({
    mutationFn: (onExists: OnExists) =>
      chosen
        ? call('clips:export', { format, frameRate, ids, fileGrant: chosen.grant, onExists: 'replace' })
        : call('clips:export', { format, frameRate, ids, file: target, onExists }),
    onSuccess: () => setChosen(null),
  });
  const choose = useMutation({
    mutationFn: () =>
      call('destinations:choose', { purpose: 'export', suggestedName: `reelsync-clips.${EXPORT_EXTENSIONS[format]}` }),
    onSuccess: (r) => {
      if (r.chosen) setChosen(r.chosen);
      run.reset();
    },
  });
  const existsError = run.error instanceof ContractError && run.error.code === 'file_exists' ? run.error : null;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) run.reset();
      }}
      trigger={
        <button type="button" className="button" disabled={disabled} data-testid="export-open">
          <Download size={14} aria-hidden="true" /> Export markers
        </button>
      }
      title={`Export ${ids ? `${ids.length} clip${ids.length === 1 ? '' : 's'}` : 'all clips'} as a marker list`}
      cancelLabel="Close"
      confirmLabel="Export"
      tone="primary"
      confirmTestId="export-run"
      confirmDisabled={(dialog ? !chosen : !target) || run.isPending}
      onConfirm={() => run.mutate('refuse')}
    >
      <Tabs.Root
        value={format}
        onValueChange={(v) => {
          const f = EXPORT_FORMATS.find((x) => x === v) ?? 'csv';
          setFormat(f);
          if (file) setFile(file.replace(/\.(csv|edl|fcpxml)$/i, `.${f}`));
          setChosen(null);
          run.reset();
        }}
      >
        <Tabs.List className="segmented" aria-label="Format">
          {EXPORT_FORMATS.map((f) => (
            <Tabs.Trigger key={f} value={f} className="segment">
              {LABEL[f]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </Tabs.Root>
      <p className="muted">{HINT[format]}</p>
      {format !== 'csv' && (
        <label className="field">
          <span className="field-label">Project frame rate</span>
          <select
            className="input"
            value={frameRate}
            onChange={(e) => {
              setFrameRate(EXPORT_FRAME_RATES.find((r) => r === e.target.value) ?? 'auto');
              run.reset();
            }}
            data-testid="export-rate"
          >
            {EXPORT_FRAME_RATES.map((r) => (
              <option key={r} value={r}>
                {RATE_LABEL[r]}
              </option>
            ))}
          </select>
          <span className="muted">
            Every timecode is converted to this rate, so the list imports into a timeline of the same rate.
          </span>
        </label>
      )}
      {dialog ? (
        <div className="field">
          <span className="field-label">Save to</span>
          <div className="row">
            <span className="mono" data-testid="export-chosen">
              {chosen?.path ?? 'no file chosen yet'}
            </span>
            <span className="spacer" />
            <button
              type="button"
              className="button"
              onClick={() => choose.mutate()}
              disabled={choose.isPending}
              data-testid="export-choose"
            >
              Choose file…
            </button>
          </div>
        </div>
      ) : (
        <label className="field">
          <span className="field-label">Save to</span>
          <input
            className="input mono"
            value={target}
            onChange={(e) => setFile(e.target.value)}
            aria-label="Export file"
            data-testid="export-file"
          />
          <span className="muted">
            Allowed folders: {destinations.data?.roots.map((r) => r.path).join(', ') ?? '…'} (more in Settings)
          </span>
        </label>
      )}
      {run.isSuccess && (
        <div className="callout ok" role="status" data-testid="export-done">
          Saved {run.data.count} clip{run.data.count === 1 ? '' : 's'} to <span className="mono">{run.data.file}</span>
        </div>
      )}
      {run.isSuccess && <pre className="export-preview">{run.data.content.slice(0, 1200)}</pre>}
      {existsError && (
        <div className="callout warn export-exists" role="alert" data-testid="export-exists">
          <p>{existsError.message}</p>
          <div className="export-exists-actions">
            <button type="button" className="button" onClick={() => run.mutate('rename')} data-testid="export-rename">
              Save as a new name
            </button>
            <button type="button" className="button" onClick={() => run.mutate('replace')} data-testid="export-replace">
              Replace it
            </button>
          </div>
          <span className="muted">Replace keeps the old file beside it as “{replacedName(target)}”.</span>
        </div>
      )}
      {run.isError && !existsError && (
        <p className="error-text" role="alert">
          {run.error.message}
        </p>
      )}
      {choose.isError && (
        <p className="error-text" role="alert">
          {choose.error.message}
        </p>
      )}
    </ConfirmDialog>
  );
}

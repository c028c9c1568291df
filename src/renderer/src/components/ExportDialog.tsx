import * as Dialog from '@radix-ui/react-dialog';
import * as Tabs from '@radix-ui/react-tabs';
import { useMutation } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { EXPORT_FORMATS } from '../../../shared/contract/clips';
import { useAppInfo } from '../hooks/queries';
import { call } from '../transport';
import { DialogCloseButton } from './DialogCloseButton';

type Format = (typeof EXPORT_FORMATS)[number];

const LABEL: Record<Format, string> = { csv: 'CSV', edl: 'EDL (CMX3600)', fcpxml: 'FCPXML' };
const HINT: Record<Format, string> = {
  csv: 'A spreadsheet of every clip: file, source, in and out, query, tags, notes.',
  edl: 'Imports as a sequence in Premiere, Resolve and Avid.',
  fcpxml: 'Imports into Final Cut Pro and Resolve with the clips and their ranges.',
};

function defaultFile(dataDir: string, format: Format): string {
  const sep = dataDir.includes('\\') && !dataDir.includes('/') ? '\\' : '/';
  return `${dataDir}${sep}clips${sep}reelsync-clips.${format}`;
}

/** Exports marker lists (the selected clips or all) to a file whose full path the user sees and can change. */
export function ExportDialog({ ids, disabled }: { ids: number[] | undefined; disabled: boolean }): React.JSX.Element {
  const info = useAppInfo();
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<Format>('edl');
  const [file, setFile] = useState('');
  const target = file || (info.data ? defaultFile(info.data.dataDir, format) : '');
  const run = useMutation({ mutationFn: () => call('clips:export', { format, ids, file: target }) });
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) run.reset();
      }}
    >
      <Dialog.Trigger className="button" disabled={disabled} data-testid="export-open">
        <Download size={14} aria-hidden="true" /> Export markers
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog narrow" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">Export {ids ? `${ids.length} clip${ids.length === 1 ? '' : 's'}` : 'all clips'} as a marker list</Dialog.Title>
          <Tabs.Root
            value={format}
            onValueChange={(v) => {
              const f = EXPORT_FORMATS.find((x) => x === v) ?? 'csv';
              setFormat(f);
              if (file) setFile(file.replace(/\.(csv|edl|fcpxml)$/i, `.${f}`));
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
          <label className="field">
            <span className="field-label">Save to</span>
            <input className="input mono" value={target} onChange={(e) => setFile(e.target.value)} aria-label="Export file" data-testid="export-file" />
          </label>
          {run.isSuccess && (
            <div className="callout ok" role="status" data-testid="export-done">
              Saved {run.data.count} clip{run.data.count === 1 ? '' : 's'} to <span className="mono">{run.data.file}</span>
            </div>
          )}
          {run.isSuccess && <pre className="export-preview">{run.data.content.slice(0, 1200)}</pre>}
          {run.isError && (
            <p className="error-text" role="alert">
              {run.error.message}
            </p>
          )}
          <div className="row">
            <span className="spacer" />
            <Dialog.Close className="button">Close</Dialog.Close>
            <button type="button" className="button primary" disabled={!target || run.isPending} onClick={() => run.mutate()} data-testid="export-run">
              Export
            </button>
          </div>
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

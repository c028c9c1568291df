import * as Dialog from '@radix-ui/react-dialog';
import * as Switch from '@radix-ui/react-switch';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Scissors } from 'lucide-react';
import { useEffect, useState } from 'react';
import { CLIP_FORMATS } from '../../../shared/contract/clips';
import type { SearchHit } from '../../../shared/contract/library';
import { useLibraryOffline } from '../hooks/queries';
import { useToast } from '../hooks/useToast';
import { bytes, timecode } from '../lib/format';
import { call } from '../transport';
import { Choice } from './Choice';
import { OutputFolderField, type OutputFolder } from './OutputFolderField';
import { TagEditor } from './TagEditor';
import { DialogCloseButton } from './DialogCloseButton';

export interface ClipTarget {
  hit: SearchHit;
  start: number;
  end: number;
  query: string;
  searchType: string | null;
}

function usd(n: number | null): string {
  if (n === null) return 'an unknown amount';
  return n < 0.01 ? `$${n.toFixed(6)}` : `$${n.toFixed(4)}`;
}

/** Where the clip comes from and what it costs, shown before saving. */
function SourceNote({ hit }: { hit: SearchHit }): React.JSX.Element {
  const offline = useLibraryOffline();
  const detail = useQuery({ queryKey: ['video', hit.videoNo], queryFn: () => call('library:video', { videoNo: hit.videoNo }), enabled: !hit.localPath, retry: false });
  const original = detail.data?.original ?? null;
  const quote = useQuery({
    queryKey: ['quote', original?.bucket, original?.blob],
    queryFn: () => call('downloads:quote', { bucket: original?.bucket ?? '', blob: original?.blob ?? '', videoNo: hit.videoNo }),
    enabled: original !== null,
    retry: false,
  });
  if (hit.localPath) return <p className="callout ok" data-testid="clip-cost">Cut from the local original on this computer: free, works offline.</p>;
  if (offline) return <p className="callout warn">The original is not on this computer and the library service is offline: the clip waits until it is back.</p>;
  if (detail.isError || quote.isError) return <p className="callout warn">{(detail.error ?? quote.error)?.message}</p>;
  if (!quote.data) return <p className="muted">Asking the library what the original costs to download…</p>;
  return (
    <p className="callout warn" data-testid="clip-cost">
      The original is not on this computer: it is downloaded first ({quote.data.bytes === null ? 'size unknown' : bytes(quote.data.bytes)}), {usd(quote.data.usd)} at 0.12 USD/GB. The service checks the balance before sending a byte.
    </p>
  );
}

/** Save a moment as a clip file: in/out, handles, format, stream copy, tags and notes; progress shows on the Clips page. */
export function SaveClipDialog({ target, onClose }: { target: ClipTarget | null; onClose: () => void }): React.JSX.Element {
  const qc = useQueryClient();
  const toast = useToast();
  const [range, setRange] = useState({ start: '0', end: '0' });
  const [handles, setHandles] = useState('0');
  const [format, setFormat] = useState<(typeof CLIP_FORMATS)[number]>('mp4');
  const [copy, setCopy] = useState(false);
  const [tags, setTags] = useState<string[]>([]);
  const [notes, setNotes] = useState('');
  const [folder, setFolder] = useState<OutputFolder>({ kind: 'default' });
  useEffect(() => {
    if (target) setRange({ start: target.start.toFixed(2), end: target.end.toFixed(2) });
  }, [target]);
  const start = Number(range.start);
  const end = Number(range.end);
  const valid = Number.isFinite(start) && Number.isFinite(end) && start >= 0 && end > start;
  const save = useMutation({
    mutationFn: () => {
      if (!target) throw new Error('nothing to save');
      const { hit } = target;
      return call('clips:save', {
        videoNo: hit.videoNo,
        videoName: hit.videoName ?? undefined,
        start,
        end,
        handles: Math.max(0, Number(handles) || 0),
        mode: copy ? 'copy' : 'accurate',
        format,
        query: target.query,
        searchType: target.searchType ?? undefined,
        text: hit.text ?? '',
        score: hit.score,
        keyframe: hit.keyframe ?? undefined,
        tags,
        notes,
        outDir: folder.kind === 'path' ? folder.path : undefined,
        outDirGrant: folder.kind === 'grant' ? folder.grant : undefined,
      });
    },
    onSuccess: (clip) => {
      setFolder({ kind: 'default' });
      toast({ title: 'Saving the clip', body: `${clip.videoName || clip.videoNo} ${timecode(clip.start)} – ${timecode(clip.end)}: follow it on the Clips page`, tone: 'info' });
      void qc.invalidateQueries({ queryKey: ['clips'] });
      onClose();
    },
  });
  return (
    <Dialog.Root open={target !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog narrow" aria-describedby={undefined} data-testid="save-clip-dialog">
          <Dialog.Title className="dialog-title">
            <Scissors size={14} aria-hidden="true" /> Save clip · {target?.hit.videoName ?? target?.hit.videoNo}
          </Dialog.Title>
          <form
            className="save-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (valid) save.mutate();
            }}
          >
            <label className="field">
              <span className="field-label">In (s)</span>
              <input className="input small mono" inputMode="decimal" value={range.start} onChange={(e) => setRange({ ...range, start: e.target.value })} aria-label="In point in seconds" />
            </label>
            <label className="field">
              <span className="field-label">Out (s)</span>
              <input className="input small mono" inputMode="decimal" value={range.end} onChange={(e) => setRange({ ...range, end: e.target.value })} aria-label="Out point in seconds" />
            </label>
            <label className="field">
              <span className="field-label">Handles (s)</span>
              <input className="input small mono" inputMode="decimal" value={handles} onChange={(e) => setHandles(e.target.value)} aria-label="Handles in seconds" />
            </label>
            <Choice label="Format" value={format} options={CLIP_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))} onChange={(v) => setFormat(CLIP_FORMATS.find((f) => f === v) ?? 'mp4')} />
            <OutputFolderField value={folder} onChange={setFolder} />
            <label className="field row switch-field">
              <Switch.Root className="switch" checked={copy} onCheckedChange={setCopy} aria-label="Fast stream copy">
                <Switch.Thumb className="switch-thumb" />
              </Switch.Root>
              <span>
                Stream copy <span className="muted">(fast, cuts on keyframes)</span>
              </span>
            </label>
            <p className="muted full">{valid ? `${timecode(start)} – ${timecode(end)} · ${(end - start).toFixed(2)} s${Number(handles) > 0 ? ` plus ${handles} s each side` : ''}` : 'Out must come after In.'}</p>
            <div className="field full">
              <span className="field-label">Tags</span>
              <TagEditor tags={tags} onChange={setTags} label="Clip tags" />
            </div>
            <label className="field full">
              <span className="field-label">Notes</span>
              <textarea className="input notes" rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
            </label>
            <div className="full">{target && <SourceNote hit={target.hit} />}</div>
            {save.isError && (
              <p className="error-text full" role="alert">
                {save.error.message}
              </p>
            )}
            <div className="row full">
              <span className="spacer" />
              <Dialog.Close className="button">Cancel</Dialog.Close>
              <button type="submit" className="button primary" disabled={!valid || save.isPending} data-testid="save-clip-submit">
                Save clip
              </button>
            </div>
          </form>
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

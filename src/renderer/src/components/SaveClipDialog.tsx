import * as Dialog from '@radix-ui/react-dialog';
import * as Switch from '@radix-ui/react-switch';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Scissors } from 'lucide-react';
import { useState } from 'react';
import { CLIP_FORMATS } from '../../../shared/contract/clips';
import type { SearchHit } from '../../../shared/contract/library';
import { useLibraryOffline } from '../hooks/queries';
import { bytes, parseTime, smpte } from '../lib/format';
import { returnFocusTo } from '../lib/return-focus';
import { call } from '../transport';
import { Choice } from './Choice';
import { OutputFolderField, type OutputFolder } from './OutputFolderField';
import { TagEditor } from './TagEditor';
import { DialogFrame } from './DialogFrame';

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
  const detail = useQuery({
    queryKey: ['video', hit.videoNo],
    queryFn: () => call('library:video', { videoNo: hit.videoNo }),
    enabled: !hit.localPath,
    retry: false,
  });
  const original = detail.data?.original ?? null;
  const quote = useQuery({
    queryKey: ['quote', original?.bucket, original?.blob],
    queryFn: () =>
      call('downloads:quote', { bucket: original?.bucket ?? '', blob: original?.blob ?? '', videoNo: hit.videoNo }),
    enabled: original !== null,
    retry: false,
  });
  if (hit.localPath)
    return (
      <p className="callout ok" data-testid="clip-cost">
        Cut from the local original on this computer: free, works offline.
      </p>
    );
  if (offline)
    return (
      <p className="callout warn">
        The original is not on this computer and the library service is offline: the clip waits until it is back.
      </p>
    );
  if (detail.isError || quote.isError) return <p className="callout warn">{(detail.error ?? quote.error)?.message}</p>;
  if (!quote.data) return <p className="muted">Asking the library what the original costs to download…</p>;
  return (
    <p className="callout warn" data-testid="clip-cost">
      The original is not on this computer: it is downloaded first (
      {quote.data.bytes === null ? 'size unknown' : bytes(quote.data.bytes)}), {usd(quote.data.usd)} at 0.12 USD/GB. The
      service checks the balance before sending a byte.
    </p>
  );
}

/** Save a moment as a clip file; a fresh form per clip (nothing carries over from the last one). Closing gives focus to `returnFocus()`. */
export function SaveClipDialog({
  target,
  onClose,
  returnFocus,
}: {
  target: ClipTarget | null;
  onClose: () => void;
  returnFocus?: () => HTMLElement | null | undefined;
}): React.JSX.Element {
  return (
    <DialogFrame
      open={target !== null}
      onOpenChange={(o) => !o && onClose()}
      className="narrow"
      testId="save-clip-dialog"
      onCloseAutoFocus={returnFocusTo(returnFocus)}
      title={
        <>
          <Scissors size={14} aria-hidden="true" /> Save clip · {target?.hit.videoName ?? target?.hit.videoNo}
        </>
      }
    >
      {target && (
        <SaveClipForm key={`${target.hit.id}@${target.start}-${target.end}`} target={target} onDone={onClose} />
      )}
    </DialogFrame>
  );
}

/**
 * What each clip format means for the picture: MP4 is H.264 (the choice of H.264), MOV and MKV keep the camera
 * original's codec family when a clip must be re-encoded (ProRes stays ProRes, DNxHD stays DNxHD).
 */
const FORMAT_LABELS: Record<(typeof CLIP_FORMATS)[number], string> = {
  mp4: 'MP4 (H.264)',
  mov: 'MOV (the original’s codec)',
  mkv: 'MKV (the original’s codec)',
};

/** In and out as SMPTE timecode at the video's frame rate (m:ss.d and seconds accepted too), handles, format, name, tags, notes. */
function SaveClipForm({ target, onDone }: { target: ClipTarget; onDone: () => void }): React.JSX.Element {
  const qc = useQueryClient();
  const { hit } = target;
  const detail = useQuery({
    queryKey: ['video', hit.videoNo],
    queryFn: () => call('library:video', { videoNo: hit.videoNo }),
    retry: false,
  });
  const fps = detail.data?.fps ?? null;
  const [range, setRange] = useState<{ start: string; end: string } | null>(null);
  const [name, setName] = useState('');
  const [handles, setHandles] = useState('0');
  const [format, setFormat] = useState<(typeof CLIP_FORMATS)[number]>('mp4');
  const [copy, setCopy] = useState(false);
  const [tags, setTags] = useState<string[]>([]);
  const [notes, setNotes] = useState('');
  const [folder, setFolder] = useState<OutputFolder>({ kind: 'default' });
  // The fields show timecode once the frame rate is known (or known to be unknown); until edited they follow it.
  const shown = range ?? { start: smpte(target.start, fps), end: smpte(target.end, fps) };
  const start = range ? parseTime(range.start, fps) : target.start;
  const end = range ? parseTime(range.end, fps) : target.end;
  const handleSeconds = parseTime(handles, fps);
  const valid = start !== null && end !== null && end > start && handleSeconds !== null;
  const save = useMutation({
    mutationFn: () => {
      if (start === null || end === null) throw new Error('In and out must be times');
      return call('clips:save', {
        videoNo: hit.videoNo,
        videoName: hit.videoName ?? undefined,
        name: name.trim() || undefined,
        start,
        end,
        handles: Math.min(600, handleSeconds ?? 0),
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
    // The Clips page shows the clip at once; its outcome (saved or failed) is the one toast a save gives.
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['clips'] });
      onDone();
    },
  });
  const edit = (field: 'start' | 'end', value: string): void => setRange({ ...shown, [field]: value });
  const timeHint = fps ? `HH:MM:SS:FF at ${Math.round(fps * 100) / 100} fps, or seconds` : 'm:ss.d or seconds';
  return (
    <form
      className="save-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) save.mutate();
      }}
    >
      <label className="field full">
        <span className="field-label">Name</span>
        <input
          className="input"
          value={name}
          maxLength={200}
          placeholder={`${hit.videoName ?? hit.videoNo} ${smpte(target.start, fps)}`}
          onChange={(e) => setName(e.target.value)}
          aria-label="Clip name"
          data-testid="clip-name-input"
        />
      </label>
      <label className="field">
        <span className="field-label">In</span>
        <input
          className="input timecode mono"
          value={shown.start}
          onChange={(e) => edit('start', e.target.value)}
          aria-label="In point"
          title={timeHint}
          aria-invalid={start === null}
          data-testid="clip-in"
        />
      </label>
      <label className="field">
        <span className="field-label">Out</span>
        <input
          className="input timecode mono"
          value={shown.end}
          onChange={(e) => edit('end', e.target.value)}
          aria-label="Out point"
          title={timeHint}
          aria-invalid={end === null}
          data-testid="clip-out"
        />
      </label>
      <label className="field">
        <span className="field-label">Handles (s)</span>
        <input
          className="input small mono"
          inputMode="decimal"
          value={handles}
          onChange={(e) => setHandles(e.target.value)}
          aria-label="Handles in seconds"
          aria-invalid={handleSeconds === null}
        />
      </label>
      <Choice
        label="Format"
        value={format}
        options={CLIP_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))}
        onChange={(v) => setFormat(CLIP_FORMATS.find((f) => f === v) ?? 'mp4')}
      />
      <OutputFolderField value={folder} onChange={setFolder} />
      <label className="field row switch-field">
        <Switch.Root className="switch" checked={copy} onCheckedChange={setCopy} aria-label="Fast stream copy">
          <Switch.Thumb className="switch-thumb" />
        </Switch.Root>
        <span>
          Stream copy <span className="muted">(fast, cuts on keyframes)</span>
        </span>
      </label>
      <p className="muted full" data-testid="clip-range-summary">
        {valid
          ? `${smpte(start, fps)} – ${smpte(end, fps)} · ${(end - start).toFixed(2)} s${(handleSeconds ?? 0) > 0 ? ` plus ${handleSeconds} s each side` : ''}`
          : start === null || end === null
            ? `In and out take ${timeHint}.`
            : 'Out must come after In.'}
      </p>
      <div className="field full">
        <span className="field-label">Tags</span>
        <TagEditor tags={tags} onChange={setTags} label="Clip tags" />
      </div>
      <label className="field full">
        <span className="field-label">Notes</span>
        <textarea
          className="input notes"
          rows={2}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          aria-label="Clip notes"
        />
      </label>
      <div className="full">
        <SourceNote hit={hit} />
      </div>
      {save.isError && (
        <p className="error-text full" role="alert">
          {save.error.message}
        </p>
      )}
      <div className="row full">
        <span className="spacer" />
        <Dialog.Close className="button">Cancel</Dialog.Close>
        <button
          type="submit"
          className="button primary"
          disabled={!valid || save.isPending}
          data-testid="save-clip-submit"
        >
          Save clip
        </button>
      </div>
    </form>
  );
}

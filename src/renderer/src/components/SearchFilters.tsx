import { useQuery } from '@tanstack/react-query';
import type { SearchRequestView } from '../../../shared/contract/library';
import { useState } from 'react';
import { call } from '../transport';
import { Choice } from './Choice';

export type Filters = Omit<SearchRequestView, 'query' | 'type' | 'topK'>;

const num = (s: string): number | undefined => (s.trim() === '' || Number.isNaN(Number(s)) ? undefined : Number(s));

/** The contract's search filters: folder, tag, camera, capture date, GPS area and filtering level. */
export function SearchFilters({
  value,
  onChange,
}: {
  value: Filters;
  onChange: (f: Filters) => void;
}): React.JSX.Element {
  const folders = useQuery({
    queryKey: ['library', 'folders'],
    queryFn: () => call('library:folders', {}),
    retry: false,
  });
  const [gps, setGps] = useState({ latitude: '', longitude: '', radiusKm: '1' });
  const editGps = (k: keyof typeof gps, text: string): void => {
    const next = { ...gps, [k]: text };
    setGps(next);
    const [lat, lon, km] = [num(next.latitude), num(next.longitude), num(next.radiusKm) ?? 1];
    onChange({
      ...value,
      gps: lat !== undefined && lon !== undefined ? { latitude: lat, longitude: lon, radiusKm: km } : undefined,
    });
  };
  return (
    <div className="filters" data-testid="search-filters">
      <Choice
        label="Folder"
        value={value.folderId === undefined ? 'any' : String(value.folderId)}
        options={[
          { value: 'any', label: 'All folders' },
          ...(folders.data?.folders ?? []).map((f) => ({
            value: String(f.folderId),
            label: `${f.name} (${f.videoCount})`,
          })),
        ]}
        onChange={(v) => onChange({ ...value, folderId: v === 'any' ? undefined : Number(v) })}
      />
      <label className="field">
        <span className="field-label">Tag</span>
        <input
          className="input"
          value={value.tag ?? ''}
          onChange={(e) => onChange({ ...value, tag: e.target.value || undefined })}
          placeholder="any"
        />
      </label>
      <label className="field">
        <span className="field-label">Camera</span>
        <input
          className="input"
          value={value.camera ?? ''}
          onChange={(e) => onChange({ ...value, camera: e.target.value || undefined })}
          placeholder="exact model"
        />
      </label>
      <label className="field">
        <span className="field-label">Shot on or after</span>
        <input
          className="input"
          type="date"
          value={value.takenAfter?.slice(0, 10) ?? ''}
          onChange={(e) =>
            onChange({ ...value, takenAfter: e.target.value ? `${e.target.value} 00:00:00` : undefined })
          }
        />
      </label>
      <label className="field">
        <span className="field-label">Near (lat, lon, km)</span>
        <span className="row tight">
          {(['latitude', 'longitude', 'radiusKm'] as const).map((k) => (
            <input
              key={k}
              className="input small"
              inputMode="decimal"
              aria-label={k}
              placeholder={k === 'radiusKm' ? 'km' : k.slice(0, 3)}
              value={gps[k]}
              onChange={(e) => editGps(k, e.target.value)}
            />
          ))}
        </span>
      </label>
      <Choice
        label="Filtering"
        value={value.filteringLevel ?? 'none'}
        options={[
          { value: 'none', label: 'Everything' },
          { value: 'low', label: 'Low' },
          { value: 'medium', label: 'Medium' },
          { value: 'high', label: 'High (best only)' },
        ]}
        onChange={(v) =>
          onChange({ ...value, filteringLevel: v === 'low' || v === 'medium' || v === 'high' ? v : undefined })
        }
      />
    </div>
  );
}

import { PROXY_WIDTHS, type ProxySettingsValues } from '../../../shared/contract/settings';
import './proxy-settings.css';

const GIB = 1024 ** 3;
const CAPS_GIB = [5, 10, 20, 50, 100, 200];

/** Search proxies of camera originals: width, cache size cap, keep for offline playback. */
export function ProxySettingsCard({
  proxy,
  onChange,
}: {
  proxy: ProxySettingsValues;
  onChange: (values: Partial<ProxySettingsValues>) => void;
}): React.JSX.Element {
  const capGib = Math.round(proxy.cacheCapBytes / GIB);
  const caps = CAPS_GIB.includes(capGib) ? CAPS_GIB : [...CAPS_GIB, capGib].sort((a, b) => a - b);
  return (
    <div className="field proxy-settings" data-testid="proxy-settings">
      <span className="field-label">Search proxies of camera originals</span>
      <span className="muted">
        Files the library does not take (ProRes, DNxHD, MXF, AVCHD, takes over 3 GB) are uploaded as a small H.264 copy
        under the same name; searches and exports still point at the original.
      </span>
      <div className="proxy-settings-row">
        <label>
          Width{' '}
          <select
            value={proxy.width}
            onChange={(e) => onChange({ width: Number(e.target.value) as ProxySettingsValues['width'] })}
            data-testid="proxy-width"
          >
            {PROXY_WIDTHS.map((w) => (
              <option key={w} value={w}>
                {w} px
              </option>
            ))}
          </select>
        </label>
        <label>
          Cache up to{' '}
          <select
            value={capGib}
            onChange={(e) => onChange({ cacheCapBytes: Number(e.target.value) * GIB })}
            data-testid="proxy-cap"
          >
            {caps.map((g) => (
              <option key={g} value={g}>
                {g} GB
              </option>
            ))}
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            checked={proxy.keep}
            onChange={(e) => onChange({ keep: e.target.checked })}
            data-testid="proxy-keep"
          />{' '}
          Keep proxies for offline playback
        </label>
      </div>
    </div>
  );
}

import { unreachable } from '../../../shared/errors';
import type { ExportFormat } from '../../../shared/contract/clips';
import { itemsCsv } from './csv';
import { itemsEdl } from './edl';
import type { ExportItem } from './export-item';
import { itemsFcpxml } from './fcpxml';
import type { Rate } from '../../../shared/timecode';
import { itemsOtio } from './otio';
import { itemsXmeml } from './xmeml';

/** One export of `items` in `format` at the list's record rate (CSV has none). */
export function renderItems(format: ExportFormat, items: ExportItem[], rate: Rate, title?: string): string {
  switch (format) {
    case 'csv':
      return itemsCsv(items);
    case 'edl':
      return itemsEdl(items, rate, title);
    case 'fcpxml':
      return itemsFcpxml(items, rate, title);
    case 'xmeml':
      return itemsXmeml(items, rate, title);
    case 'otio':
      return itemsOtio(items, rate, title);
    default:
      throw unreachable(format);
  }
}

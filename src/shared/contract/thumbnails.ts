import { z } from 'zod';
import { storageAddress } from './destination-fields';

export const thumbnailsChannels = {
  /** A keyframe from the on-disk thumbnail cache (fetched and cached when online): a data URL, or null. */
  'thumbnails:get': {
    req: z.object({ ...storageAddress, cacheOnly: z.boolean().default(false) }).strict(),
    res: z.object({ dataUrl: z.string().nullable(), cached: z.boolean() }),
  },
} as const;

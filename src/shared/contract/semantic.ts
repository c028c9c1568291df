import { z } from 'zod';
import { semanticStateSchema } from '../semantic-state';

/** The library service's semantic model slot: its state, and the download (Settings shows both). */
export const semanticChannels = {
  'semantic:state': { req: z.object({}).strict(), res: semanticStateSchema },
  'semantic:download': { req: z.object({}).strict(), res: semanticStateSchema },
  /** Stops the download under way; what was fetched stays for a later download. */
  'semantic:cancel': { req: z.object({}).strict(), res: semanticStateSchema },
  /** Installs the model from a folder or .zip/.tar archive on this computer (an offline machine's drive). */
  'semantic:install': { req: z.object({ path: z.string().min(1).max(4096) }).strict(), res: semanticStateSchema },
} as const;

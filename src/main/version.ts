import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { projectRoot } from './paths';

const pkg = z
  .object({ version: z.string() })
  .parse(JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')));

export const APP_VERSION = pkg.version;

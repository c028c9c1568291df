import type { Migration } from '../../../shared/sqlite-migrate';
import { m001Core } from './001-core';
import { m002SearchIndex } from './002-search-index';

/** Service database migrations, in order. Append only. */
export const serviceMigrations: readonly Migration[] = [m001Core, m002SearchIndex];

// Child process for the crash test: starts migration 2, says so, then spins inside its transaction until killed.
import { writeSync } from 'node:fs';
import { openDatabase } from '../../src/main/store/database';
import { migrationsForCrashTest } from './crash-migrations';

const file = process.argv[2];
if (!file) throw new Error('usage: migrate-and-hang DB_FILE');
openDatabase(file, {
  migrations: migrationsForCrashTest(() => {
    writeSync(1, 'in-migration\n');
    for (;;) {
      // busy: SIGKILL arrives here, mid-transaction
    }
  }),
});

// Child process for the billing tests: another process on the service database, firing COUNT charges of MICRO at once
// when its stdin says "go", then printing how many went through as JSON.
import { once } from 'node:events';
import { Billing, InsufficientBalanceError } from '../../src/server/accounts/billing';
import { openServiceDb } from '../../src/server/storage/db';
import { SqliteSql } from '../../src/server/storage/sqlite-sql';

const [dataDir, account, count, micro] = process.argv.slice(2);
if (!dataDir || !account || !count || !micro) throw new Error('usage: charge-burst DATA_DIR ACCOUNT_ID COUNT MICRO');
const db = openServiceDb(dataDir);
const billing = new Billing(new SqliteSql(db));
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const results = await Promise.allSettled(
  Array.from({ length: Number(count) }, () => billing.charge(Number(account), Number(micro), 'burst')),
);
const unexpected = results.find((r) => r.status === 'rejected' && !(r.reason instanceof InsufficientBalanceError));
if (unexpected) throw unexpected.status === 'rejected' ? unexpected.reason : new Error('unreachable');
db.close();
process.stdout.write(`${JSON.stringify({ charged: results.filter((r) => r.status === 'fulfilled').length })}\n`);

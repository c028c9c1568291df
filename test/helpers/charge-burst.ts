// Child process for the billing tests: another process on the service database, firing COUNT charges of MICRO when its
// stdin says "go", then printing how many went through as JSON.
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
// One charge started each millisecond, none awaited before the next: the two processes' bursts overlap even when one of
// them is scheduled late on a busy machine.
const outcomes: Promise<unknown>[] = []; // 'charged', or the error (caught at once: the loop awaits in between)
for (let i = 0; i < Number(count); i++) {
  outcomes.push(
    billing.charge(Number(account), Number(micro), 'burst').then(
      () => 'charged',
      (err: unknown) => err,
    ),
  );
  await new Promise((r) => setTimeout(r, 1));
}
const results = await Promise.all(outcomes);
const unexpected = results.find((r) => r !== 'charged' && !(r instanceof InsufficientBalanceError));
if (unexpected) throw unexpected instanceof Error ? unexpected : new Error('a charge failed with a non-error');
db.close();
process.stdout.write(`${JSON.stringify({ charged: results.filter((r) => r === 'charged').length })}\n`);

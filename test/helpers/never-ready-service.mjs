// A service that starts but never reports ready; with STUBBORN=1 it also ignores the stop message and SIGTERM.
if (process.env.STUBBORN === '1') process.on('SIGTERM', () => process.stdout.write('ignoring SIGTERM\n'));
process.stdout.write('starting, but never ready\n');
setInterval(() => {}, 1000);

// Loaded with --import into a Node child standing in for an Electron utilityProcess: gives it the
// `process.parentPort` Electron gives one (postMessage out, 'message' events carrying { data }), and ends it with its
// parent as Electron does.
import { EventEmitter } from 'node:events';

const port = new EventEmitter();
port.postMessage = (message) => process.send?.(message);
process.on('message', (data) => port.emit('message', { data }));
process.on('disconnect', () => process.exit(0));
process.parentPort = port;

// A watcher in a process of its own, for the tests that kill it (kill -9) or run two on one IN. Prints each
// event as a JSON line; SIGTERM finishes what is in flight and exits 0.
import { startWatch } from '../src/node/watch/watch.js';

const options = JSON.parse(process.argv[2]!);
// The signals are taken before the watcher starts: a start that takes up claims and routes what it finds can
// finish every job before startWatch resolves, and a SIGTERM then must still end in a clean stop, not the default
// death by signal.
const starting = startWatch(options, (e) => process.stdout.write(JSON.stringify(e) + '\n'));
const stop = () => void starting.then((hot) => hot.stop()).then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
await starting;

import { parentPort, workerData } from 'node:worker_threads';
import { runCommand } from './kstbench';
import type { CommandWorkerData } from './thread';

/**
 * The worker-thread side of cli/kstbench.ts's runInWorker: runs one command and posts its exit code.
 * Temporary files the command stages are reported to the main thread by lib/io/temporaries.ts.
 */
const { name, argv } = workerData as CommandWorkerData;
void runCommand(name, argv).then((code) => parentPort!.postMessage({ kstbenchExit: code }));

import { workerData } from 'node:worker_threads';
import { codeCacheDir, codeCacheRoot, useCodeCache } from './code-cache';
import { recordCommandExit, type CommandWorkerData } from './thread';

/**
 * The worker-thread side of cli/kstbench.ts's runInWorker: runs one command and records its exit code
 * in the memory it shares with the main thread.
 * Temporary files the command stages are reported to the main thread by lib/io/temporaries.ts.
 * The command's modules are imported after the code cache is in place (cli/code-cache.ts), so they
 * load from it; the cache is written, when a module was missing from it, after the exit is recorded: a
 * signal during the save then stops only the save (the main thread keeps the command's exit code).
 */
const { name, argv, exit } = workerData as CommandWorkerData;
const saveCodeCache = useCodeCache(name, codeCacheDir(), codeCacheRoot());
void import('./kstbench')
  .then(({ runCommand }) => runCommand(name, argv))
  .then((code) => {
    recordCommandExit(exit, code);
    saveCodeCache();
  });

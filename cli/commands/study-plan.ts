import type { Subcommand } from './study';
export const plan: Subcommand = { help: 'not yet', async run() { return 2; } };

// The bridge's types live in src-shared so the preload and the console share one definition.
export type { SaveFileFilter, SaveFileOptions, SaveFileResult, ShellBridge } from '../../src-shared/contracts/shell';

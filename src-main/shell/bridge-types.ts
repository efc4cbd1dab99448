// The bridge's types live in src-shared so the preload and the console share one definition.
export type {
  ConnectBridge,
  ConnectRefusal,
  ConnectRequest,
  ConnectResult,
  ConnectState,
  ProbeResult,
  SaveFileFilter,
  SaveFileOptions,
  SaveFileResult,
  ShellBridge,
  ShellConnection,
} from '../../src-shared/contracts/shell';

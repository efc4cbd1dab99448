// A network of two the test run makes itself (issue 39): a network namespace holding the "team
// server" end of a veth pair at 10.231.N.2, this namespace holding the "other desk" end at
// 10.231.N.1, N from the process id. Traffic between them crosses a real (virtual) link on
// non-loopback addresses and never leaves the machine. Needs root and iproute2; `unavailable()`
// says why not, so a test can skip saying so.
import { spawnSync } from 'node:child_process';

export interface TeamNetwork {
  /** The namespace's name (`ip netns exec <name> ...`). */
  name: string;
  /** Where the team server listens: inside the namespace. */
  serverAddress: string;
  /** The other desk: this namespace's end. */
  deskAddress: string;
  /** `argv` run inside the namespace. */
  inside(argv: readonly string[]): string[];
  remove(): void;
}

function ip(...args: string[]): void {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${(r.stderr || r.error?.message || '').trim()}`);
}

/** Null when a namespace can be made here; else why not (not root, no iproute2, not permitted). */
export function unavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'making a network namespace needs root';
  const r = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  if (r.error) return 'iproute2 (`ip`) is not installed';
  if (r.status !== 0) return `ip netns is not permitted here: ${r.stderr.trim()}`;
  return null;
}

export function createTeamNetwork(tag = 'team'): TeamNetwork {
  const n = process.pid % 250;
  const name = `cc-${tag}-${process.pid}`;
  const host = `cc${process.pid % 100000}h`;
  const peer = `cc${process.pid % 100000}n`;
  const serverAddress = `10.231.${n}.2`;
  const deskAddress = `10.231.${n}.1`;
  // Left over from a run that was killed: gone first.
  spawnSync('ip', ['link', 'del', host]);
  spawnSync('ip', ['netns', 'del', name]);
  ip('netns', 'add', name);
  try {
    ip('link', 'add', host, 'type', 'veth', 'peer', 'name', peer);
    ip('link', 'set', peer, 'netns', name);
    ip('addr', 'add', `${deskAddress}/30`, 'dev', host);
    ip('link', 'set', host, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${serverAddress}/30`, 'dev', peer);
    ip('netns', 'exec', name, 'ip', 'link', 'set', peer, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (e) {
    spawnSync('ip', ['link', 'del', host]);
    spawnSync('ip', ['netns', 'del', name]);
    throw e;
  }
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    spawnSync('ip', ['link', 'del', host]);
    spawnSync('ip', ['netns', 'del', name]);
  };
  process.once('exit', remove);
  return { name, serverAddress, deskAddress, inside: (argv) => ['ip', 'netns', 'exec', name, ...argv], remove };
}

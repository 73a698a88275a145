import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/** Who holds a lock: enough to tell whether it is still running, and to name it to a writer. */
interface Holder {
  pid: number;
  host: string;
  /** When the build took the lock (ISO time). */
  started: string;
  /** When its process started, where the system says (Linux): a pid used again later is not the holder. */
  since?: string;
  /** This lock among all: what a build checks before it removes a lock it did not take. */
  token: string;
}

/** The exit code of a build refused because another one is using its folders (sysexits' EX_TEMPFAIL). */
export const LOCKED_EXIT_CODE = 75;

/** How often a build that waits for another looks again. */
const WAIT_POLL_MS = 250;

/** A second build into folders a build is using: refused, with the build that uses them. */
export class BuildLockedError extends Error {
  constructor(folder: string, holder: Holder, lockFile: string) {
    super(
      `${folder} is being written by another build (${describe(holder)}). Build again once it has finished, ` +
        `or with --wait to wait for it. If that process is not a build, remove ${lockFile}.`,
    );
    this.name = 'BuildLockedError';
  }
}

function describe(holder: Holder): string {
  const started = new Date(holder.started);
  const seconds = Math.round((Date.now() - started.getTime()) / 1000);
  const host = holder.host === hostname() ? '' : ` on ${holder.host}`;
  return `pid ${holder.pid}${host}, started ${started.toLocaleString()}, ${seconds} s ago`;
}

/** When process `pid` started, in the kernel's clock ticks since boot; undefined where /proc does not say. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command (which may hold spaces): the start time is the 20th of them.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the build that took the lock may still be running. */
function running(holder: Holder): boolean {
  if (!(holder.pid > 0)) return false;
  // Another machine's process cannot be seen from here (a shared network folder): assume it runs.
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const since = processStart(holder.pid);
  return holder.since === undefined || since === undefined || since === holder.since;
}

/** The lock file's holder; undefined when there is none (released meanwhile), a dead one when unreadable. */
function readHolder(lockFile: string): Holder | undefined {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const holder = JSON.parse(text) as Holder;
    if (typeof holder.pid === 'number' && typeof holder.token === 'string') return holder;
  } catch {
    // Not a lock this build wrote: nobody can hold it.
  }
  return { pid: 0, host: hostname(), started: new Date(0).toISOString(), token: text };
}

/**
 * The folders one build writes (dist/, manifest/, the cache), locked against every other build for as
 * long as it runs: two builds into the same folders would write, move and sweep each other's files. Each
 * folder's lock is a file beside it (`dist.build-lock`), made whole under another name and linked into
 * place, which succeeds for one build only, and which names its holder. A lock whose process is no longer
 * running (killed, the machine restarted) is taken over, with a note: the build then repairs whatever the
 * other one left half-done (folder-update.ts). Folders are locked in the order of their paths, so two builds
 * that wait for each other never each hold what the other waits for.
 */
export class BuildLock {
  private constructor(private readonly held: { file: string; token: string }[]) {}

  /** Locks `folders`; refused (`BuildLockedError`) while another build holds one, or waits with `wait`. */
  static async acquire(
    folders: readonly string[],
    options: { wait?: boolean; log?: (line: string) => void } = {},
  ): Promise<BuildLock> {
    const lock = new BuildLock([]);
    const me: Omit<Holder, 'token'> = {
      pid: process.pid,
      host: hostname(),
      started: new Date().toISOString(),
      ...(processStart(process.pid) === undefined ? {} : { since: processStart(process.pid) }),
    };
    const sorted = [...new Set(folders.map((folder) => path.resolve(folder)))].sort();
    try {
      for (const folder of sorted) {
        const file = `${folder}.build-lock`;
        const token = randomBytes(8).toString('hex');
        let waiting = false;
        for (;;) {
          const holder = take(file, { ...me, token }, options.log);
          if (!holder) break;
          if (!options.wait) throw new BuildLockedError(folder, holder, file);
          if (!waiting) options.log?.(`waiting for the build that is writing ${folder} (${describe(holder)})`);
          waiting = true;
          await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
        }
        lock.held.push({ file, token });
      }
    } catch (error) {
      lock.release();
      throw error;
    }
    return lock;
  }

  /** Lets the folders go; a lock another build has taken over meanwhile is left to it. */
  release(): void {
    for (const { file, token } of this.held.splice(0)) {
      if (readHolder(file)?.token === token) rmSync(file, { force: true });
    }
  }
}

/** Takes the lock `file` for `me`; returns the build holding it when that build is still running. */
function take(file: string, me: Holder, log?: (line: string) => void): Holder | undefined {
  mkdirSync(path.dirname(file), { recursive: true });
  const mine = `${file}.${me.token}`;
  writeFileSync(mine, `${JSON.stringify(me)}\n`);
  try {
    for (;;) {
      try {
        linkSync(mine, file);
        return undefined;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readHolder(file);
      if (!holder) continue;
      if (running(holder)) return holder;
      if (removeStale(file, holder, me.token)) {
        log?.(
          `took over ${file} from a build that is no longer running (${describe(holder)}); ` +
            'this build repairs what it left unfinished',
        );
      }
    }
  } finally {
    rmSync(mine, { force: true });
  }
}

/**
 * Removes the lock `file` of the stopped build `stale`. Moved aside first and checked: when another build
 * took it over meanwhile, the lock moved is that build's, and goes back. Whether the stale lock was removed.
 */
function removeStale(file: string, stale: Holder, token: string): boolean {
  const aside = `${file}.stale-${token}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const moved = readHolder(aside);
  if (moved && moved.token !== stale.token) {
    try {
      linkSync(aside, file);
    } catch {
      // A third build took the lock meanwhile: it is the holder now.
    }
  }
  rmSync(aside, { force: true });
  return moved?.token === stale.token;
}

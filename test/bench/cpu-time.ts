import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

// CPU spent during a phase of a benchmark, to show what it cost the machine and not only how long
// it took: on a machine with few cores, a rate target is also a CPU budget per item.

/** This process, every thread (engines loaded in-process, like chDB, included). */
const processCpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU ticks of each local process named `postgres` (backends, WAL writer, autovacuum …). */
type PostgresCpu = Map<string, number>;

/** utime + stime of a process from /proc (`stat` is "pid (comm) state …"), with its name. */
function statOf(pid: string): { name: string; ticks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the name may hold spaces, the fields after it do not
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, close), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined; // the process ended meanwhile, or no /proc
  }
}

/** Reads /proc; undefined when Postgres does not run on this machine or /proc is not readable. */
function localPostgresCpu(): PostgresCpu | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return undefined;
  }
  const ticks: PostgresCpu = new Map();
  for (const pid of pids) {
    const stat = statOf(pid);
    if (stat?.name === 'postgres') ticks.set(pid, stat.ticks);
  }
  return ticks.size > 0 ? ticks : undefined;
}

/** CPU seconds of these processes (the bench's own children, alive for the whole phase). */
const processesCpuSeconds = (pids: readonly number[]): number =>
  pids.reduce((sum, pid) => sum + (statOf(String(pid))?.ticks ?? 0), 0) / CLOCK_TICKS;

/**
 * CPU seconds Postgres spent since `before`: processes started since count whole; a process that
 * ended meanwhile is not seen any more (its last share is missed: an undercount, never negative).
 */
function postgresCpuSince(before: PostgresCpu): number {
  let ticks = 0;
  for (const [pid, now] of localPostgresCpu() ?? []) ticks += now - (before.get(pid) ?? 0);
  return ticks / CLOCK_TICKS;
}

export const cores = (): number => os.availableParallelism();

/** "1.62 cores, 9.4 µs per line": CPU seconds over a phase's wall time and per item. */
export function cpuLine(cpuSeconds: number, wallSeconds: number, items: number, unit: string): string {
  return `${(cpuSeconds / wallSeconds).toFixed(2)} cores, ${((cpuSeconds / items) * 1e6).toFixed(1)} µs of CPU per ${unit}`;
}

export interface CpuSpent<T> {
  result: T;
  /** This process (the app or client, with its in-process engines) and the `processes` asked for. */
  processSeconds: number;
  /** The local Postgres; undefined when not asked for or when none runs on this machine. */
  postgresSeconds?: number;
}

/**
 * CPU seconds this process and `processes` (its children that do the work: servers, clients),
 * and (unless `postgres: false`) a local Postgres, spent while `work` ran.
 */
export async function cpuDuring<T>(work: () => Promise<T>, options: { postgres?: boolean; processes?: readonly number[] } = {}): Promise<CpuSpent<T>> {
  const postgres = options.postgres === false ? undefined : localPostgresCpu();
  const others = options.processes ?? [];
  const before = processCpuSeconds() + processesCpuSeconds(others);
  const result = await work();
  const processSeconds = processCpuSeconds() + processesCpuSeconds(others) - before;
  return { result, processSeconds, postgresSeconds: postgres && postgresCpuSince(postgres) };
}

/**
 * Connection budgets shared by the HTTP server and the embedded MQTT broker (docs/deployment.md "Connections and
 * file descriptors"; docs/decisions/ingest.md "Broker limits"). Every socket costs a file descriptor; when the
 * process runs out (EMFILE) it can accept nothing and open no database connection, so no single kind of client,
 * and no single address, may take them all. Addresses are counted by group: an IPv4 address, or the /64 prefix of
 * an IPv6 address (one subscriber line or host gets a whole /64, RFC 6177, and could otherwise rotate through it).
 */
import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';

/** File descriptors kept back from sockets: database pool, log and data files, DNS, child processes. */
export const FD_RESERVE = 512;
/** Share of the remaining descriptors given to HTTP (the console, the API, `/mqtt`); MQTT devices get the rest. */
const HTTP_FD_SHARE = 0.25;

/** The group an address is counted in: the IPv4 address, or the IPv6 /64 prefix (`2001:db8:1:2::/64`). */
export function addressGroup(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

/**
 * The process's open-file limit (the soft RLIMIT_NOFILE, which Node raises to the hard limit at start), read from
 * /proc/self/limits; null where that file does not exist (not Linux).
 */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    if (soft === 'unlimited') return Number.MAX_SAFE_INTEGER;
    const n = Number(soft);
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/** Default total connections of each kind, from the open-file limit (see {@link connectionBudget}). */
export interface TConnectionBudget {
  httpMaxConnections: number;
  mqttMaxConnections: number;
}

/**
 * Splits `fdLimit` descriptors: FD_RESERVE kept back, a quarter of the rest for HTTP, the rest for MQTT, so the
 * two caps together can never exhaust the process. Without a known limit: 4,096 HTTP and 12,288 MQTT (a 16 K limit).
 */
export function connectionBudget(fdLimit: number | null): TConnectionBudget {
  const usable = Math.max((fdLimit ?? 16_384) - FD_RESERVE, 64);
  const httpMaxConnections = Math.max(Math.floor(usable * HTTP_FD_SHARE), 32);
  return { httpMaxConnections, mqttMaxConnections: Math.max(usable - httpMaxConnections, 32) };
}

/** Counts open things per address group against one cap. */
export class AddressCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly perGroup: number) {}

  /** Open now in `group`. */
  count(group: string): number {
    return this.counts.get(group) ?? 0;
  }

  /** Counts one more in `group` when it is under the cap; answers false (nothing counted) when it is full. */
  tryTake(group: string): boolean {
    const n = this.count(group);
    if (n >= this.perGroup) return false;
    this.counts.set(group, n + 1);
    return true;
  }

  /** One in `group` closed. */
  release(group: string): void {
    const left = this.count(group) - 1;
    if (left > 0) this.counts.set(group, left);
    else this.counts.delete(group);
  }
}

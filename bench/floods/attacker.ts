/**
 * bench/floods, the attacker (a child process, so its sockets and CPU are not the server's): holds `count` sockets
 * from one loopback address — half-open MQTT (connected, never a CONNECT) or slow-header HTTP (a header line every
 * `dripMs`) — re-opening each one the server closes, until told 'stop'; then reports how many the server closed.
 */
import { dripHeaders, holdSockets, type THeldSockets } from '@tessera/server/testing';

/** The order this process receives from run.ts. */
export interface TAttackOrder {
  kind: 'mqtt-half-open' | 'http-slow';
  host: string;
  port: number;
  count: number;
  localAddress: string;
  dripMs: number;
}

/** What it reports when stopped. */
export interface TAttackReport {
  closedByServer: number;
  openAtStop: number;
}

let held: THeldSockets | null = null;
process.on('message', (msg: TAttackOrder | 'stop') => {
  if (msg === 'stop') {
    const report: TAttackReport = { closedByServer: held?.closedByServer ?? 0, openAtStop: held?.open ?? 0 };
    held?.stop();
    process.send?.(report, () => process.exit(0));
    return;
  }
  held = holdSockets({ host: msg.host, port: msg.port }, msg.count, {
    localAddress: msg.localAddress,
    reopenMs: 1,
    onOpen: msg.kind === 'http-slow' ? dripHeaders(msg.dripMs) : undefined,
  });
});

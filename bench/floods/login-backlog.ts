/**
 * bench/floods, the backlog-at-login probe: `rounds` logins of a device that sends a 48 KB QoS 1 message in the
 * CONNECT's TCP write and another right after the CONNACK; answers the PUBACKs received of 2 × `rounds`.
 */
import { BACKLOG_POINTS, BACKLOG_SPACING_MS, publishBacklogAtLogin } from '@tessera/server/testing';

/** Runs the probe `rounds` times against `target` as `device`. */
export async function loginBacklog(
  target: { host: string; port: number },
  device: { tangramId: string; secret: string },
  rounds: number,
): Promise<{ acked: number }> {
  const span = 2 * BACKLOG_POINTS * BACKLOG_SPACING_MS;
  // Two hours back, clear of the points the other phases stored.
  const t0 = Date.now() - 2 * 3_600_000;
  let acked = 0;
  for (let round = 0; round < rounds; round++) acked += await publishBacklogAtLogin(target, device, t0 + round * span);
  return { acked };
}

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
  // In the past by the probe's whole span, so every point is inside the accepted window and under the device rate.
  const t0 = Date.now() - rounds * span - 60_000;
  let acked = 0;
  for (let round = 0; round < rounds; round++) acked += await publishBacklogAtLogin(target, device, t0 + round * span);
  return { acked };
}

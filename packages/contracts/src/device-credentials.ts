/**
 * A device's ThingsBoard-compatible access token (docs/decisions/device-apis.md "Access tokens"): the MQTT username
 * of `v1/devices/me/…` and the `{token}` of `/api/v1/{token}/…`. Stored as SHA-256 only, so the full token is
 * answered once, by the POST that issues it; GET answers it masked.
 */
import { z } from 'zod';

/** The credentials type a device's access token is shown as (ThingsBoard's name for it). */
export const DEVICE_CREDENTIALS_TYPE = 'ACCESS_TOKEN';

/**
 * GET/POST `/frontstage/v1/devices/{tangramId}/credentials`. `access_token` is the full token only in the POST that
 * issued it (else null); `access_token_masked` is its last four characters behind bullets (null: none issued yet);
 * `issued_at` epoch ms or null.
 */
export const ZDeviceCredentials = z.object({
  tangram_id: z.string(),
  credentials_type: z.literal(DEVICE_CREDENTIALS_TYPE),
  access_token: z.string().nullable(),
  access_token_masked: z.string().nullable(),
  issued_at: z.number().int().nullable(),
});
export type TDeviceCredentials = z.infer<typeof ZDeviceCredentials>;

/** How a token is masked: bullets, then its last four characters. */
export function maskAccessToken(last4: string): string {
  return `••••••••${last4}`;
}
